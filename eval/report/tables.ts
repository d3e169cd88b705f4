// Report tables as plain data (rendered by html.ts): the runs' summary and
// provenance, the suite's paper tables, breakdowns per taxonomy cell and failure reasons.
import { formatValue, unitOf } from './format';
import { type Interval, withInterval } from './intervals';
import type { LoadedRun } from './load';
import type { MetricSpec, SuiteReportSpec, TableSpec } from './spec';
import { type Figure, type RunSummary, aggregate, axisValues, metricInterval, taskOf, where } from './stats';

export interface Cell {
  text: string;
  head?: boolean;
  colspan?: number;
  rowspan?: number;
  /** Hover text: the metric's definition, or how many results a figure rests on. */
  title?: string;
  /** Results behind the figure, printed small beside it. */
  n?: number;
  align?: 'left' | 'right' | 'center';
  href?: string;
  cls?: string;
}

export interface TableModel {
  id: string;
  title: string;
  caption: string;
  head: Cell[][];
  body: Cell[][];
}

/** "TaP · ollama:qwen3:8b": the variant (or workflow) and the model. */
export function runLabel(run: LoadedRun['run']): string {
  return `${run.variant ?? run.workflow} · ${run.model}`;
}

/** The scorer version a run's rows were scored with (recorded with the run; a rescore records its own); null before it was recorded. */
export function scorerOf(run: LoadedRun['run']): string | null {
  const v = run.args['scorer'];
  return typeof v === 'string' && v ? v : null;
}

/**
 * Labels unique across a report: runs that would read the same are told apart by
 * their scorer version where that differs (a run and its rescore beside it), else by run id.
 */
export function runLabels(runs: LoadedRun[]): Map<LoadedRun, string> {
  const base = runs.map((r) => runLabel(r.run));
  const label = (r: LoadedRun, i: number): string => {
    const same = runs.filter((_, j) => base[j] === base[i]);
    if (same.length === 1) return base[i]!;
    const scorer = scorerOf(r.run);
    const byScorer = same.filter((x) => scorerOf(x.run) === scorer).length === 1 && scorer !== null;
    return byScorer ? `${base[i]} (scorer ${scorer.slice(0, 8)})` : `${base[i]} (${r.run.runId})`;
  };
  return new Map(runs.map((r, i) => [r, label(r, i)]));
}

const INTERVAL_NOTE =
  'Each estimate has its 95 % interval in brackets (Wilson for a pass rate with one trial per case, else a seeded bootstrap over cases, or over whole tasks where a task has several cases; counts have none); the small number is how many results it rests on.';

function head(text: string, extra: Partial<Cell> = {}): Cell {
  return { text, head: true, ...extra };
}

function figureCell(f: Figure, m: MetricSpec, iv?: Interval | null): Cell {
  // The interval's method goes in the hover text so a reader can tell Wilson from the bootstrap.
  const by = iv?.method === 'wilson' ? "Wilson's score" : iv?.over === 'tasks' ? 'a bootstrap over tasks' : 'a bootstrap over cases';
  const how = iv && f.value !== null ? `; 95 % interval by ${by}` : '';
  return {
    text: withInterval(formatValue(f.value, m.format), f.value === null ? null : iv, (v) => formatValue(v, m.format)),
    n: f.n,
    title: `${m.label}: ${m.description}; over ${f.n} result${f.n === 1 ? '' : 's'}${how}`,
    align: 'right',
  };
}

/** A metric over some results with its 95 % interval (none for counts and sums, which are not estimates). */
function measuredCell(results: LoadedRun['results'], m: MetricSpec, spec: SuiteReportSpec): Cell {
  return figureCell(aggregate(results, m), m, metricInterval(results, m, taskOf(spec)));
}

