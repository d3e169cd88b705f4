// The report as one self-contained HTML file: paper-style tables, breakdowns,
// figures drawn in the page by the inlined charting library, every case with a
// relative link to its trace, and a Content-Security-Policy that allows no
// network request at all, so the file behaves the same offline.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { PACKAGE_VERSION } from '../results/index';
import { chartLibrary } from './assets';
import { type ChartSpec, suiteCharts } from './charts';
import { CLIENT_SCRIPT } from './client';
import { STYLE } from './style';
import { type Comparison, comparisonTable } from './compare';
import { formatValue } from './format';
import type { LoadedRun } from './load';
import { reportSpecFor } from './specs';
import { type RunSummary, errorsLine, summarize } from './stats';
import { type Cell, type TableModel, breakdownTable, failureTable, paperTable, provenanceTable, runLabels, summaryTable } from './tables';
import { OFF_PROTOCOL, isOffProtocol } from '../results/off-protocol';
import { Anchors, type EvidenceReader, TRANSCRIPT_STYLE, transcriptHtml, transcriptName } from './transcript';

export interface ReportInput {
  runs: LoadedRun[];
  /** Where the HTML will be written: trace links are relative to its folder. */
  outFile: string;
  now?: Date;
  title?: string;
  /** Two runs of one suite compared case by case (report A B). */
  comparison?: Comparison;
  /** Reads each case's trace and end state for its transcript (eval/runner/evidence.ts); without it transcripts show the score only. */
  evidence?: EvidenceReader;
}

export interface BuiltReport {
  html: string;
  charts: ChartSpec[];
  tables: TableModel[];
  summaries: RunSummary[];
}

