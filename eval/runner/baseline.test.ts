// A workflow that calls no model (RAIDER's Precond) is recorded under its own
// name, never under the model it was run with (floor:noop through raider/precond
// used to be recorded as "floor:noop" and top the leaderboard), and a resumed
// run of it goes on with the spec it was started with. Leaderboards list
// baselines after the models, marked and unranked.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runEval } from './runner';
import { TERMINAL, typedModel } from '../../test/support/host-refs';
import { leaderboard, leaderboardLines, leaderboardMarkdown } from '../report/leaderboard';
import { type LoadedRun, loadRuns } from '../report/load';
import { resultRecord, runRecord } from '../../test/support/result-records';
import { isBaselineModel } from '../results/baseline';
import { REFERENCE_SPECS } from '../reference/factories';
import { baselineOf } from './inputs';

describe('a model-free workflow', () => {
  it('declares it calls no model; the oracle and floors are baselines too, a model is not', () => {
    expect(baselineOf('raider/precond')).toBe('baseline:precond');
    expect(baselineOf('raider')).toBeUndefined();
    for (const m of ['baseline:precond', ...REFERENCE_SPECS]) expect(isBaselineModel(m)).toBe(true);
    expect(isBaselineModel('openai:gpt-4.1-mini')).toBe(false);
  });

  it("is recorded under the baseline's name, whatever --model says, and ranks after the models", async () => {
    const outDir = mkdtempSync(path.join(tmpdir(), 'skillbridge-baseline-'));
    const asked = { suite: TERMINAL.suite('raider'), sample: 3, outDir };
    const pre = await runEval({ ...asked, workflow: 'raider/precond', ...typedModel('openai:gpt-4.1-mini'), env: {} });
    expect(pre.run.model).toBe('baseline:precond');
    expect(pre.run.args['modelSpec']).toBe('openai:gpt-4.1-mini');
    const floor = await runEval({ ...asked, workflow: 'raider/precond', ...typedModel('floor:noop') });
    expect(floor.run.model).toBe('baseline:precond');
    const model = await runEval({ ...asked, ...typedModel('floor:none') });
    expect(model.run.model).toBe('floor:none');

    const rows = leaderboard(loadRuns([outDir]), baselineOf);
    expect(rows.map((r) => [r.model, r.baseline])).toEqual(
      expect.arrayContaining([
        ['baseline:precond', true],
        ['floor:none', true],
      ]),
    );
    expect(rows.every((r) => r.rank === null)).toBe(true);
    for (const l of leaderboardLines(rows).slice(1)) expect(l).toMatch(/^raider +\S+ \(baseline\) /);
  }, 240_000);
});

function loaded(runId: string, model: string, workflow: string, wins: number): LoadedRun {
  const run = runRecord({ runId, model, workflow });
  const results = Array.from({ length: 4 }, (_, i) =>
    resultRecord(`c${i}`, i < wins, { runId, metrics: { alrm_score: i < wins ? 2 : 0 } }),
  );
  return { run, results, db: 'x/results.db', dir: 'x' };
}

describe('the leaderboard', () => {
  it('ranks models only; a baseline scoring higher is listed after them, marked', () => {
    const rows = leaderboard(
      [
        loaded('o', 'oracle', 'alrm/tap', 4),
        loaded('weak', 'ollama:qwen3:8b', 'alrm/tap', 1),
        loaded('strong', 'openai:gpt-4.1-mini', 'alrm/tap', 3),
        // Recorded under a model's name before baselines were named: still shown as the baseline it is.
        loaded('old', 'openai:gpt-4.1-mini', 'raider/precond', 4),
      ],
      baselineOf,
    );
    expect(rows.map((r) => [r.runId, r.rank, r.baseline])).toEqual([
      ['strong', 1, false],
      ['weak', 2, false],
      ['o', null, true],
      ['old', null, true],
    ]);
    expect(rows[3]!.model).toBe('baseline:precond');
    expect(leaderboardMarkdown(rows)).toContain('| oracle (baseline) |');
  });
});
