// pass^k in the leaderboard when a run has several trials, and intervals that
// resample whole tasks where a suite says several cases of one task (ALRM's six
// paraphrases): results of one task stand or fall together, so an interval that
// treats them as independent is too narrow.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ResultRecord, RunRecord } from '../results/index';
import { fuzzRuns, fuzzSeed } from '../../test/fuzz/support/budget';
import { resultRecord, runRecord } from '../../test/support/result-records';
import { leaderboard, leaderboardLines } from './leaderboard';
import { reportSpecFor } from './specs';
import { headlineInterval, passHatK } from './stats';

const run = (trials: number): RunRecord => runRecord({ trials });

function row(caseId: string, trial: number, pass: boolean, labels: Record<string, string>): ResultRecord {
  return resultRecord(caseId, pass, { trial, metrics: { alrm_score: pass ? 2 : 0 }, labels });
}

/** `tasks` tasks of six paraphrases each: every case of a task passes, or every one fails. */
function allOrNothing(tasks: number, passing: number): ResultRecord[] {
  const out: ResultRecord[] = [];
  for (let t = 0; t < tasks; t++)
    for (const cat of ['CAN', 'LEX', 'SYN', 'SEM', 'HLR-a', 'HLR-b'])
      out.push(row(`boxes/${t}/${cat}`, 1, t < passing, { scene: 'boxes', task: String(t), category: cat.slice(0, 3) }));
  return out;
}

describe('pass^k in the leaderboard', () => {
  it('shows pass^k for k = the trials, as τ-bench estimates it, when a run has several', () => {
    // Case a: 3 of 3 trials pass; case b: 2 of 3 (C(2,3)/C(3,3) = 0 for k = 3; 2/3 for k = 1).
    const rs = [...[1, 2, 3].map((t) => row('a', t, true, {})), ...[1, 2, 3].map((t) => row('b', t, t < 3, {}))];
    const [lb] = leaderboard([{ run: run(3), results: rs, db: 'x', dir: 'x' }]);
    expect(lb!.passK).toMatchObject({ k: 3, value: 0.5 });
    expect(passHatK(rs)).toEqual([expect.closeTo(5 / 6, 12), expect.closeTo(4 / 6, 12), 0.5]);
    expect(leaderboardLines([lb!])[0]).toContain('pass^k [95 %]');
    expect(leaderboardLines([lb!])[1]).toMatch(/\^3 0\.500 \[[0-9.]+, [0-9.]+\]/);
    const [one] = leaderboard([{ run: run(1), results: [row('a', 1, true, {})], db: 'x', dir: 'x' }]);
    expect(one!.passK).toBeNull();
  });
});

describe('intervals clustered by task', () => {
  it("resamples ALRM's tasks whole: six paraphrases that stand or fall together are one draw, not six", () => {
    const spec = reportSpecFor('alrm');
    const rs = allOrNothing(6, 3);
    const iv = headlineInterval(spec, rs)!;
    expect(iv).toMatchObject({ method: 'bootstrap', over: 'tasks' });
    // As six independent results (tasks) the half-width is about 0.4; as 36 it would be under 0.17 (Wilson).
    expect(iv.high - iv.low).toBeGreaterThan(0.5);
  });

  it('a suite without tasks, or a single task, keeps the interval over cases', () => {
    const rs = allOrNothing(1, 1);
    expect(headlineInterval(reportSpecFor('alrm'), rs)).toMatchObject({ method: 'wilson' });
    expect(headlineInterval(reportSpecFor('raider'), allOrNothing(4, 2))?.over).toBeUndefined();
  });

  it('never narrower than the interval over cases when tasks stand or fall together (generated runs)', () => {
    const spec = reportSpecFor('alrm');
    fc.assert(
      // Some tasks pass and some fail (all alike, any bootstrap is a point).
      fc.property(fc.integer({ min: 2, max: 8 }), fc.integer({ min: 1, max: 7 }), (tasks, passing) => {
        const rs = allOrNothing(tasks, Math.min(passing, tasks - 1));
        const byTask = headlineInterval(spec, rs)!;
        const asCases = headlineInterval({ ...spec, task: undefined }, rs)!;
        expect(byTask.over).toBe('tasks');
        expect(byTask.high - byTask.low).toBeGreaterThanOrEqual(asCases.high - asCases.low - 1e-9);
      }),
      { numRuns: fuzzRuns(20), seed: fuzzSeed(37) },
    );
  });
});