export function esc(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

function attrs(a: Record<string, string | number | undefined>): string {
  return Object.entries(a)
    .filter(([, v]) => v !== undefined && v !== '')
    .map(([k, v]) => ` ${k}="${esc(String(v))}"`)
    .join('');
}

function cell(c: Cell): string {
  const tag = c.head ? 'th' : 'td';
  const cls = [c.align && c.align !== 'left' ? `a-${c.align}` : '', c.cls ?? ''].filter(Boolean).join(' ');
  const body = c.href ? `<a href="${esc(c.href)}">${esc(c.text)}</a>` : esc(c.text);
  const n = c.n !== undefined && c.text !== '—' ? `<span class="n">${c.n}</span>` : '';
  return `<${tag}${attrs({ class: cls, colspan: c.colspan, rowspan: c.rowspan, title: c.title })}>${body}${n}</${tag}>`;
}

class Numbering {
  table = 0;
  figure = 0;
}

/** A table with its caption; `num` numbers it (the per-run case listings are not numbered). */
function table(t: TableModel, num: Numbering | undefined, extraClass = ''): string {
  const label = num ? `<span class="label">Table ${++num.table}.</span> ` : '';
  return `<div class="table-wrap"><table id="${esc(t.id)}" class="${esc(extraClass)}">
<caption>${label}<strong>${esc(t.title)}.</strong> ${esc(t.caption)}</caption>
<thead>${t.head.map((r) => `<tr>${r.map(cell).join('')}</tr>`).join('\n')}</thead>
<tbody>${t.body.map((r) => `<tr>${r.map(cell).join('')}</tr>`).join('\n')}</tbody>
</table></div>`;
}

function figure(c: ChartSpec, num: Numbering): string {
  const n = ++num.figure;
  return `<figure>
<div class="chart" id="${esc(c.id)}" data-kind="${c.kind}"><noscript>Figures need JavaScript; the numbers are in the tables.</noscript></div>
<figcaption><span class="label">Figure ${n}.</span> <strong>${esc(c.title)}.</strong> ${esc(c.caption)}</figcaption>
</figure>`;
}

function traceHref(run: LoadedRun, tracePath: string, outDir: string): { href: string; exists: boolean } {
  const abs = path.resolve(run.dir, tracePath);
  const rel = path.relative(outDir, abs).split(path.sep).join('/');
  return { href: encodeURI(rel).replace(/#/g, '%23').replace(/\?/g, '%3F'), exists: existsSync(abs) };
}

function casesTable(run: LoadedRun, label: string, outDir: string, transcripts: readonly string[]): TableModel {
  const heads = ['Case', 'Trial', 'Status', 'Score', 'Labels', 'Failure or error kind', 'Time (s)', 'Tokens in / out', 'Trace', 'Error'];
  return {
    id: `cases-${run.run.runId}`,
    title: `Cases — ${label}`,
    caption: 'Every case × trial with its status, score, taxonomy labels, timing, tokens and a link to its trace.',
    head: [heads.map((h, i) => ({ text: h, head: true, align: i === 1 || i === 3 || i === 6 || i === 7 ? 'right' : 'left' }))],
    body: run.results.map((r, i): Cell[] => {
      const trace = r.tracePath ? traceHref(run, r.tracePath, outDir) : undefined;
      return [
        { text: r.caseId, cls: 'mono', href: `#${transcripts[i]!}`, title: 'the transcript' },
        { text: String(r.trial), align: 'right' },
        {
          text: r.status === 'ok' ? (r.success ? 'pass' : 'fail') : r.status,
          cls: `status-${r.status === 'ok' ? (r.success ? 'pass' : 'fail') : r.status}`,
        },
        { text: formatValue(r.score, 'ratio'), align: 'right' },
        {
          text: Object.entries(r.labels)
            .map(([k, v]) => `${k}=${v}`)
            .join(' '),
          cls: 'small',
        },
        { text: r.failureClass ?? r.errorKind ?? '' },
        { text: formatValue(r.durationMs === null ? null : r.durationMs / 1000, 'seconds'), align: 'right' },
        { text: r.tokensIn === null && r.tokensOut === null ? '—' : `${r.tokensIn ?? '—'} / ${r.tokensOut ?? '—'}`, align: 'right' },
        trace
          ? {
              text: trace.exists ? 'trace' : 'trace (missing)',
              href: trace.href,
              title: r.tracePath ?? undefined,
              cls: trace.exists ? '' : 'missing',
            }
          : { text: '—' },
        { text: r.error ?? '', cls: 'small error-text' },
      ];
    }),
  };
}

/** Builds the whole document; pure apart from reading the chart library and checking trace files exist. */
export function buildReport(input: ReportInput): BuiltReport {
  const outDir = path.dirname(path.resolve(input.outFile));
  const num = new Numbering();
  const charts: ChartSpec[] = [];
  const tables: TableModel[] = [];
  const summaries: RunSummary[] = [];
  const keep = (t: TableModel | undefined) => (t ? (tables.push(t), t) : undefined);
  const suites = [...new Set(input.runs.map((r) => r.run.suite))];
  const sections: string[] = [];
  const toc: string[] = [];
  // One namespace for every id in the page: a table, a chart or a transcript never shares another's anchor.
  const anchors = new Anchors();
  anchors.take('chart-data');
  const anchored = (t: TableModel | undefined) => (t ? { ...t, id: anchors.take(t.id) } : undefined);
  const sectionIds = suites.map((suite) => anchors.take(`suite-${suite}`));

  suites.forEach((suite, si) => {
    const spec = reportSpecFor(suite);
    const runs = input.runs.filter((r) => r.run.suite === suite);
    const labels = runLabels(runs);
    const sums = new Map(runs.map((r) => [r, summarize(r.run, r.results, spec, r.db)]));
    summaries.push(...sums.values());
    const drawn = suiteCharts(spec, runs, sums);
    const sec = si + 1;
    const parts: string[] = [];
    parts.push(`<p class="source">${esc(spec.source)}. Headline: ${esc(spec.headline.description)}.</p>`);
    const off = runs.filter((r) => isOffProtocol(r.run));
    if (off.length)
      parts.push(
        `<p class="warning"><strong>${esc(OFF_PROTOCOL)}:</strong> ${off.map((r) => esc(labels.get(r)!)).join(', ')} ran with a workflow or tool set the suite is not defined for; ${off.length === 1 ? 'its scores do' : 'their scores do'} not compare with the paper's or with on-protocol runs.</p>`,
      );
    parts.push(table(keep(anchored(summaryTable(spec, runs, sums)))!, num, 'summary'));
    if (input.comparison?.suite === suite) parts.push(table(keep(anchored(comparisonTable(input.comparison)))!, num, 'comparison'));
    for (const t of spec.tables) parts.push(table(keep(anchored(paperTable(spec, t, runs)))!, num, 'paper'));
    // Tables first keep the ids they are known by (a figure yields: "alrm-comparison" is the table of two runs).
    const suiteCharts_ = drawn.map((c) => ({ ...c, id: anchors.take(c.id) }));
    charts.push(...suiteCharts_);
    if (suiteCharts_.length) {
      parts.push(`<h3 id="${anchors.take(`s${sec}-figures`)}">${sec}.1 Figures</h3>`);
      parts.push(`<div class="figures">${suiteCharts_.map((c) => figure(c, num)).join('\n')}</div>`);
    }
    const breakdowns = spec.breakdowns
      .flatMap((b) => runs.map((r) => keep(anchored(breakdownTable(spec, b, r, labels.get(r)!)))))
      .filter((t) => t !== undefined);
    if (breakdowns.length) {
      parts.push(`<h3 id="${anchors.take(`s${sec}-breakdowns`)}">${sec}.2 Breakdowns per taxonomy cell</h3>`);
      parts.push(...breakdowns.map((t) => table(t, num, 'breakdown')));
    }
    const failures = keep(anchored(failureTable(spec, runs)));
    if (failures) parts.push(table(failures, num));
    parts.push(`<h3 id="${anchors.take(`s${sec}-cases`)}">${sec}.3 Cases</h3>`);
    const transcripts: string[] = [];
    for (const r of runs) {
      const s = sums.get(r)!;
      const ids = r.results.map((x) => anchors.take(transcriptName(r.run.runId, x.caseId, x.trial)));
      const t = keep(anchored(casesTable(r, labels.get(r)!, outDir, ids)))!;
      parts.push(
        `<details class="cases"><summary>${esc(labels.get(r)!)} — ${r.results.length} results, ${esc(errorsLine(s))}</summary>${table(t, undefined, 'cases')}</details>`,
      );
      transcripts.push(
        `<details class="transcripts"><summary>${esc(labels.get(r)!)} — ${r.results.length} transcripts</summary>${r.results.map((x, i) => transcriptHtml(r, x, ids[i]!, input.evidence)).join('\n')}</details>`,
      );
    }
    parts.push(`<h3 id="${anchors.take(`s${sec}-transcripts`)}">${sec}.4 Transcripts</h3>`, ...transcripts);
    toc.push(`<li><a href="#${sectionIds[si]!}">${esc(spec.title)}</a></li>`);
    sections.push(`<section id="${sectionIds[si]!}"><h2>${sec}. ${esc(spec.title)}</h2>\n${parts.join('\n')}</section>`);
  });

  const provenance = keep(anchored(provenanceTable(input.runs)))!;
  const repro = suites.length + 1;
  const reproId = anchors.take('reproducibility');
  toc.push(`<li><a href="#${reproId}">Reproducibility</a></li>`);
  sections.push(`<section id="${reproId}"><h2>${repro}. Reproducibility</h2>\n${table(provenance, num, 'provenance')}</section>`);

  const now = input.now ?? new Date();
  const title = input.title ?? `Evaluation report: ${suites.join(', ')}`;
  const lib = chartLibrary();
  const data = JSON.stringify(charts).replace(/</g, '\\u003c');
  const html = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:">
<meta name="generator" content="skillbridge ${esc(PACKAGE_VERSION)}">
<title>${esc(title)}</title>
<style>${STYLE}${TRANSCRIPT_STYLE}</style>
</head>
<body>
<header>
<h1>${esc(title)}</h1>
<p class="meta">${input.runs.length} run${input.runs.length === 1 ? '' : 's'} · generated ${esc(now.toISOString().replace('T', ' ').slice(0, 19))} UTC by skillbridge ${esc(PACKAGE_VERSION)}</p>
<nav><ol>${toc.join('')}</ol></nav>
</header>
<main>
${sections.join('\n')}
</main>
<footer>Scores are 0–1; percentages are of the results a figure rests on (the small number beside it). A result that ended in an error has no score (its outcome is unknown: an unreachable model, a scorer that did not decide): it is left out of every figure, the score and pass^k included, and counted in the errors column.</footer>
<script type="application/json" id="chart-data">${data}</script>
${lib.scripts.map((s) => `<script data-lib="${esc(s.name)}">${s.code}</script>`).join('\n')}
<script>${CLIENT_SCRIPT}</script>
</body>
</html>
`;
  return { html, charts, tables, summaries };
}
