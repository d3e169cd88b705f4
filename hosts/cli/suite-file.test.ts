// eval --suite FILE: the example suite of docs/evaluation.md runs with a scripted model and is
// scored by the physics (the goal predicate on the world), and a broken file is
// one line naming the field.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openResults } from '../../eval/results/index';
import { main } from './main';

async function cli(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await main(argv, { out: (t) => (out += `${t}\n`), err: (t) => (err += `${t}\n`) });
  return { code, out, err };
}

const root = join(import.meta.dirname, '../..');

describe('eval --suite FILE', () => {
  it('runs the example suite: the scripted model puts the lemon in the bowl (1), which leaves it not held (0)', async () => {
    const out = mkdtempSync(join(tmpdir(), 'skillbridge-cli-suite-file-'));
    const r = await cli(
      'eval',
      '--suite',
      join(root, 'examples/suites/fruits.json'),
      '--model',
      `scripted:${join(root, 'examples/suites/fruits.script.json')}`,
      '--out',
      out,
      '--json',
    );
    expect(r.code, r.err).toBe(0);
    const body = JSON.parse(r.out) as { suite: string; runId: string; cases: number; score: number };
    expect(body).toMatchObject({ suite: 'my-fruits', cases: 2, score: 0.5 });
    const db = openResults(out, { mode: 'read' });
    const rows = db.results(body.runId);
    db.close();
    expect(rows.map((x) => [x.caseId, x.status, x.score])).toEqual([
      ['lemon-bowl', 'ok', 1],
      ['lemon-held', 'ok', 0],
    ]);
  }, 120_000);

  it('rescores a suite file run from its recorded end states, reading the file again', async () => {
    const out = mkdtempSync(join(tmpdir(), 'skillbridge-cli-suite-rescore-'));
    const model = `scripted:${join(root, 'examples/suites/fruits.script.json')}`;
    const r = await cli('eval', '--suite', join(root, 'examples/suites/fruits.json'), '--model', model, '--out', out, '--json');
    expect(r.code, r.err).toBe(0);
    const again = await cli('rescore', (JSON.parse(r.out) as { runId: string }).runId, '--db', out, '--json');
    expect(again.code, again.out).toBe(0);
    expect(JSON.parse(again.out)).toMatchObject({ suite: 'my-fruits', rescored: 2, failed: [], changed: [] });
  }, 120_000);

  it("refuses --model oracle on a suite file in one line (its cases have goals, not the oracle's plans), exit 2", async () => {
    const out = mkdtempSync(join(tmpdir(), 'skillbridge-cli-suite-oracle-'));
    const r = await cli('eval', '--suite', join(root, 'examples/suites/fruits.json'), '--model', 'oracle', '--out', out);
    expect(r.code).toBe(2);
    expect(r.err.trim().split('\n')).toHaveLength(1);
    expect(r.err).toMatch(/--model oracle has no plan for a suite file's cases/);
  }, 120_000);

  it('answers a broken suite file with one line naming the field, exit 2', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'skillbridge-cli-suite-bad-'));
    const cases: Array<[unknown, RegExp]> = [
      [{ id: 'x', cases: [{ id: 'a', task: 't', goal: { fact: 'in(a, b)' } }] }, /cases\.0\.scene: missing/],
      [{ id: 'x', scene: 's', cases: [{ id: 'a', task: 't', goal: { fakt: 'in(a, b)' } }] }, /cases\.0\.goal/],
      [{ id: 'x', scene: 's', cases: [{ id: 'a', task: 't', goal: { fact: 'in(a, b)' }, colour: 1 }] }, /cases\.0: unknown field colour/],
      [{ id: 'x', scene: 's', cases: [] }, /cases: at least one case/],
    ];
    for (const [body, msg] of cases) {
      const file = join(dir, 'suite.json');
      writeFileSync(file, JSON.stringify(body));
      const r = await cli('eval', '--suite', file, '--model', 'floor:noop', '--out', dir);
      expect(r.code).toBe(2);
      expect(r.err.trim().split('\n')).toHaveLength(1);
      expect(r.err).toMatch(msg);
      const j = await cli('eval', '--suite', file, '--model', 'floor:noop', '--out', dir, '--json');
      expect(JSON.parse(j.out)).toEqual({ error: { code: 'bad-suite-file', message: expect.stringMatching(msg) } });
    }
  });
});
