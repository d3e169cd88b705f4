// report A B: the per-case diff, exact McNemar and sign tests with known values,
// the refusal of runs that are not comparable, and the leaderboard's ranking.
import { describe, expect, it } from 'vitest';
import type { ResultRecord, RunRecord } from '../results/index';
import { ComparisonError, compareRuns, comparisonLines, exactPaired } from './compare';
import { leaderboard, leaderboardLines, leaderboardMarkdown } from './leaderboard';
import type { LoadedRun } from './load';

function run(runId: string, over: Partial<RunRecord> = {}): RunRecord {
  return {
    runId,
    suite: 'alrm',
    model: 'm',
    workflow: 'alrm/tap',
    variant: null,
    commit: null,
    seed: 1,
    trials: 1,
    args: {},
    startedAt: '2026-11-23T00:00:00.000Z',
    finishedAt: null,
    status: 'finished',
    note: null,
    packageVersion: '0',
    host: { platform: 'x', arch: 'x', release: 'x', node: 'x', cpus: 1, cpuModel: 'x', memoryGb: 1 },
    ...over,
  };
}

function result(runId: string, caseId: string, pass: boolean | 'error', over: Partial<ResultRecord> = {}): ResultRecord {
  return {
    runId,
    caseId,
    trial: 1,
    status: pass === 'error' ? 'error' : 'ok',
    success: pass === true,
    score: pass === 'error' ? null : pass ? 1 : 0,
    metrics: pass === 'error' ? {} : { alrm_score: pass ? 2 : 0 },
    labels: {},
    durationMs: null,
    modelMs: null,
    tokensIn: 100,
    tokensOut: 20,
    costUsd: null,
    toolCalls: null,
    failureClass: null,
    error: pass === 'error' ? 'boom' : null,
    errorKind: pass === 'error' ? 'crash' : null,
    tracePath: null,
    worldHashStart: null,
    worldHashEnd: null,
    scorerVersion: null,
    recordedAt: '2026-11-23T00:00:00.000Z',
    ...over,
  };
}

function loaded(r: RunRecord, results: ResultRecord[]): LoadedRun {
  return { run: r, results, db: 'x/results.db', dir: 'x' };
}

describe('exact paired tests', () => {
  it("gives McNemar's exact p for 1 against 9 discordant pairs and 1 with none", () => {
    expect(exactPaired(1, 9).p).toBeCloseTo(22 / 1024, 12);
    expect(exactPaired(9, 1).p).toBeCloseTo(22 / 1024, 12);
    expect(exactPaired(5, 5).p).toBe(1);
    expect(exactPaired(0, 0).p).toBe(1);
    // 0 of 20: 2 × 2^-20.
    expect(exactPaired(0, 20).p).toBeCloseTo(2 / 2 ** 20, 15);
  });
});

describe('compareRuns', () => {
  const ids = Array.from({ length: 12 }, (_, i) => `c${i}`);
  const A = loaded(
    run('A'),
    ids.map((id, i) => result('A', id, i < 10)),
  );
  // B loses c1 (pass → fail), errors on c0 (no outcome: left out) and gains c10 and c11 (fail → pass).
  const B = loaded(
    run('B', { model: 'n' }),
    ids.map((id, i) => result('B', id, i === 0 ? 'error' : i !== 1)),
  );

  it('lists the flips both ways with score deltas, leaving out a pair with an error (no outcome), and says so', () => {
    const c = compareRuns(A, B);
    expect(c.paired).toBe(11);
    expect(c.leftOut).toEqual({ errors: 1, stopped: 0 });
    expect(c.flipped.map((x) => [x.caseId, x.flip, x.delta])).toEqual([
      ['c1', 'pass→fail', -1],
      ['c10', 'fail→pass', 1],
      ['c11', 'fail→pass', 1],
    ]);
    expect(c.cases.find((x) => x.caseId === 'c0')).toMatchObject({
      b: { status: 'error', score: null, pass: null },
      delta: null,
      flip: null,
    });
    expect(c.mcnemar).toEqual({ up: 2, down: 1, p: 1 });
    expect(c.scores.meanDelta).toBeCloseTo(1 / 11, 12);
    expect(c.scores.sign).toMatchObject({ up: 2, down: 1 });
    expect(c.scores.interval!.low).toBeLessThan(1 / 11);
    expect(comparisonLines(c)[0]).toMatch(/over 11 paired case × trials \(left out: 1 with an error\)/);
    expect(compareRuns(A, B)).toEqual(c);
  });

  it('refuses runs of different suites or case sets, naming what differs', () => {
    expect(() => compareRuns(A, loaded(run('E', { suite: 'etp' }), B.results))).toThrow(ComparisonError);
    expect(() => compareRuns(A, loaded(run('E', { suite: 'etp' }), B.results))).toThrow(/different suites/);
    const fewer = loaded(run('F'), B.results.slice(1));
    expect(() => compareRuns(A, fewer)).toThrow(/different case sets: 1 case × trial missing from F \(e\.g\. c0#1\)/);
    const moreTrials = loaded(run('G'), [...B.results, result('G', 'c1', true, { trial: 2 })]);
    expect(() => compareRuns(A, moreTrials)).toThrow(/missing from A \(e\.g\. c1#2\)/);
  });
});

describe('leaderboard', () => {
  it('ranks runs per suite by headline with intervals, tokens, cost where priced and the off-protocol mark', () => {
    const ids = Array.from({ length: 10 }, (_, i) => `c${i}`);
    const rows = leaderboard([
      loaded(
        run('low', { model: 'weak' }),
        ids.map((id, i) => result('low', id, i < 3)),
      ),
      loaded(
        run('etp1', { suite: 'etp', args: { offProtocol: true } }),
        ids.map((id) => result('etp1', id, true, { labels: { task: 'execution' } })),
      ),
      loaded(
        run('high', { model: 'strong' }),
        ids.map((id, i) => result('high', id, i < 8, { costUsd: 0.5 })),
      ),
    ]);
    expect(rows.map((r) => r.runId)).toEqual(['high', 'low', 'etp1']);
    expect(rows[0]).toMatchObject({ suite: 'alrm', score: 0.8, cases: 10, trials: 1, tokens: 1200, costUsd: 5, offProtocol: false });
    expect(rows[0]!.interval!.low).toBeCloseTo(0.4902, 4);
    expect(rows[1]!.costUsd).toBeNull();
    expect(rows[2]!.offProtocol).toBe(true);
    const lines = leaderboardLines(rows);
    expect(lines[0]).toMatch(/^suite +model +workflow +seed +score \[95 %\]/);
    expect(rows[0]!.seed).toBe(1);
    expect(lines[1]).toContain('0.800 [0.490, 0.943]');
    expect(lines[3]).toContain('(off-protocol)');
    expect(leaderboardMarkdown(rows).split('\n')[1]).toBe('|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---|');
  });

  it('ranks by the score over the scored trials and shows the errors apart (an error is no 0)', () => {
    const ids = Array.from({ length: 10 }, (_, i) => `c${i}`);
    // 4 passes of 5 scored, 5 errors: 0.8, not 0.4.
    const [row] = leaderboard([
      loaded(
        run('half'),
        ids.map((id, i) => result('half', id, i >= 5 ? 'error' : i < 4)),
      ),
    ]);
    expect(row).toMatchObject({ score: 0.8, errors: 5, cases: 10 });
    expect(leaderboardLines([row!])[1]).toMatch(/0\.800 \[[0-9.]+, [0-9.]+\] +— +10 +1 +5 /);
  });
});
