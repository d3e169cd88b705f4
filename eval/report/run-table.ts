// A paper table's figures of one run as lines for the terminal: one line per
// column group (EmbodiedToolBench: one per task, each with its own metrics), so
// a run's per-task figures are there without opening the report.
import type { SuiteReportSpec } from './spec';
import type { RunSummary } from './stats';

export function runTableLines(spec: SuiteReportSpec, s: Pick<RunSummary, 'metrics'>): string[] {
  const t = spec.tables.find((x) => x.id === spec.runTable);
  if (!t) return [];
  return t.groups.flatMap((g) => {
    const cells = g.columns.flatMap((c) => {
      if (!(c.metric in s.metrics)) return [];
      const v = s.metrics[c.metric];
      return [`${spec.metrics[c.metric]?.label ?? c.metric} ${v === null || v === undefined ? '–' : v.toFixed(3)}`];
    });
    return cells.length ? [`  ${g.label}: ${cells.join(', ')}`] : [];
  });
}
