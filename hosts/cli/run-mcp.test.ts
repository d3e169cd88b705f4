// skillbridge run --mcp FILE end to end: a scripted model uses a tool of another
// `skillbridge mcp` process; the acting one waits for a yes at the terminal even
// under --approve auto, and the trace keeps the call. A bad config is one line.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readTrace } from '../../agents/runtime/trace';
import { BIN } from '../../test/support/mcp';

const dir = mkdtempSync(join(tmpdir(), 'sb-run-mcp-'));
const file = (name: string, data: unknown) => {
  const p = join(dir, name);
  writeFileSync(p, typeof data === 'string' ? data : JSON.stringify(data));
  return p;
};
const run = (args: string[], input = '') =>
  spawnSync(process.execPath, [BIN, 'run', '--scene', 'tabletop/fruits', '--workflow', 'flat', ...args], {
    input,
    encoding: 'utf8',
    timeout: 150_000,
  });

describe('skillbridge run --mcp', () => {
  it("offers the external server's tools and asks before its acting ones run", () => {
    const cfg = file('mcp.json', {
      mcpServers: {
        other: { command: process.execPath, args: [BIN, 'mcp', '--scene', 'tabletop/fruits', '--approve', 'auto'], startSeconds: 120 },
      },
    });
    const script = file('turns.json', [
      { tool_calls: [{ function: { name: 'other__pick', arguments: { object_name: 'lemon' } } }] },
      { content: 'The other arm has the lemon.' },
    ]);
    const trace = join(dir, 't.jsonl');
    const r = run(
      ['--model', `scripted:${script}`, '--mcp', cfg, '--approve', 'auto', '--trace', trace, '--json', 'pick the lemon over there'],
      'y\n',
    );
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout + r.stderr).toMatch(/Approve other__pick\(\{"object_name":"lemon"\}\)\? \[y\/N\]/);
    const recs = readTrace(trace).records;
    expect(recs.find((x) => x.type === 'approval')).toMatchObject({ tool: 'other__pick', decision: 'approved' });
    expect(recs.find((x) => x.type === 'tool_result')).toMatchObject({ name: 'other__pick', ok: true });
    // The local robot did not move: the call ran in the other process's world.
    const body = JSON.parse(r.stdout.slice(r.stdout.search(/^\{$/m))) as { facts: string[]; final: string };
    expect(body.final).toBe('The other arm has the lemon.');
    expect(body.facts).toContain('hand_empty(robot)');
  }, 160_000);

  it('answers a bad --mcp file with one line and exit 2', () => {
    const bad = run(['--model', 'scripted:x.json', '--mcp', file('bad.json', { mcpServers: { x: { args: [] } } })]);
    expect(bad.status).toBe(2);
    expect(bad.stderr.trim().split('\n')).toHaveLength(1);
    expect(bad.stderr).toContain('mcpServers.x');
    const missing = run(['--model', 'scripted:x.json', '--json', '--mcp', join(dir, 'none.json')]);
    expect(missing.status).toBe(2);
    expect(JSON.parse(missing.stdout)).toMatchObject({ error: { code: 'usage', message: expect.stringContaining('no such file') } });
  }, 60_000);
});
