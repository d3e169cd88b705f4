// The figures the red team attacks, per suite: the headline, every sub-metric
// that is credit (a 0–1 figure where more is better), and pass^1. A paper's raw
// figure is attacked and reported too, but labelled raw and left out of the line
// CI holds: RAIDER's Det (the verdict's category; a constant "unfeasibility" gets
// 6 issue types of 8 by construction), ETP's name-set precision, recall and
// F1 (tool names without their arguments or effect, as paper 004 defines them),
// and ETP's tool-need precision, recall and F1: a yes/no judgement whose
// constant "yes" (call any tool) has recall 1 and precision the share of cases
// that need a tool by definition, so floor:noop (a constant "no") is not their
// floor; need accuracy, which no constant beats, is held.
// Counts and error rates that describe behaviour rather than credit it (DFKI's
// violations, recoveries, steps, event checks; RTW's range violations and wrong
// category; times, tokens) are not attacked.
import { aggregate, headline } from '../report/stats';
import type { ResultRecord } from '../results/index';
import type { SuiteReportSpec } from '../report/spec';

export interface AttackedMetric {
  /** 'headline', 'pass1', or an id of the suite's report metrics. */
  id: string;
  label: string;
  /** A paper's raw figure: reported, not held to the line. */
  raw?: boolean;
}

const HEAD = (label: string): AttackedMetric => ({ id: 'headline', label });
const PASS1: AttackedMetric = { id: 'pass1', label: 'pass^1' };

export const ATTACKED: Record<string, AttackedMetric[]> = {
  raider: [
    HEAD('Det κ'),
    { id: 'expl', label: 'Expl' },
    { id: 'grnd', label: 'Grnd' },
    { id: 'recov_plan', label: 'Recov_Plan' },
    { id: 'det', label: 'Det', raw: true },
    PASS1,
  ],
  alrm: [HEAD('score / 2'), PASS1],
  etp: [
    HEAD('TUSR'),
    { id: 'need_acc', label: 'need Acc.' },
    { id: 'need_prec', label: 'need Prec.', raw: true },
    { id: 'need_rec', label: 'need Rec.', raw: true },
    { id: 'need_f1', label: 'need F1', raw: true },
    { id: 'csr', label: 'CSR' },
    { id: 'isr', label: 'ISR' },
    { id: 'amr', label: 'AMR' },
    { id: 'chain_goal', label: 'chain Goal' },
    { id: 'chain_acc', label: 'chain Acc.' },
    { id: 'ocr', label: 'OC' },
    { id: 'chain_prec', label: 'chain Prec. (name set)', raw: true },
    { id: 'chain_rec', label: 'chain Rec. (name set)', raw: true },
    { id: 'chain_f1', label: 'chain F1 (name set)', raw: true },
    PASS1,
  ],
  dfki: [HEAD('mission success'), PASS1],
  rtw: [HEAD('mission success'), PASS1],
};

/** A suite's attacked metrics; a suite without a list gets its headline and pass^1. */
export function attackedOf(suite: string): AttackedMetric[] {
  return ATTACKED[suite] ?? [HEAD('headline'), PASS1];
}

/** One attacked figure over a set of results (null where the figure is undefined, e.g. κ with one category). */
export function figureOf(spec: SuiteReportSpec, m: AttackedMetric, rows: ResultRecord[]): number | null {
  if (m.id === 'headline') return headline(spec, rows).value;
  if (m.id === 'pass1') {
    const ok = rows.filter((r) => r.status === 'ok');
    return ok.length ? ok.filter((r) => r.success).length / ok.length : null;
  }
  const def = spec.metrics[m.id];
  if (!def) throw new Error(`${spec.suite}: the red team attacks "${m.id}", which is not among its report's metrics`);
  return aggregate(rows, def).value;
}

/** Every attacked figure of a suite over a set of results. */
export function figuresOf(spec: SuiteReportSpec, ms: readonly AttackedMetric[], rows: ResultRecord[]): Record<string, number | null> {
  return Object.fromEntries(ms.map((m) => [m.id, figureOf(spec, m, rows)]));
}