function metricHead(m: MetricSpec, label?: string, extra: Partial<Cell> = {}): Cell {
  const text = label ?? m.label;
  const unit = unitOf(m.format);
  return head(unit && text !== unit && !/[(%$]/.test(text) ? `${text} (${unit})` : text, {
    title: m.description,
    align: 'right',
    ...extra,
  });
}

export function summaryTable(spec: SuiteReportSpec, runs: LoadedRun[], summaries: Map<LoadedRun, RunSummary>): TableModel {
  const labels = runLabels(runs);
  const K = Math.max(0, ...[...summaries.values()].map((s) => Object.keys(s.metrics).filter((k) => k.startsWith('pass^')).length));
  const passCols = K > 1 ? [1, K] : K === 1 ? [1] : [];
  const metrics = spec.summary.map((id) => spec.metrics[id]).filter((m): m is MetricSpec => m !== undefined);
  return {
    id: `${spec.suite}-summary`,
    title: 'Summary',
    caption: `Headline score (${spec.headline.description}; 0–1, over the scored trials; errors, which have no score, are left out and counted apart), cases, errors and the summary metrics per run, each with its 95 % interval in brackets (Wilson for a pass rate with one trial per case, else a seeded bootstrap over cases, or over whole tasks where a task has several cases).${passCols.length ? ' pass^k as τ-bench defines it.' : ''}`,
    head: [
      [
        head('Run', { align: 'left' }),
        head('Status', { align: 'left' }),
        head('Cases', { align: 'right' }),
        head('Errors', { align: 'right' }),
        head('Score', { align: 'right', title: spec.headline.description }),
        ...passCols.map((k) => head(`pass^${k}`, { align: 'right', title: 'all of k trials of a case succeed (τ-bench)' })),
        ...metrics.map((m) => metricHead(m)),
      ],
    ],
    body: runs.map((r) => {
      const s = summaries.get(r)!;
      return [
        { text: labels.get(r)!, align: 'left' },
        { text: s.status, align: 'left', cls: `status-${s.status}` },
        { text: String(s.cases), align: 'right' },
        {
          text: String(s.errors),
          align: 'right',
          cls: s.errors ? 'bad' : undefined,
          ...(s.errors ? { title: s.errorReasons.map((e) => `${e.kind} ×${e.count}: ${e.example}`).join('\n') } : {}),
        },
        { text: withInterval(formatValue(s.score, 'ratio'), s.interval, (v) => formatValue(v, 'ratio')), align: 'right', cls: 'strong' },
        ...passCols.map((k) => ({
          text: withInterval(formatValue(s.metrics[`pass^${k}`], 'ratio'), s.intervals[`pass^${k}`], (v) => formatValue(v, 'ratio')),
          align: 'right' as const,
        })),
        ...metrics.map((m) => figureCell(aggregate(r.results, m), m, s.intervals[spec.summary.find((id) => spec.metrics[id] === m) ?? ''])),
      ];
    }),
  };
}

export function provenanceTable(runs: LoadedRun[]): TableModel {
  const cols = [
    'Run id',
    'Suite',
    'Model',
    'Workflow',
    'Variant',
    'Commit',
    'Seed',
    'Trials',
    'Started (UTC)',
    'Finished',
    'Version',
    'Scorer',
    'Host',
  ];
  return {
    id: 'provenance',
    title: 'Reproducibility',
    caption:
      'Everything recorded to reproduce each run: model spec, workflow, commit, seed, trials, the scorer version that scored it and the machine.',
    head: [cols.map((c) => head(c, { align: 'left' }))],
    body: runs.map(({ run }) =>
      [
        run.runId,
        run.suite,
        run.model,
        run.workflow,
        run.variant ?? '—',
        run.commit ? run.commit.slice(0, 12) + (run.commit.endsWith('+dirty') ? '+dirty' : '') : '—',
        String(run.seed),
        String(run.trials),
        run.startedAt.replace('T', ' ').slice(0, 19),
        run.finishedAt ? run.finishedAt.replace('T', ' ').slice(0, 19) : run.status,
        run.packageVersion,
        (scorerOf(run)?.slice(0, 12) ?? '—') +
          (typeof run.args['rescoredFrom'] === 'string' ? ` (rescored from ${run.args['rescoredFrom']})` : ''),
        `${run.host.platform}/${run.host.arch}, ${run.host.cpus} CPU, node ${run.host.node}`,
      ].map((text, i) => ({
        text,
        align: 'left' as const,
        cls: i === 0 || i === 5 || i === 11 ? 'mono' : undefined,
        title: i === 5 ? (run.commit ?? undefined) : i === 11 ? (scorerOf(run) ?? undefined) : undefined,
      })),
    ),
  };
}

function rowKey(run: LoadedRun['run'], key: TableSpec['rowKeys'][number]): string {
  return key === 'variant' ? (run.variant ?? run.workflow) : key === 'model' ? run.model : run.workflow;
}

const ROW_KEY_LABEL = { variant: 'Variant', model: 'Model', workflow: 'Workflow' } as const;

/** A paper table: one row per run; equal leading row keys merge as in the paper (ALRM's Mode). */
export function paperTable(spec: SuiteReportSpec, t: TableSpec, runs: LoadedRun[]): TableModel {
  const grouped = t.groups.some((g) => g.label);
  const keyHeads = t.rowKeys.map((k) => head(ROW_KEY_LABEL[k], { align: 'left', rowspan: grouped ? 2 : undefined }));
  // A group label that carries the unit ("Per category (%)") leaves it off its columns, as the papers print it.
  const colHeads = t.groups.flatMap((g) =>
    g.columns.map((c) => {
      const m = spec.metrics[c.metric]!;
      const unit = unitOf(m.format);
      return unit && g.label?.includes(`(${unit})`)
        ? head(c.label ?? m.label, { title: m.description, align: 'right' })
        : metricHead(m, c.label);
    }),
  );
  const headRows: Cell[][] = grouped
    ? [[...keyHeads, ...t.groups.map((g) => head(g.label ?? '', { colspan: g.columns.length, align: 'center', cls: 'group' }))], colHeads]
    : [[...keyHeads, ...colHeads]];
  const sorted = [...runs].sort((a, b) => rowKey(a.run, t.rowKeys[0]!).localeCompare(rowKey(b.run, t.rowKeys[0]!)));
  const body = sorted.map((r, i) => {
    const keys: Cell[] = t.rowKeys.map((k) => ({ text: rowKey(r.run, k), align: 'left' }));
    const first = rowKey(r.run, t.rowKeys[0]!);
    if (t.rowKeys.length > 1) {
      if (i > 0 && rowKey(sorted[i - 1]!.run, t.rowKeys[0]!) === first) keys.shift();
      else {
        const end = sorted.slice(i).findIndex((x) => rowKey(x.run, t.rowKeys[0]!) !== first);
        keys[0]!.rowspan = end === -1 ? sorted.length - i : end;
      }
    }
    const cells = t.groups.flatMap((g) =>
      g.columns.map((c) => {
        const m = spec.metrics[c.metric]!;
        return measuredCell(c.where ? where(r.results, c.where.axis, c.where.value) : r.results, m, spec);
      }),
    );
    return [...keys, ...cells];
  });
  return { id: `${spec.suite}-${t.id}`, title: t.title, caption: `${t.caption} ${INTERVAL_NOTE}`, head: headRows, body };
}

/**
 * A breakdown per taxonomy cell for one run: rows are the first axis, columns the
 * cross of the others; rows and columns with no results are left out.
 */
export function breakdownTable(
  spec: SuiteReportSpec,
  b: SuiteReportSpec['breakdowns'][number],
  run: LoadedRun,
  label: string,
): TableModel | undefined {
  const m = spec.metrics[b.metric]!;
  const axes = b.axes.map((k) => spec.axes.find((a) => a.key === k)!);
  const [rowAxis, ...colAxes] = axes;
  if (!rowAxis) return undefined;
  const labelled = run.results.filter((r) => axes.every((a) => r.labels[a.key] !== undefined));
  const rows = axisValues(rowAxis, labelled).filter((v) => where(labelled, rowAxis.key, v.value).length);
  let cols: Array<{ labels: string[]; filter: (rs: typeof labelled) => typeof labelled }> = [{ labels: [], filter: (rs) => rs }];
  for (const axis of colAxes) {
    const values = axisValues(axis, labelled).filter((v) => where(labelled, axis.key, v.value).length);
    cols = cols.flatMap((c) =>
      values.map((v) => ({ labels: [...c.labels, v.label], filter: (rs: typeof labelled) => where(c.filter(rs), axis.key, v.value) })),
    );
  }
  cols = cols.filter((c) => c.filter(labelled).length > 0);
  if (!rows.length || !cols.length) return undefined;
  const headRows: Cell[][] = [];
  if (colAxes.length === 0) headRows.push([head(rowAxis.label, { align: 'left' }), metricHead(m)]);
  else {
    for (let level = 0; level < colAxes.length; level++) {
      const row: Cell[] =
        level === 0
          ? [head(`${rowAxis.label} \\ ${colAxes.map((a) => a.label).join(' × ')}`, { align: 'left', rowspan: colAxes.length })]
          : [];
      for (let i = 0; i < cols.length;) {
        const key = cols[i]!.labels.slice(0, level + 1).join('\u0000');
        let span = 1;
        while (i + span < cols.length && cols[i + span]!.labels.slice(0, level + 1).join('\u0000') === key) span++;
        row.push(head(cols[i]!.labels[level]!, { colspan: span, align: 'center', cls: level < colAxes.length - 1 ? 'group' : undefined }));
        i += span;
      }
      headRows.push(row);
    }
  }
  const body = rows.map((v) => {
    const inRow = where(labelled, rowAxis.key, v.value);
    return [
      { text: v.label, align: 'left' as const, title: rowAxis.values.find((x) => x.value === v.value)?.description },
      ...(colAxes.length === 0 ? [measuredCell(inRow, m, spec)] : cols.map((c) => measuredCell(c.filter(inRow), m, spec))),
    ];
  });
  const unit = unitOf(m.format);
  return {
    id: `${spec.suite}-${b.id}-${run.run.runId}`,
    title: `${b.title} — ${label}`,
    caption: `${m.label}${unit ? ` (${unit})` : ''} per cell. ${INTERVAL_NOTE}${labelled.length < run.results.length ? ` ${run.results.length - labelled.length} results without these labels are left out.` : ''}`,
    head: headRows,
    body,
  };
}

/** Failure reasons per run (RAIDER Figure 12): count and share of the failed trials (an error has no outcome: its kind is in the summary). */
export function failureTable(spec: SuiteReportSpec, runs: LoadedRun[]): TableModel | undefined {
  const seen = new Set(runs.flatMap((r) => r.results.map((x) => x.failureClass).filter((c): c is string => c !== null)));
  if (seen.size === 0) return undefined;
  const classes = [
    ...spec.failureClasses.filter((c) => seen.has(c.value)),
    ...[...seen].filter((v) => !spec.failureClasses.some((c) => c.value === v)).map((v) => ({ value: v, label: v, description: v })),
  ];
  const labels = runLabels(runs);
  return {
    id: `${spec.suite}-failures`,
    title: 'Failure reasons',
    caption:
      'Failed trials by failure class: count and share of the classified ones. Errors have no outcome and are counted in the summary.',
    head: [[head('Run', { align: 'left' }), ...classes.map((c) => head(c.label, { title: c.description, align: 'right' }))]],
    body: runs.map((r) => {
      const classified = r.results.filter((x) => x.failureClass !== null);
      return [
        { text: labels.get(r)!, align: 'left' as const },
        ...classes.map((c) => {
          const n = classified.filter((x) => x.failureClass === c.value).length;
          return { text: classified.length ? `${n} (${((100 * n) / classified.length).toFixed(0)} %)` : '—', align: 'right' as const };
        }),
      ];
    }),
  };
}
