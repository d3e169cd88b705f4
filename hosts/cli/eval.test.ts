// skillbridge eval end to end, in process through main(): the --json object,
// what each row records, trials and pass^k, worker threads with the same end
// states as one thread, Ctrl-C then --resume, and bad input as one line
// (unknown suite, workflow or model, a corrupt database, a run from another
// version, a case that crashes — the run goes on).
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openResults } from '../../eval/results/index';
import { runEval } from '../../eval/runner/runner';
import { main } from './main';
import { TERMINAL, typedModel } from '../../test/support/host-refs';

async function cli(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await main(argv, { out: (t) => (out += `${t}\n`), err: (t) => (err += `${t}\n`) });
  return { code, out, err };
}

const fresh = () => mkdtempSync(join(tmpdir(), 'skillbridge-cli-eval-'));
/** Six ALRM cases (boxes, task 3) in the flat workflow (off ALRM's protocol, so marked): a few seconds. */
const SMALL = ['--suite', 'alrm', '--workflow', 'flat', '--off-protocol', '--filter', 'boxes/3'];

describe('skillbridge eval', () => {
  it('prints exactly the summary object under --json and records each case with hashes, model, workflow, commit and seed', async () => {
    const out = fresh();
    const r = await cli('eval', ...SMALL, '--model', 'oracle', '--seed', '3', '--out', out, '--json');
    expect(r.code).toBe(0);
    const body = JSON.parse(r.out) as Record<string, unknown>;
    expect(Object.keys(body)).toEqual([
      'suite',
      'model',
      'workflow',
      'offProtocol',
      'runId',
      'status',
      'db',
      'cases',
      'errors',
      'errorReasons',
      'counts',
      'score',
      'interval',
      'metrics',
      'intervals',
      'rawMetrics',
      'seconds',
    ]);
    expect(body).toMatchObject({ suite: 'alrm', model: 'oracle', workflow: 'flat', cases: 6, errors: 0, score: 1 });
    expect((body['metrics'] as Record<string, number>)['pass^1']).toBe(1);
    // Six passes of six: Wilson's 95 % interval is [0.61, 1].
    expect(body['interval']).toMatchObject({ method: 'wilson', low: expect.closeTo(0.6097, 3), high: expect.closeTo(1, 6) });
    const db = openResults(out, { mode: 'read' });
    const run = db.requireRun(body['runId'] as string);
    expect(run).toMatchObject({ suite: 'alrm', model: 'oracle', workflow: 'flat', seed: 3, status: 'finished' });
    const rows = db.results(run.runId);
    db.close();
    expect(rows).toHaveLength(6);
    for (const row of rows) {
      expect(row.worldHashStart).toMatch(/^[0-9a-f]{16}$/);
      expect(row.worldHashEnd).toMatch(/^[0-9a-f]{16}$/);
      expect(row.worldHashEnd).not.toBe(row.worldHashStart);
      expect(row.tracePath).toMatch(/^traces\//);
      expect(row.metrics['alrm_score']).toBe(2);
      expect(row.labels).toMatchObject({ scene: 'boxes', task: '3' });
    }
  }, 300_000);

  it('repeats each case for --trials and reports pass^k; worker threads end in the same states as one thread', async () => {
    const out = fresh();
    const one = JSON.parse((await cli('eval', ...SMALL, '--model', 'oracle', '--out', out, '--json')).out) as { runId: string };
    const two = await cli('eval', ...SMALL, '--model', 'oracle', '--trials', '2', '--jobs', '2', '--out', out, '--json');
    expect(two.code).toBe(0);
    const body = JSON.parse(two.out) as { runId: string; metrics: Record<string, number> };
    expect(body.metrics['pass^1']).toBe(1);
    expect(body.metrics['pass^2']).toBe(1);
    const db = openResults(out, { mode: 'read' });
    const a = db.results(one.runId);
    const b = db.results(body.runId);
    db.close();
    expect(b).toHaveLength(12);
    for (const r of b) expect(r.worldHashEnd).toBe(a.find((x) => x.caseId === r.caseId)!.worldHashEnd);
  }, 300_000);

  it('stops cleanly on an abort and --resume runs only what is missing, keeping what was recorded', async () => {
    const out = fresh();
    const ac = new AbortController();
    const first = await runEval({
      suite: TERMINAL.suite('alrm'),
      workflow: 'flat',
      offProtocol: true,
      filter: 'boxes/3',
      ...typedModel('oracle'),
      outDir: out,
      signal: ac.signal,
      onProgress: (p) => {
        if (p.done >= 2) ac.abort();
      },
    });
    expect(first.interrupted).toBe(true);
    expect(first.run.status).toBe('stopped');
    let db = openResults(out, { mode: 'read' });
    const kept = db.results(first.run.runId).filter((r) => r.status === 'ok');
    db.close();
    expect(kept.length).toBeGreaterThanOrEqual(2);
    expect(kept.length).toBeLessThan(6);
    const r = await cli('eval', '--resume', first.run.runId, '--out', out, '--json');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.out)).toMatchObject({ runId: first.run.runId, cases: 6, errors: 0, score: 1 });
    db = openResults(out, { mode: 'read' });
    const after = db.results(first.run.runId);
    expect(db.requireRun(first.run.runId).status).toBe('finished');
    db.close();
    for (const k of kept) expect(after.find((x) => x.caseId === k.caseId)!.recordedAt).toBe(k.recordedAt);
  }, 300_000);

  it('answers bad input with one line and exit 2 (a JSON error under --json)', async () => {
    const out = fresh();
    const suite = await cli('eval', '--suite', 'raidr', '--model', 'oracle', '--out', out);
    expect(suite.code).toBe(2);
    expect(suite.err.trim().split('\n')).toHaveLength(1);
    expect(suite.err).toMatch(/unknown suite "raidr"; suites: raider, alrm, etp, etp-images, dfki, rtw/);
    const wf = await cli('eval', '--suite', 'alrm', '--workflow', 'nope', '--model', 'oracle', '--out', out, '--json');
    expect(wf.code).toBe(2);
    expect(JSON.parse(wf.out)).toMatchObject({ error: { code: 'unknown-workflow' } });
    const model = await cli('eval', '--suite', 'alrm', '--model', 'floor:lazy', '--out', out);
    expect(model.code).toBe(2);
    expect(model.err).toMatch(/floor:lazy.*floor:noop, floor:random, floor:none/);
    const real = await cli('eval', '--suite', 'alrm', '--model', 'oracle', '--robot', 'http://127.0.0.1:9', '--out', out);
    expect(real.code).toBe(2);
    expect(real.err.trim().split('\n')).toHaveLength(1);
    expect(real.err).toMatch(/scores it from that world's physics.*skillbridge run --robot URL/);
    const spec = await cli('eval', '--suite', 'alrm', '--model', 'gpt4', '--out', out);
    expect(spec.code).toBe(2);
    expect(spec.err).toMatch(/Bad model spec "gpt4".*oracle/);
    const bad = fresh();
    writeFileSync(join(bad, 'results.db'), 'this is not a database, just text that happens to be here');
    const corrupt = await cli('eval', ...SMALL, '--model', 'oracle', '--out', bad);
    expect(corrupt.code).toBe(2);
    expect(corrupt.err).toMatch(/not a readable skillbridge results database/);
    expect(corrupt.err.trim().split('\n')).toHaveLength(1);
  }, 300_000);

  it('refuses to resume a run recorded by another version, naming both', async () => {
    const out = fresh();
    const db = openResults(out, { durability: 'process' });
    const old = db.startRun({ suite: 'alrm', model: 'oracle', workflow: 'flat', seed: 1, packageVersion: '0.0.1' });
    db.finishRun(old.runId, 'stopped');
    db.close();
    const r = await cli('eval', '--resume', old.runId, '--out', out);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/recorded by skillbridge 0\.0\.1, this is \d+\.\d+\.\d+/);
  });

  it('marks a case that crashes as an error with its cause (no score), goes on with the others, and exits 3', async () => {
    const out = fresh();
    const r = await cli('eval', ...SMALL, '--model', 'scripted:/no/such/script.json', '--out', out, '--json');
    expect(r.code).toBe(3);
    const body = JSON.parse(r.out) as { runId: string; cases: number; errors: number; score: number | null };
    expect(body).toMatchObject({ cases: 6, errors: 6, score: null, errorReasons: [{ kind: 'model-config', count: 6 }] });
    const db = openResults(out, { mode: 'read' });
    const rows = db.results(body.runId);
    db.close();
    expect(
      rows.every(
        (x) =>
          x.status === 'error' && x.errorKind === 'model-config' && /Cannot read the script \/no\/such\/script\.json/.test(x.error ?? ''),
      ),
    ).toBe(true);
  }, 300_000);
});
