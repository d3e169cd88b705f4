// Figures from results: metric values and aggregates, the headline score, pass^k
// and a run's summary. A result that ended in an error has no score: its outcome
// is unknown (an unreachable model, a scorer that did not decide), so every
// figure leaves it out (n says how many counted) and the summary counts errors
// apart, with their commonest reasons.
import type { ErrorKind, ResultRecord, RunRecord } from '../results/index';
import { type Interval, type TaskOf, intervalOf } from './intervals';
import type { AxisSpec, MetricSpec, SuiteReportSpec } from './spec';
import { isOffProtocol } from '../results/off-protocol';

export interface Figure {
  value: number | null;
  n: number;
}

/** A built-in column or a metrics-JSON value of one result; undefined when absent. */
export function valueOf(r: ResultRecord, key: string): number | undefined {
  const v = (() => {
    switch (key) {
      case 'score':
        return r.score;
      case 'success':
        return r.success === null ? null : Number(r.success);
      case 'duration_s':
        return r.durationMs === null ? null : r.durationMs / 1000;
      case 'model_s':
        return r.modelMs === null ? null : r.modelMs / 1000;
      case 'tokens_in':
        return r.tokensIn;
      case 'tokens_out':
        return r.tokensOut;
      case 'cost_usd':
        return r.costUsd;
      case 'tool_calls':
        return r.toolCalls;
      default:
        return r.metrics[key];
    }
  })();
  return v === null || v === undefined ? undefined : v;
}

