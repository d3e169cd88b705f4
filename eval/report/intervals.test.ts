// Intervals with known values: Wilson's for 8/10, 0/10 and 10/10; the case
// bootstrap is deterministic, covers the estimate and keeps a case's trials together.
import { describe, expect, it } from 'vitest';
import type { ResultRecord } from '../results/index';
import { resultRecord } from '../../test/support/result-records';
import { bootstrap, wilson } from './intervals';
import { alrmReport, raiderReport } from './specs/index';
import { headlineInterval, metricInterval, summarize } from './stats';

function result(caseId: string, over: Partial<ResultRecord> = {}): ResultRecord {
  return resultRecord(caseId, true, over);
}

describe('wilson', () => {
  it('gives the textbook interval for 8 of 10, 0 of 10 and 10 of 10', () => {
    const a = wilson(8, 10)!;
    expect(a.low).toBeCloseTo(0.4902, 4);
    expect(a.high).toBeCloseTo(0.9433, 4);
    expect(wilson(0, 10)!.low).toBe(0);
    expect(wilson(0, 10)!.high).toBeCloseTo(0.2775, 4);
    expect(wilson(10, 10)!.low).toBeCloseTo(0.7225, 4);
    expect(wilson(10, 10)!.high).toBeCloseTo(1, 9);
    expect(wilson(0, 0)).toBeNull();
  });
});

describe('bootstrap', () => {
  it('is deterministic for a seed, brackets the mean, and narrows with more cases', () => {
    const xs = Array.from({ length: 40 }, (_, i) => [((i * 7) % 5) / 4]);
    const mean = (v: number[]) => v.reduce((a, b) => a + b, 0) / v.length;
    const a = bootstrap(xs, mean)!;
    expect(bootstrap(xs, mean)).toEqual(a);
    expect(a.method).toBe('bootstrap');
    const m = mean(xs.flat());
    expect(a.low).toBeLessThan(m);
    expect(a.high).toBeGreaterThan(m);
    const wide = bootstrap(xs.slice(0, 10), mean)!;
    expect(wide.high - wide.low).toBeGreaterThan(a.high - a.low);
    expect(bootstrap([], mean)).toBeNull();
  });
});

describe('intervals on a run', () => {
  it('uses Wilson for a pass rate with one trial per case: ALRM 8 of 10 scored 2', () => {
    const rs = Array.from({ length: 10 }, (_, i) =>
      result(`c${i}`, { score: i < 8 ? 1 : 0, success: i < 8, metrics: { alrm_score: i < 8 ? 2 : 0 } }),
    );
    const iv = headlineInterval(alrmReport, rs)!;
    expect(iv.method).toBe('wilson');
    expect(iv.low).toBeCloseTo(0.4902, 4);
    const s = summarize(
      {
        runId: 'r',
        suite: 'alrm',
        model: 'm',
        workflow: 'w',
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
      },
      rs,
      alrmReport,
      'db',
    );
    expect(s.interval).toEqual(iv);
    expect(s.intervals['pass^1']!.high).toBeCloseTo(0.9433, 4);
  });

  it('bootstraps partial scores and several trials per case, keeping each case whole', () => {
    const rs = Array.from({ length: 12 }, (_, i) => result(`c${i >> 1}`, { trial: (i % 2) + 1, metrics: { alrm_score: i % 3 } }));
    const iv = headlineInterval(alrmReport, rs)!;
    expect(iv.method).toBe('bootstrap');
    expect(iv.low).toBeLessThan(0.5);
    expect(iv.high).toBeGreaterThan(0.5);
  });

  it('bootstraps κ: RAIDER Det κ has an interval around its value', () => {
    const rs = Array.from({ length: 30 }, (_, i) =>
      result(`c${i}`, { metrics: { verdict: i % 3, verdict_gold: i % 5 === 0 ? (i + 1) % 3 : i % 3 } }),
    );
    const m = raiderReport.metrics[raiderReport.headline.metric]!;
    const iv = headlineInterval(raiderReport, rs)!;
    expect(iv.method).toBe('bootstrap');
    expect(iv.low).toBeLessThan(iv.high);
    expect(metricInterval(rs, m)).toEqual(iv);
  });
});
