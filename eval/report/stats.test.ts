// The figures a report prints: pass^k, aggregates, the headline, and the suite specs.
import { describe, expect, it } from 'vitest';
import type { ResultRecord } from '../results/index';
import { resultRecord } from '../../test/support/result-records';
import { headlineScore, specProblems } from './spec';
import { REPORT_SPECS, alrmReport, etpReport, raiderReport } from './specs/index';
import { aggregate, headline, passHatK } from './stats';

let seq = 0;
function result(over: Partial<ResultRecord>): ResultRecord {
  return resultRecord(`c${seq++}`, true, over);
}

function trials(caseId: string, outcomes: Array<boolean | 'error' | 'stopped'>): ResultRecord[] {
  return outcomes.map((o, i) =>
    o === 'error'
      ? result({ caseId, trial: i + 1, status: 'error', success: null, score: null, error: 'x', errorKind: 'model-unreachable' })
      : o === 'stopped'
        ? result({ caseId, trial: i + 1, status: 'stopped', success: null, score: null })
        : result({ caseId, trial: i + 1, success: o, score: o ? 1 : 0 }),
  );
}

describe('pass^k (τ-bench)', () => {
  it('averages C(c,k)/C(n,k) over cases', () => {
    // a: 2 of 3 → 2/3, 1/3, 0; b: 3 of 3 → 1, 1, 1
    const k = passHatK([...trials('a', [true, false, true]), ...trials('b', [true, true, true])]);
    expect(k).toHaveLength(3);
    expect(k[0]).toBeCloseTo((2 / 3 + 1) / 2);
    expect(k[1]).toBeCloseTo((1 / 3 + 1) / 2);
    expect(k[2]).toBeCloseTo(0.5);
  });

  it('leaves errored and stopped trials out (no outcome), and drops short cases from larger k only', () => {
    const k = passHatK([...trials('a', [true, 'error']), ...trials('b', [true, 'stopped']), ...trials('c', [true, false])]);
    // k=1: a 1/1, b 1/1, c 1/2 → 5/6; k=2: only c (n=2, c=1) → 0
    expect(k).toEqual([5 / 6, 0]);
    expect(passHatK([])).toEqual([]);
  });
});

describe('aggregates', () => {
  it('skips results without the metric and errors; counts, sums and medians', () => {
    const rs = [
      result({ metrics: { grnd: 1, t: 2 } }),
      result({ metrics: { grnd: 0, t: 4 } }),
      result({ metrics: { t: 9 } }),
      result({ status: 'error', error: 'x', errorKind: 'crash', score: null, metrics: {} }),
    ];
    expect(aggregate(rs, { key: 'grnd', label: 'Grnd', description: '', format: 'percent' })).toEqual({ value: 0.5, n: 2 });
    expect(aggregate(rs, { key: 't', label: 't', description: '', format: 'number', aggregate: { kind: 'median' } })).toEqual({
      value: 4,
      n: 3,
    });
    expect(aggregate(rs, { key: 't', label: 't', description: '', format: 'number', aggregate: { kind: 'sum' } })).toEqual({
      value: 15,
      n: 3,
    });
    expect(aggregate(rs, { key: 't', label: 't', description: '', format: 'integer', aggregate: { kind: 'count', value: 4 } })).toEqual({
      value: 1,
      n: 3,
    });
  });

  it('computes precision, recall, F1 and accuracy over the cases (ETP need recognition)', () => {
    const pairs: Array<[number, number]> = [
      [1, 1],
      [1, 1],
      [1, 0],
      [0, 1],
      [0, 0],
    ];
    const rs = pairs.map(([p, a]) => result({ metrics: { need_pred: p, need_true: a } }));
    const m = (id: string) => aggregate(rs, etpReport.metrics[id]!).value;
    expect(m('need_prec')).toBeCloseTo(2 / 3);
    expect(m('need_rec')).toBeCloseTo(2 / 3);
    expect(m('need_f1')).toBeCloseTo(2 / 3);
    expect(m('need_acc')).toBeCloseTo(3 / 5);
  });

  it('reproduces a row of ALRM Table III from its score counts: 0 / 8 / 46 → 92.6 %', () => {
    const scores = [...Array<number>(8).fill(1), ...Array<number>(46).fill(2)];
    const rs = scores.map((s) => result({ metrics: { alrm_score: s }, score: headlineScore(alrmReport, { alrm_score: s })! }));
    expect(aggregate(rs, alrmReport.metrics['score1']!).value).toBe(8);
    expect(aggregate(rs, alrmReport.metrics['score2']!).value).toBe(46);
    expect((100 * aggregate(rs, alrmReport.metrics['success_rate']!).value!).toFixed(1)).toBe('92.6');
    expect(headline(alrmReport, rs).value).toBeCloseTo(100 / 108);
  });

  it('scores the headline over the scored cases it covers, an error (no outcome) left out', () => {
    const rs = [
      result({ labels: { task: 'execution' }, metrics: { tusr: 1 } }),
      result({ labels: { task: 'execution' }, metrics: { tusr: 0 } }),
      result({ labels: { task: 'execution' }, status: 'error', error: 'unreachable', errorKind: 'model-unreachable', score: null }),
      result({ labels: { task: 'selection' }, metrics: { csr: 0 } }),
    ];
    expect(headline(etpReport, rs)).toEqual({ value: 0.5, n: 2 });
    // Every case errored: no headline at all, not a 0.
    expect(headline(etpReport, [rs[2]!])).toEqual({ value: null, n: 0 });
    // RAIDER's headline is κ over the verdicts: right on both cases is 1, a constant verdict 0.
    const v = (verdict: number, gold: number) => result({ metrics: { verdict, verdict_gold: gold } });
    expect(headline(raiderReport, [v(1, 1), v(2, 2)]).value).toBe(1);
    expect(headline(raiderReport, [v(2, 1), v(2, 2)]).value).toBe(0);
  });
});

describe('suite report specs', () => {
  it('every reference in the five specs resolves', () => {
    expect(Object.keys(REPORT_SPECS).sort()).toEqual(['alrm', 'dfki', 'etp', 'raider', 'rtw']);
    for (const spec of Object.values(REPORT_SPECS)) expect(specProblems(spec), spec.suite).toEqual([]);
  });

  it('finds a broken reference', () => {
    const broken = { ...raiderReport, summary: ['det', 'nope'], breakdowns: [{ id: 'x', title: 'x', axes: ['colour'], metric: 'det' }] };
    expect(specProblems(broken)).toEqual(['summary: unknown metric "nope"', 'breakdown x: unknown axis "colour"']);
  });

  it('maps a case to its 0..1 score: ALRM halves the judged score, ETP falls back to the task metric', () => {
    expect(headlineScore(alrmReport, { alrm_score: 2 })).toBe(1);
    expect(headlineScore(alrmReport, { alrm_score: 1 })).toBe(0.5);
    expect(headlineScore(etpReport, { csr: 1 })).toBe(1);
    expect(headlineScore(etpReport, {})).toBeUndefined();
    // A RAIDER case scores its structured Expl (the run's headline is κ).
    expect(headlineScore(raiderReport, { det: true, expl: false })).toBe(0);
    expect(headlineScore(raiderReport, { det: true, expl: true })).toBe(1);
  });
});
