// A suite's report description: which metric is the headline and how a case's
// metrics map to its 0..1 score, the metrics to show (label, format, aggregate),
// the taxonomy axes to break results down by, and the paper's own tables. Suites
// provide one (specs/*.ts); reports are generic over it.

/** How a value is printed: percent = ×100 with one decimal (papers' success rates), ratio = two decimals (ETP's 0.74). */
export type MetricFormat = 'percent' | 'ratio' | 'seconds' | 'number' | 'integer' | 'usd';

/**
 * How per-result values become one figure. mean/median/sum skip results without the
 * metric (RAIDER's Grnd only counts cases that need grounding); count counts results
 * whose value equals `value` (ALRM's score counts); the classification kinds treat two
 * 0/1 metrics as prediction and truth over all results that have both (ETP need recognition).
 */
export type Aggregate =
  | { kind: 'mean' }
  | { kind: 'median' }
  | { kind: 'sum' }
  | { kind: 'count'; value: number }
  | { kind: 'accuracy' | 'precision' | 'recall' | 'f1'; predicted: string; actual: string }
  /** Cohen's κ of a categorical prediction (numeric codes) against the truth: chance-corrected agreement, a constant answer scores 0. */
  | { kind: 'kappa'; predicted: string; actual: string };

/**
 * Built-in metric keys read from the results table's columns; any other key is read
 * from the result's metrics JSON.
 */
export const BUILTIN_METRICS = ['score', 'success', 'duration_s', 'model_s', 'tokens_in', 'tokens_out', 'cost_usd', 'tool_calls'] as const;

export interface MetricSpec {
  /** A built-in key or a key of the result's metrics. */
  key: string;
  /** The column's name as the paper prints it (Det, TUSR, CAN). */
  label: string;
  description: string;
  format: MetricFormat;
  aggregate?: Aggregate;
  /** Recorded only when asked for (RAIDER's --judge): left out of a run's summary when no result has it. */
  optional?: boolean;
  /**
   * A paper's raw figure, not checked against the case's gold structure (ETP's tool-name
   * sets, its need judgement): its label says "raw" and a run's summary lists it as raw.
   */
  raw?: boolean;
}

export interface AxisSpec {
  /** A key of the result's taxonomy labels. */
  key: string;
  label: string;
  /** The paper's order; values seen in results but not listed come after, sorted. */
  values: Array<{ value: string; label?: string; description?: string }>;
}

/** A column of a paper table: a metric, optionally restricted to one value of an axis. */
export interface ColumnSpec {
  /** An id of SuiteReportSpec.metrics. */
  metric: string;
  label?: string;
  where?: { axis: string; value: string };
}

/** A paper-style table: one row per run, grouped column headers (ALRM Table III: "Score (counts)", "Per Category (%)"). */
export interface TableSpec {
  id: string;
  title: string;
  caption: string;
  /** What identifies a row, left to right (ALRM: Mode, LLM). */
  rowKeys: Array<'variant' | 'model' | 'workflow'>;
  groups: Array<{ label?: string; columns: ColumnSpec[] }>;
}

/** A breakdown per taxonomy cell: rows are the first axis, columns the cross of the others. */
export interface BreakdownSpec {
  id: string;
  title: string;
  axes: string[];
  metric: string;
}

export interface SuiteReportSpec {
  suite: string;
  title: string;
  /** Where the suite comes from, e.g. "RAIDER (paper 001) §4". */
  source: string;
  headline: {
    /** An id of metrics; a case's score = its value × scale (ALRM: score 0/1/2 × 0.5). */
    metric: string;
    scale: number;
    /** The cases the headline covers (ETP: TUSR is over the tool-execution cases only); default all. */
    where?: { axis: string; value: string };
    /**
     * The metric a case's own score (results.score, pass^k) comes from when the headline
     * is a run-level aggregate (RAIDER: κ over the verdicts; a case scores its Expl).
     */
    caseMetric?: string;
    description: string;
  };
  /** Metrics tried, in order, for the score of a case the headline does not cover (ETP: CSR for a selection case). */
  caseScoreFallback?: string[];
  /** Metric definitions by id (the id is what tables, breakdowns and the headline refer to). */
  metrics: Record<string, MetricSpec>;
  /** Metrics shown in the summary and compared across runs, in order. */
  summary: string[];
  axes: AxisSpec[];
  /** The axis the "score per category" figure uses. */
  categoryAxis?: string;
  /**
   * The labels that name a case's task, where several cases are one task said
   * differently (ALRM: a scene's task in six paraphrases). Their results are not
   * independent, so intervals resample whole tasks; absent: each case is its own.
   */
  task?: string[];
  tables: TableSpec[];
  /** A table (by id) the eval command prints after a run, one line per column group (ETP: per task). */
  runTable?: string;
  breakdowns: BreakdownSpec[];
  failureClasses: Array<{ value: string; label: string; description: string }>;
}