export function median(xs: number[]): number | null {
  if (xs.length === 0) return null;
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

/** One metric over a set of results (ok results only). */
export function aggregate(results: ResultRecord[], m: MetricSpec): Figure {
  const ok = results.filter((r) => r.status === 'ok');
  const agg = m.aggregate ?? { kind: 'mean' };
  if (agg.kind === 'kappa') {
    const pairs = ok.flatMap((r) => {
      const p = valueOf(r, agg.predicted);
      const a = valueOf(r, agg.actual);
      return p === undefined || a === undefined ? [] : [[p, a] as const];
    });
    return { value: cohensKappa(pairs), n: pairs.length };
  }
  if (agg.kind === 'accuracy' || agg.kind === 'precision' || agg.kind === 'recall' || agg.kind === 'f1') {
    let tp = 0;
    let fp = 0;
    let fn = 0;
    let tn = 0;
    for (const r of ok) {
      const p = valueOf(r, agg.predicted);
      const a = valueOf(r, agg.actual);
      if (p === undefined || a === undefined) continue;
      if (p && a) tp++;
      else if (p && !a) fp++;
      else if (!p && a) fn++;
      else tn++;
    }
    const n = tp + fp + fn + tn;
    const precision = tp + fp ? tp / (tp + fp) : null;
    const recall = tp + fn ? tp / (tp + fn) : null;
    const value =
      n === 0
        ? null
        : agg.kind === 'accuracy'
          ? (tp + tn) / n
          : agg.kind === 'precision'
            ? precision
            : agg.kind === 'recall'
              ? recall
              : precision !== null && recall !== null && precision + recall > 0
                ? (2 * precision * recall) / (precision + recall)
                : precision === null || recall === null
                  ? null
                  : 0;
    return { value, n };
  }
  const xs = ok.map((r) => valueOf(r, m.key)).filter((v): v is number => v !== undefined);
  switch (agg.kind) {
    case 'count':
      return { value: xs.filter((x) => x === agg.value).length, n: xs.length };
    case 'sum':
      return { value: xs.length ? xs.reduce((a, b) => a + b, 0) : null, n: xs.length };
    case 'median':
      return { value: median(xs), n: xs.length };
    case 'mean':
      return { value: xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : null, n: xs.length };
  }
}

/** Results whose label for `axis` is `value`. */
export function where(results: ResultRecord[], axis: string, value: string): ResultRecord[] {
  return results.filter((r) => r.labels[axis] === value);
}

/**
 * Cohen's κ over (predicted, actual) pairs of category codes: (p_o − p_e) / (1 − p_e),
 * p_e the agreement expected by chance from both marginals. A constant answer, or no
 * answer, scores 0; null when every pair has one and the same category (κ is undefined).
 */
export function cohensKappa(pairs: ReadonlyArray<readonly [number, number]>): number | null {
  const n = pairs.length;
  if (!n) return null;
  const pred = new Map<number, number>();
  const act = new Map<number, number>();
  let agree = 0;
  for (const [p, a] of pairs) {
    pred.set(p, (pred.get(p) ?? 0) + 1);
    act.set(a, (act.get(a) ?? 0) + 1);
    if (p === a) agree++;
  }
  const po = agree / n;
  let pe = 0;
  for (const [k, c] of act) pe += (c / n) * ((pred.get(k) ?? 0) / n);
  if (pe >= 1 - 1e-12) return null;
  return (po - pe) / (1 - pe);
}

/** The results a headline covers and, unless it is κ, each one's 0–1 value (errors and stopped trials left out). */
function headlineParts(spec: SuiteReportSpec, results: ResultRecord[]): { covered: ResultRecord[]; xs: number[] | null } {
  const m = spec.metrics[spec.headline.metric];
  if (!m) return { covered: [], xs: [] };
  const w = spec.headline.where;
  const covered = (w ? where(results, w.axis, w.value) : results).filter((r) => r.status === 'ok');
  if (m.aggregate?.kind === 'kappa') return { covered, xs: null };
  const xs: number[] = [];
  for (const r of covered) {
    const v = valueOf(r, m.key);
    if (v !== undefined) xs.push(Math.min(1, Math.max(0, v * spec.headline.scale)));
  }
  return { covered, xs };
}

/** The headline score: the headline metric × scale over the scored cases it covers (errors left out; n says how many counted). */
export function headline(spec: SuiteReportSpec, results: ResultRecord[]): Figure {
  const m = spec.metrics[spec.headline.metric];
  if (!m) return { value: null, n: 0 };
  const { covered, xs } = headlineParts(spec, results);
  if (xs === null) return aggregate(covered, m);
  return { value: xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : null, n: xs.length };
}

/** A result's task where the spec groups cases into tasks (its task labels; a result without them is a task of its own). */
export function taskOf(spec: SuiteReportSpec): TaskOf | undefined {
  const keys = spec.task;
  if (!keys?.length) return undefined;
  return (r) => (keys.every((k) => r.labels[k] !== undefined) ? JSON.stringify(keys.map((k) => r.labels[k])) : `case:${r.caseId}`);
}

/** The headline's 95 % interval (Wilson for a pass rate, else the bootstrap over cases, or over tasks where cases share one). */
export function headlineInterval(spec: SuiteReportSpec, results: ResultRecord[]): Interval | null {
  const { covered, xs } = headlineParts(spec, results);
  return intervalOf(covered, (rs) => headline(spec, rs).value, xs ?? undefined, taskOf(spec));
}

/** A metric's 95 % interval; null for counts and sums, which are not estimates. */
export function metricInterval(results: ResultRecord[], m: MetricSpec, task?: TaskOf): Interval | null {
  const kind = m.aggregate?.kind ?? 'mean';
  if (kind === 'count' || kind === 'sum') return null;
  const values =
    kind === 'mean'
      ? results
          .filter((r) => r.status === 'ok')
          .map((r) => valueOf(r, m.key))
          .filter((v): v is number => v !== undefined)
      : undefined;
  return intervalOf(results, (rs) => aggregate(rs, m).value, values, task);
}

/** pass^k's 95 % interval: Wilson for pass^1 with one trial per case, else the bootstrap over cases (or tasks). */
export function passHatKInterval(results: ResultRecord[], k: number, task?: TaskOf): Interval | null {
  const finished = results.filter((r) => r.status === 'ok');
  return intervalOf(finished, (rs) => passHatK(rs)[k - 1] ?? null, k === 1 ? finished.map((r) => (r.success ? 1 : 0)) : undefined, task);
}

function choose(n: number, k: number): number {
  if (k < 0 || k > n) return 0;
  let c = 1;
  for (let i = 1; i <= k; i++) c = (c * (n - k + i)) / i;
  return c;
}

/**
 * pass^k as τ-bench defines it: for each case with n finished trials of which c
 * succeeded, C(c, k) / C(n, k) — the chance that k trials drawn from them all
 * succeed — averaged over the cases with at least k trials, for k = 1 … the most
 * trials any case has (a stopped run's unfinished cases drop out of the larger k
 * only). Only scored trials count: an error (its outcome unknown) is left out like a stopped one.
 */
export function passHatK(results: ResultRecord[]): number[] {
  const byCase = new Map<string, { n: number; c: number }>();
  for (const r of results) {
    if (r.status !== 'ok') continue;
    const t = byCase.get(r.caseId) ?? { n: 0, c: 0 };
    t.n++;
    if (r.success) t.c++;
    byCase.set(r.caseId, t);
  }
  const cases = [...byCase.values()];
  const K = Math.max(0, ...cases.map((t) => t.n));
  const out: number[] = [];
  for (let k = 1; k <= K; k++) {
    const eligible = cases.filter((t) => t.n >= k);
    out.push(eligible.reduce((sum, t) => sum + choose(t.c, k) / choose(t.n, k), 0) / eligible.length);
  }
  return out;
}

/** Values of an axis in the spec's order, then any others seen, sorted. */
export function axisValues(axis: AxisSpec, results: ResultRecord[]): Array<{ value: string; label: string }> {
  const listed = axis.values.map((v) => ({ value: v.value, label: v.label ?? v.value }));
  const seen = new Set(results.map((r) => r.labels[axis.key]).filter((v): v is string => v !== undefined));
  const extra = [...seen].filter((v) => !axis.values.some((x) => x.value === v)).sort();
  return [...listed, ...extra.map((v) => ({ value: v, label: v }))];
}

/** What `skillbridge eval --json` and `report --json` print per run. */
export interface RunSummary {
  suite: string;
  model: string;
  workflow: string;
  variant: string | null;
  /** Run with a workflow or tool set its suite is not defined for (--off-protocol): not comparable with the paper or with on-protocol runs. */
  offProtocol: boolean;
  runId: string;
  db: string;
  status: RunRecord['status'];
  /** Distinct cases with a finished trial (scored or errored). */
  cases: number;
  /** Case × trial results that were scored (status ok): every mean is over these. */
  scored: number;
  /** Case × trial results that ended in an error: no score, left out of every figure, run again by --resume. */
  errors: number;
  /** Why, by kind, commonest first, each with one of its messages. */
  errorReasons: ErrorReason[];
  stopped: number;
  /** The suite's headline (0–1). */
  score: number | null;
  /** The headline's 95 % interval (see INTERVAL_METHOD); null with no results. */
  interval: Interval | null;
  /** The summary metrics by id (fractions, not percentages), and pass^1 … pass^K. */
  metrics: Record<string, number | null>;
  /** Each metric's 95 % interval (null for counts and sums). */
  intervals: Record<string, Interval | null>;
  /** The ids in `metrics` that are a paper's raw figures (MetricSpec.raw): reported, not credit. */
  raw: string[];
  seconds: number | null;
}

export interface ErrorReason {
  kind: ErrorKind;
  count: number;
  /** The commonest message of this kind. */
  example: string;
}

/** The errors' kinds, commonest first (ties by name), each with its commonest message. */
export function errorReasons(results: readonly ResultRecord[]): ErrorReason[] {
  const byKind = new Map<ErrorKind, Map<string, number>>();
  for (const r of results) {
    if (r.status !== 'error') continue;
    const kind = r.errorKind ?? 'crash';
    const msgs = byKind.get(kind) ?? new Map<string, number>();
    const m = r.error ?? '';
    msgs.set(m, (msgs.get(m) ?? 0) + 1);
    byKind.set(kind, msgs);
  }
  return [...byKind.entries()]
    .map(([kind, msgs]) => {
      const count = [...msgs.values()].reduce((a, b) => a + b, 0);
      const example = [...msgs.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))[0]![0];
      return { kind, count, example };
    })
    .sort((a, b) => b.count - a.count || (a.kind < b.kind ? -1 : 1));
}

