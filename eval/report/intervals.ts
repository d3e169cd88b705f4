// 95 % intervals on a run's figures. A proportion (every value 0 or 1, one trial
// per case) gets Wilson's score interval; anything else — a mean of partial
// scores, κ, F1, pass^k, or several trials of one case, which are not
// independent — a percentile bootstrap that resamples whole cases. The
// bootstrap's generator is seeded, so the same results always give the same
// interval: a report recomputes it from the stored rows exactly.
import type { ResultRecord } from '../results/index';
import { seededRandom } from '../../base/seeded-random';

export const LEVEL = 0.95;
/** z for a two-sided 95 % interval. */
const Z = 1.959963984540054;
export const BOOTSTRAP_REPS = 2000;
export const BOOTSTRAP_SEED = 20261126;

export interface Interval {
  low: number;
  high: number;
  method: 'wilson' | 'bootstrap';
  /** Set when the bootstrap resampled whole tasks (several cases of one task), not cases. */
  over?: 'tasks';
}

/** The task a result belongs to, where a suite groups cases into tasks (SuiteReportSpec.task). */
export type TaskOf = (r: ResultRecord) => string;

/** How every interval in a summary was computed (printed with them, so anyone can recompute). */
export const INTERVAL_METHOD = {
  level: LEVEL,
  proportions: 'wilson',
  other: 'bootstrap',
  resample: 'cases, or whole tasks where a suite has several cases per task',
  reps: BOOTSTRAP_REPS,
  seed: BOOTSTRAP_SEED,
} as const;

/** Wilson's score interval for k successes in n trials; null for n = 0. */
export function wilson(k: number, n: number): Interval | null {
  if (n <= 0) return null;
  const p = k / n;
  const z2 = Z * Z;
  const den = 1 + z2 / n;
  const centre = (p + z2 / (2 * n)) / den;
  const half = (Z * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n))) / den;
  return { low: Math.max(0, centre - half), high: Math.min(1, centre + half), method: 'wilson' };
}

/** The bootstrap's seeded generator (mulberry32). */
export const seeded = seededRandom;

function quantile(sorted: number[], q: number): number {
  const pos = (sorted.length - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return sorted[lo]! + (sorted[hi]! - sorted[lo]!) * (pos - lo);
}

/**
 * Percentile bootstrap of `stat` over clusters (a case's trials stay together):
 * `reps` resamples of as many clusters, drawn with replacement; resamples where
 * the statistic is undefined are dropped. Null when there is nothing to resample.
 */
export function bootstrap<T>(
  clusters: ReadonlyArray<readonly T[]>,
  stat: (items: T[]) => number | null,
  opts: { reps?: number; seed?: number } = {},
): Interval | null {
  const n = clusters.length;
  if (n === 0) return null;
  const rand = seeded(opts.seed ?? BOOTSTRAP_SEED);
  const reps = opts.reps ?? BOOTSTRAP_REPS;
  const values: number[] = [];
  for (let i = 0; i < reps; i++) {
    const items: T[] = [];
    for (let j = 0; j < n; j++) items.push(...clusters[Math.floor(rand() * n)]!);
    const v = stat(items);
    if (v !== null && Number.isFinite(v)) values.push(v);
  }
  if (values.length === 0) return null;
  values.sort((a, b) => a - b);
  const tail = (1 - LEVEL) / 2;
  return { low: quantile(values, tail), high: quantile(values, 1 - tail), method: 'bootstrap' };
}

/** Results grouped by case, in first-seen order (the bootstrap's clusters). */
export function byCase(results: readonly ResultRecord[]): ResultRecord[][] {
  return groupBy(results, (r) => r.caseId);
}

function groupBy(results: readonly ResultRecord[], key: (r: ResultRecord) => string): ResultRecord[][] {
  const m = new Map<string, ResultRecord[]>();
  for (const r of results) {
    const k = key(r);
    const list = m.get(k);
    if (list) list.push(r);
    else m.set(k, [r]);
  }
  return [...m.values()];
}

/**
 * The interval of a figure computed by `stat` over results: Wilson when every
 * case has one result and `values` (the per-result values the figure averages)
 * are all 0 or 1, else the case bootstrap of `stat`.
 */
export function intervalOf(
  results: readonly ResultRecord[],
  stat: (rs: ResultRecord[]) => number | null,
  values?: readonly number[],
  taskOf?: TaskOf,
): Interval | null {
  // Cases of one task are not independent: resample whole tasks, where there are two or more to resample.
  const tasks = taskOf ? groupBy(results, taskOf) : [];
  if (tasks.length >= 2 && tasks.some((t) => new Set(t.map((r) => r.caseId)).size > 1)) {
    const iv = bootstrap(tasks, stat);
    return iv ? { ...iv, over: 'tasks' } : null;
  }
  const clusters = byCase(results);
  const oneEach = clusters.every((c) => c.length === 1);
  if (values && oneEach && values.every((v) => v === 0 || v === 1)) {
    let k = 0;
    for (const v of values) k += v;
    return wilson(k, values.length);
  }
  return bootstrap(clusters, stat);
}

/** "0.62 [0.51, 0.72]". */
export function withInterval(text: string, iv: Interval | null | undefined, fmt: (v: number) => string): string {
  return iv ? `${text} [${fmt(iv.low)}, ${fmt(iv.high)}]` : text;
}