/**
 * A case's headline score in 0..1 from its metrics, as the runner records it in
 * results.score (clamped; undefined when the headline metric is missing).
 */
export function headlineScore(spec: SuiteReportSpec, metrics: Record<string, number | boolean | null | undefined>): number | undefined {
  const tries: Array<[string, number]> = [
    spec.headline.caseMetric ? [spec.headline.caseMetric, 1] : [spec.headline.metric, spec.headline.scale],
    ...(spec.caseScoreFallback ?? []).map((id): [string, number] => [id, 1]),
  ];
  for (const [id, scale] of tries) {
    const m = spec.metrics[id];
    if (!m) throw new Error(`${spec.suite}: metric "${id}" is not among its metrics`);
    const raw = metrics[m.key];
    if (raw !== undefined && raw !== null) return Math.min(1, Math.max(0, Number(raw) * scale));
  }
  return undefined;
}

/** Checks that every reference inside a spec resolves; suites call it in their tests. */
export function specProblems(spec: SuiteReportSpec): string[] {
  const problems: string[] = [];
  const metric = (id: string, where: string) => {
    if (!spec.metrics[id]) problems.push(`${where}: unknown metric "${id}"`);
  };
  const axis = (key: string, where: string) => {
    if (!spec.axes.some((a) => a.key === key)) problems.push(`${where}: unknown axis "${key}"`);
  };
  metric(spec.headline.metric, 'headline');
  if (spec.headline.caseMetric) metric(spec.headline.caseMetric, 'headline.caseMetric');
  for (const id of spec.caseScoreFallback ?? []) metric(id, 'caseScoreFallback');
  if (spec.headline.where) axis(spec.headline.where.axis, 'headline');
  for (const id of spec.summary) metric(id, 'summary');
  if (spec.categoryAxis) axis(spec.categoryAxis, 'categoryAxis');
  for (const t of spec.tables) {
    for (const g of t.groups) {
      for (const c of g.columns) {
        metric(c.metric, `table ${t.id}`);
        if (c.where) {
          axis(c.where.axis, `table ${t.id}`);
          const a = spec.axes.find((x) => x.key === c.where?.axis);
          if (a && !a.values.some((v) => v.value === c.where?.value))
            problems.push(`table ${t.id}: "${c.where.value}" is not a value of ${a.key}`);
        }
      }
    }
  }
  for (const b of spec.breakdowns) {
    metric(b.metric, `breakdown ${b.id}`);
    if (b.axes.length < 1 || b.axes.length > 3) problems.push(`breakdown ${b.id}: 1 to 3 axes`);
    for (const a of b.axes) axis(a, `breakdown ${b.id}`);
  }
  return problems;
}

/** The spec used for a suite nobody described: the score, success and cost columns only. */
export function genericSpec(suite: string): SuiteReportSpec {
  return {
    suite,
    title: suite,
    source: 'no report description for this suite',
    headline: { metric: 'score', scale: 1, description: 'mean case score' },
    metrics: COMMON_METRICS,
    summary: ['score', 'success', 'duration', 'tokens_in', 'tokens_out', 'cost'],
    axes: [],
    tables: [],
    breakdowns: [],
    failureClasses: [],
  };
}

/** Columns every suite has (built-in keys). Specs spread these into their metrics. */
export const COMMON_METRICS: Record<string, MetricSpec> = {
  score: { key: 'score', label: 'Score', description: "the suite's headline score per case (0–1)", format: 'ratio' },
  success: { key: 'success', label: 'Success', description: 'trials counted as solved (for pass^k)', format: 'percent' },
  duration: { key: 'duration_s', label: 'Time (s)', description: 'wall time per case', format: 'seconds' },
  model_time: { key: 'model_s', label: 'Model (s)', description: 'time waiting for the model per case', format: 'seconds' },
  tokens_in: { key: 'tokens_in', label: 'Tokens in', description: 'prompt tokens per case', format: 'integer' },
  tokens_out: { key: 'tokens_out', label: 'Tokens out', description: 'completion tokens per case', format: 'integer' },
  cost: {
    key: 'cost_usd',
    label: 'Cost ($)',
    description: 'cost per case where the provider reports it',
    format: 'usd',
    aggregate: { kind: 'sum' },
  },
  tool_calls: { key: 'tool_calls', label: 'Tool calls', description: 'tool calls per case', format: 'number' },
};
