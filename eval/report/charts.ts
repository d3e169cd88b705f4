// Figure descriptions as JSON data: what to plot, not how. The page's script
// (client.ts) draws them with Observable Plot; tests read them straight from the HTML.
import type { LoadedRun } from './load';
import type { SuiteReportSpec } from './spec';
import { type TaskOf, intervalOf } from './intervals';
import { type RunSummary, axisValues, passHatK, passHatKInterval, taskOf, where } from './stats';
import { runLabels } from './tables';

interface ChartBase {
  id: string;
  title: string;
  caption: string;
}

/** Grouped bars on a 0–1 axis: one group per category (or metric), one bar per run. */
export interface BarsChart extends ChartBase {
  kind: 'bars';
  xLabel: string;
  yLabel: string;
  groups: string[];
  series: string[];
  /** low, high: the value's 95 % interval (drawn as a whisker), absent where it has none. */
  data: Array<{ group: string; series: string; value: number; n: number; low?: number; high?: number }>;
}

export interface LatencyChart extends ChartBase {
  kind: 'latency';
  series: string[];
  data: Array<{ series: string; seconds: number; caseId: string }>;
}

export interface PassKChart extends ChartBase {
  kind: 'passk';
  series: string[];
  data: Array<{ series: string; k: number; value: number; low?: number; high?: number }>;
}

export interface FailuresChart extends ChartBase {
  kind: 'failures';
  series: string[];
  classes: string[];
  data: Array<{ series: string; failure: string; count: number }>;
}

export type ChartSpec = BarsChart | LatencyChart | PassKChart | FailuresChart;

/** Mean case score over the scored trials (errors, which have none, and stopped trials left out), with its 95 % interval. */
function meanScore(results: LoadedRun['results'], task?: TaskOf): { value: number; n: number; low?: number; high?: number } | undefined {
  const ok = results.filter((r) => r.status === 'ok' && r.score !== null);
  const xs = ok.map((r) => r.score!);
  if (!xs.length) return undefined;
  const mean = (rs: LoadedRun['results']) => (rs.length ? rs.reduce((a, r) => a + r.score!, 0) / rs.length : null);
  const iv = intervalOf(ok, mean, xs, task);
  return { value: mean(ok)!, n: xs.length, ...(iv ? { low: iv.low, high: iv.high } : {}) };
}

const whisker = (iv: { low: number; high: number } | null | undefined) => (iv ? { low: iv.low, high: iv.high } : {});

export function suiteCharts(spec: SuiteReportSpec, runs: LoadedRun[], summaries: Map<LoadedRun, RunSummary>): ChartSpec[] {
  const labels = runLabels(runs);
  const series = runs.map((r) => labels.get(r)!);
  const charts: ChartSpec[] = [];
  const id = (name: string) => `${spec.suite}-${name}`.replace(/[^A-Za-z0-9_-]/g, '-');

  const axis = spec.axes.find((a) => a.key === spec.categoryAxis);
  if (axis) {
    const all = runs.flatMap((r) => r.results);
    const values = axisValues(axis, all).filter((v) => where(all, axis.key, v.value).length);
    const data = runs.flatMap((r) =>
      values.flatMap((v) => {
        const s = meanScore(where(r.results, axis.key, v.value), taskOf(spec));
        return s ? [{ ...s, group: v.label, series: labels.get(r)! }] : [];
      }),
    );
    if (data.length) {
      charts.push({
        id: id('score-by-category'),
        kind: 'bars',
        title: `Score per ${axis.label.toLowerCase()}`,
        caption: `Mean case score (0–1, over the scored trials; errors left out) per ${axis.label.toLowerCase()}, one bar per run, with its 95 % interval.`,
        xLabel: axis.label,
        yLabel: 'Mean case score',
        groups: values.map((v) => v.label),
        series,
        data,
      });
    }
  }

  const latency = runs.flatMap((r) =>
    r.results
      .filter((x) => x.status === 'ok' && x.durationMs !== null)
      .map((x) => ({ series: labels.get(r)!, seconds: x.durationMs! / 1000, caseId: `${x.caseId}#${x.trial}` })),
  );
  if (latency.length) {
    charts.push({
      id: id('latency'),
      kind: 'latency',
      title: 'Latency distribution',
      caption: 'Wall time per case and trial (s): box from the first to the third quartile, the median marked, each case a dot.',
      series,
      data: latency,
    });
  }

  const passk = runs.flatMap((r) =>
    passHatK(r.results).map((value, i) => ({
      series: labels.get(r)!,
      k: i + 1,
      value,
      // The summary has each pass^k's interval already (a bootstrap: not computed twice).
      ...whisker(summaries.get(r)?.intervals[`pass^${i + 1}`] ?? passHatKInterval(r.results, i + 1, taskOf(spec))),
    })),
  );
  if (passk.some((p) => p.k >= 2)) {
    charts.push({
      id: id('passk'),
      kind: 'passk',
      title: 'pass^k',
      caption:
        'pass^k: the chance that k trials of a case all succeed, C(c,k)/C(n,k) for a case with c successes in n trials, averaged over cases (τ-bench), with its 95 % interval (cases resampled whole). pass^1 is the mean success rate.',
      series,
      data: passk,
    });
  }

  if (runs.length > 1) {
    const fractions = spec.summary.filter((m) => ['percent', 'ratio'].includes(spec.metrics[m]?.format ?? ''));
    const groups = ['Score', ...fractions.map((m) => spec.metrics[m]!.label)];
    const data = runs.flatMap((r) => {
      const s = summaries.get(r)!;
      const rows = [
        { group: 'Score', value: s.score, ...whisker(s.interval) },
        ...fractions.map((m) => ({ group: spec.metrics[m]!.label, value: s.metrics[m] ?? null, ...whisker(s.intervals[m]) })),
      ];
      return rows
        .filter((x): x is { group: string; value: number } => x.value !== null)
        .map((x) => ({ ...x, series: labels.get(r)!, n: s.scored }));
    });
    charts.push({
      id: id('model-comparison'),
      kind: 'bars',
      title: 'Model comparison',
      caption: 'The headline score and the summary rates of each run side by side (0–1), each with its 95 % interval.',
      xLabel: 'Metric',
      yLabel: 'Value',
      groups,
      series,
      data,
    });
  }

  const failures = runs.flatMap((r) => {
    const counts = new Map<string, number>();
    for (const x of r.results) if (x.failureClass) counts.set(x.failureClass, (counts.get(x.failureClass) ?? 0) + 1);
    return [...counts].map(([failure, count]) => ({ series: labels.get(r)!, failure, count }));
  });
  if (failures.length) {
    const label = (v: string) => spec.failureClasses.find((c) => c.value === v)?.label ?? v;
    const data = failures.map((f) => ({ ...f, failure: label(f.failure) }));
    charts.push({
      id: id('failures'),
      kind: 'failures',
      title: 'Failure reasons',
      caption:
        'Failed trials by failure class, per run (counts, not estimates: no interval; errors have no outcome and are counted in the summary).',
      series,
      classes: [...new Set([...spec.failureClasses.map((c) => c.label), ...data.map((d) => d.failure)])].filter((c) =>
        data.some((d) => d.failure === c),
      ),
      data,
    });
  }
  return charts;
}
