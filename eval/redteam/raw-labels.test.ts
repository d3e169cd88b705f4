// A paper's raw figure (not checked against the case's gold structure) is marked
// raw wherever it is printed: its report label says so, a run's summary lists it,
// and the red team's list of raw figures is the report's.
import { describe, expect, it } from 'vitest';
import { ATTACKED } from './metrics';
import { reportSpecFor } from '../report/specs';
import { summarize } from '../report/stats';
import type { RunRecord } from '../results/index';

describe('raw figures', () => {
  it("ETP's need and name-set precision, recall and F1, and RAIDER's Det, are labelled raw", () => {
    const etp = reportSpecFor('etp');
    for (const id of ['need_prec', 'need_rec', 'need_f1', 'chain_prec', 'chain_rec', 'chain_f1']) {
      expect(etp.metrics[id]!.raw, id).toBe(true);
      expect(etp.metrics[id]!.label, id).toMatch(/\braw\)$/);
    }
    for (const id of ['tusr', 'csr', 'isr', 'amr', 'need_acc', 'chain_acc', 'chain_goal']) expect(etp.metrics[id]!.raw, id).toBeUndefined();
    expect(reportSpecFor('raider').metrics['det']).toMatchObject({ raw: true, label: 'Det (raw)' });
  });

  it('every metric marked raw is labelled so, and the red team holds to the line exactly the ones that are not', () => {
    for (const [suite, attacked] of Object.entries(ATTACKED)) {
      const spec = reportSpecFor(suite);
      for (const m of Object.values(spec.metrics)) if (m.raw) expect(m.label).toContain('raw');
      for (const a of attacked) if (spec.metrics[a.id]) expect(Boolean(spec.metrics[a.id]!.raw), `${suite} ${a.id}`).toBe(Boolean(a.raw));
    }
  });

  it("a run's summary lists its raw figures", () => {
    const run = {
      runId: 'r',
      suite: 'etp',
      model: 'm',
      workflow: 'etp/candidates',
      args: {},
      startedAt: '2026-11-29T00:00:00.000Z',
      finishedAt: null,
      status: 'finished',
    } as unknown as RunRecord;
    const s = summarize(run, [], reportSpecFor('etp'), 'x');
    expect(s.raw).toEqual(expect.arrayContaining(['need_f1', 'chain_f1']));
    expect(s.raw).not.toContain('tusr');
  });
});
