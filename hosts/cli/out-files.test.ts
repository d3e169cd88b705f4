// Output files: a folder named where a file goes is a usage error (one line,
// exit 2, not 70), and a trace that cannot be written stops the run (exit 1, one line).
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from './main';

async function cli(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await main(argv, { out: (t) => (out += `${t}\n`), err: (t) => (err += `${t}\n`) });
  return { code, out, err };
}

const dir = mkdtempSync(join(tmpdir(), 'sb-outfiles-'));
const script = join(dir, 'turns.json');
writeFileSync(
  script,
  JSON.stringify([{ tool_calls: [{ id: 'c1', type: 'function', function: { name: 'get_objects', arguments: {} } }] }, { content: 'done' }]),
);

describe('a folder where a file goes', () => {
  it('run --trace DIR, export --mcap DIR, report --junit DIR: exit 2 with one line', async () => {
    for (const argv of [
      ['run', '--scene', 'tabletop/fruits', '--model', `scripted:${script}`, '--trace', dir, 'hi'],
      ['export', join(dir, 'whatever.jsonl'), '--mcap', dir],
      ['report', 'some-run', '--db', dir, '--junit', dir],
    ]) {
      const r = await cli(...argv);
      expect(r.code, argv.join(' ')).toBe(2);
      expect(r.err.trim().split('\n')).toHaveLength(1);
      expect(r.err).toMatch(/is a folder/);
    }
  });
});

describe('a trace that cannot be written', () => {
  it.skipIf(!existsSync('/dev/full'))('stops the run: --trace /dev/full exits 1 with one line, and no tool runs', async () => {
    const r = await cli('run', '--scene', 'tabletop/fruits', '--model', `scripted:${script}`, '--trace', '/dev/full', 'hi');
    expect(r.code).toBe(1);
    expect(r.err.trim().split('\n')).toHaveLength(1);
    expect(r.err).toMatch(/trace could not be written.*ENOSPC|no space/i);
    expect(r.out).not.toMatch(/get_objects/);
  });
});
