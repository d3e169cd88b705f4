// The SQL that reproduces a suite's headline from the results database, made
// from the same report spec the reports use (so the two cannot drift apart):
// a mean of the headline metric × its scale over the covered scored cases,
// errors and stopped trials left out (ALRM, DFKI, RTW; ETP over its
// tool-execution cases only), or Cohen's κ over the finished cases (RAIDER).
// The README quotes these; test/headline-sql.test.ts runs them against real runs.
import { BUILTIN_METRICS, type SuiteReportSpec } from './spec';

const COLUMN: Record<(typeof BUILTIN_METRICS)[number], string> = {
  score: 'score',
  success: 'success',
  duration_s: 'duration_ms / 1000.0',
  model_s: 'model_ms / 1000.0',
  tokens_in: 'tokens_in',
  tokens_out: 'tokens_out',
  cost_usd: 'cost_usd',
  tool_calls: 'tool_calls',
};

/** A metric key as an SQL expression over a `results` row. */
function valueSql(key: string): string {
  return (BUILTIN_METRICS as readonly string[]).includes(key)
    ? COLUMN[key as (typeof BUILTIN_METRICS)[number]]
    : `json_extract(metrics_json, '$.${key}')`;
}

/**
 * One SELECT giving the headline of the run `:run` as `headline` (NULL when no
 * case has the metric), for the sqlite3 shell (`.param set :run RUN_ID`) or a binding.
 */
export function headlineSql(spec: SuiteReportSpec): string {
  const m = spec.metrics[spec.headline.metric];
  if (!m) throw new Error(`${spec.suite}: headline metric "${spec.headline.metric}" is not among its metrics`);
  const w = spec.headline.where;
  const covered = `run_id = :run${w ? ` AND json_extract(labels_json, '$.${w.axis}') = '${w.value}'` : ''}`;
  const agg = m.aggregate;
  if (agg?.kind === 'kappa') {
    return [
      `WITH p AS (SELECT ${valueSql(agg.predicted)} AS v, ${valueSql(agg.actual)} AS g FROM results`,
      `           WHERE ${covered} AND status = 'ok' AND ${valueSql(agg.predicted)} IS NOT NULL AND ${valueSql(agg.actual)} IS NOT NULL),`,
      `     n AS (SELECT COUNT(*) * 1.0 AS n, AVG(v = g) AS po FROM p),`,
      `     k AS (SELECT v AS k FROM p UNION SELECT g FROM p),`,
      `     e AS (SELECT SUM((SELECT COUNT(*) FROM p WHERE v = k.k) * (SELECT COUNT(*) FROM p WHERE g = k.k)) / (n.n * n.n) AS pe FROM k, n)`,
      `SELECT CASE WHEN n.n = 0 OR e.pe >= 1 - 1e-12 THEN NULL ELSE (n.po - e.pe) / (1 - e.pe) END AS headline FROM n, e;`,
    ].join('\n');
  }
  if (agg && agg.kind !== 'mean')
    throw new Error(`${spec.suite}: a headline aggregated by "${agg.kind}" has no SQL here; add it to headlineSql`);
  const v = valueSql(m.key);
  const scaled = spec.headline.scale === 1 ? v : `${v} * ${spec.headline.scale}`;
  return [
    `SELECT AVG(MIN(1, MAX(0, ${scaled}))) AS headline`,
    `FROM results WHERE ${covered} AND status = 'ok' AND ${v} IS NOT NULL;`,
  ].join('\n');
}
