// CSV, one row per case × trial (RFC 4180 quoting), with a column per taxonomy
// label (label.*) and per metric (metric.*) seen in any of the runs.
import type { LoadedRun } from './load';

const FIXED = [
  'run_id',
  'suite',
  'model',
  'workflow',
  'variant',
  'case_id',
  'trial',
  'status',
  'success',
  'score',
  'duration_s',
  'model_s',
  'tokens_in',
  'tokens_out',
  'cost_usd',
  'tool_calls',
  'failure_class',
  'error',
  'error_kind',
  'trace_path',
  'world_hash_start',
  'world_hash_end',
] as const;

function field(v: string | number | boolean | null | undefined): string {
  if (v === null || v === undefined) return '';
  if (typeof v === 'number') return Number.isFinite(v) ? String(v) : '';
  if (typeof v === 'boolean') return v ? '1' : '0';
  // A text cell that a spreadsheet would run as a formula is prefixed with a quote.
  const text = /^[=+\-@\t\r]/.test(v) ? `'${v}` : v;
  return /[",\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function resultsCsv(runs: LoadedRun[]): string {
  const labels = [...new Set(runs.flatMap((r) => r.results.flatMap((x) => Object.keys(x.labels))))].sort();
  const metrics = [...new Set(runs.flatMap((r) => r.results.flatMap((x) => Object.keys(x.metrics))))].sort();
  const header = [...FIXED, ...labels.map((l) => `label.${l}`), ...metrics.map((m) => `metric.${m}`)];
  const rows = runs.flatMap(({ run, results }) =>
    results.map((r) =>
      [
        run.runId,
        run.suite,
        run.model,
        run.workflow,
        run.variant,
        r.caseId,
        r.trial,
        r.status,
        r.success,
        r.score,
        r.durationMs === null ? null : r.durationMs / 1000,
        r.modelMs === null ? null : r.modelMs / 1000,
        r.tokensIn,
        r.tokensOut,
        r.costUsd,
        r.toolCalls,
        r.failureClass,
        r.error,
        r.errorKind,
        r.tracePath,
        r.worldHashStart,
        r.worldHashEnd,
        ...labels.map((l) => r.labels[l]),
        ...metrics.map((m) => r.metrics[m]),
      ]
        .map(field)
        .join(','),
    ),
  );
  return [header.map(field).join(','), ...rows].join('\r\n') + '\r\n';
}