/** "3 errors (model-unreachable ×3: Could not reach …)": the count and the commonest reason, for one line. */
export function errorsLine(s: Pick<RunSummary, 'errors' | 'errorReasons'>, width = 120): string {
  const head = `${s.errors} error${s.errors === 1 ? '' : 's'}`;
  const top = s.errorReasons[0];
  if (!s.errors || !top) return head;
  const ex = top.example.length > width ? `${top.example.slice(0, width - 1)}…` : top.example;
  const more = s.errorReasons.length > 1 ? `; ${s.errorReasons.length - 1} other kind${s.errorReasons.length > 2 ? 's' : ''}` : '';
  return `${head} (commonest: ${top.kind} ×${top.count}: ${ex}${more})`;
}

export function summarize(run: RunRecord, results: ResultRecord[], spec: SuiteReportSpec, db: string): RunSummary {
  const finished = results.filter((r) => r.status !== 'stopped');
  const metrics: Record<string, number | null> = {};
  const intervals: Record<string, Interval | null> = {};
  const raw: string[] = [];
  for (const id of spec.summary) {
    const m = spec.metrics[id];
    if (m && (!m.optional || results.some((r) => m.key in r.metrics))) {
      if (m.raw) raw.push(id);
      metrics[id] = aggregate(results, m).value;
      intervals[id] = metricInterval(results, m, taskOf(spec));
    }
  }
  passHatK(results).forEach((v, i) => {
    metrics[`pass^${i + 1}`] = v;
    intervals[`pass^${i + 1}`] = passHatKInterval(results, i + 1, taskOf(spec));
  });
  const end =
    run.finishedAt ??
    results
      .map((r) => r.recordedAt)
      .sort()
      .at(-1);
  return {
    suite: run.suite,
    model: run.model,
    workflow: run.workflow,
    variant: run.variant,
    offProtocol: isOffProtocol(run),
    runId: run.runId,
    db,
    status: run.status,
    cases: new Set(finished.map((r) => r.caseId)).size,
    scored: results.filter((r) => r.status === 'ok').length,
    errors: results.filter((r) => r.status === 'error').length,
    errorReasons: errorReasons(results),
    stopped: results.filter((r) => r.status === 'stopped').length,
    score: headline(spec, results).value,
    interval: headlineInterval(spec, results),
    metrics,
    intervals,
    raw,
    seconds: end ? Math.max(0, (Date.parse(end) - Date.parse(run.startedAt)) / 1000) : null,
  };
}
