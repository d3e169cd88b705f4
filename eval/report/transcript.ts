// The transcript viewer: each case × trial's conversation as the trace recorded
// it (messages, tool calls with their arguments, results, warnings, the end), the
// world as the end state recorded it, and the score with what decided it, each a
// collapsible section with its own anchor. The host reads the files a result row
// names into entries (eval/runner/evidence.ts: the report sits below the trace's
// layer); a missing or damaged file is said in place instead of failing the report.
import path from 'node:path';
import type { ResultRecord } from '../results/index';
import { formatValue } from './format';
import type { LoadedRun } from './load';

/** The longest text shown for one message or result: the trace file keeps the rest. */
export const TEXT_CAP = 4000;

function esc(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

function capped(s: string, cap = TEXT_CAP): string {
  return s.length > cap ? `${s.slice(0, cap)}… [${s.length - cap} more characters in the trace file]` : s;
}

function pre(s: string, cls = ''): string {
  return `<pre class="tx-text${cls ? ` ${cls}` : ''}">${esc(capped(s))}</pre>`;
}

/** Tool arguments as indented JSON where they parse, else as sent. */
function argsText(args: string): string {
  try {
    return JSON.stringify(JSON.parse(args), null, 2);
  } catch {
    return args;
  }
}

/**
 * Ids unique within one page: a name seen before gets -2, -3, …. Every element id
 * of the report comes from one of these, so no anchor hides another.
 */
export class Anchors {
  private readonly used = new Set<string>();
  take(name: string): string {
    const base = name.replace(/[^A-Za-z0-9_-]+/g, '-').replace(/^-+|-+$/g, '') || 'x';
    let id = base;
    for (let i = 2; this.used.has(id); i++) id = `${base}-${i}`;
    this.used.add(id);
    return id;
  }
}

/** One step of a conversation, as the viewer shows it. */
export interface TranscriptEntry {
  kind: 'system' | 'user' | 'assistant' | 'call' | 'result-ok' | 'result-bad' | 'warning' | 'error' | 'note' | 'end' | 'turn';
  /** The line above the text: who, which tool, how it ended. */
  title: string;
  text?: string;
  /** Tool arguments or a program, shown as code. */
  code?: string;
  /** A model's reasoning, folded. */
  reasoning?: string;
  /** Context from an earlier turn. */
  prior?: boolean;
}

/** What the recorded files say of one case × trial. */
export interface CaseEvidence {
  entries: TranscriptEntry[];
  /** Why the conversation is not (wholly) shown: a missing, damaged or cut-off trace. */
  problems: string[];
  /** The world the end state recorded: rows of name and value, and the scene as JSON; a string says why there is none. */
  world: { rows: Array<[string, string]>; scene: string } | string;
}

/** Reads a case × trial's evidence from its trace path (absolute). */
export type EvidenceReader = (tracePath: string) => CaseEvidence;

/** The anchor a case × trial's transcript is named by (before de-duplication). */
export function transcriptName(runId: string, caseId: string, trial: number): string {
  return `case-${runId}-${caseId}-t${trial}`;
}

/** The score and what decided it, as rows of name and value: the status, the headline score, its failure class or error, the scorer, the suite's metrics. */
export function verdictRows(r: ResultRecord): Array<[string, string]> {
  const status = r.status === 'ok' ? (r.success ? 'pass' : 'fail') : r.status;
  const rows: Array<[string, string]> = [
    ['status', status],
    ['score', formatValue(r.score, 'ratio')],
    ...(r.failureClass ? [['failure class', r.failureClass] as [string, string]] : []),
    ...(r.errorKind ? [['error kind', r.errorKind] as [string, string]] : []),
    // Which scorer judged this row: a run rescored with a newer scorer shows its own beside the old run's.
    ...(r.scorerVersion !== null || r.status === 'ok'
      ? [['scorer', r.scorerVersion ?? '— (not recorded: older results)'] as [string, string]]
      : []),
    ...(r.error ? [['error', r.error] as [string, string]] : []),
    ...Object.entries(r.metrics).map(([k, v]): [string, string] => [k, v === null ? '— (undecided)' : String(v)]),
  ];
  return rows;
}

function verdictHtml(r: ResultRecord): string {
  const rows = verdictRows(r);
  return `<table class="tx-verdict">${rows.map(([k, v]) => `<tr><th>${esc(k)}</th><td class="tx-wrap">${esc(v)}</td></tr>`).join('')}</table>`;
}

function entryHtml(e: TranscriptEntry): string {
  if (e.kind === 'end' || e.kind === 'turn') return `<div class="tx-${e.kind}">${esc(e.title)}</div>`;
  const thinking = e.reasoning ? `<details class="tx-reasoning"><summary>reasoning</summary>${pre(e.reasoning)}</details>` : '';
  return `<div class="tx-msg tx-${e.kind}${e.prior ? ' tx-prior' : ''}"><div class="tx-role">${esc(e.title)}</div>${thinking}${e.text ? pre(e.text) : ''}${e.code !== undefined ? pre(argsText(e.code), 'tx-args') : ''}</div>`;
}

function worldHtml(w: CaseEvidence['world']): string {
  if (typeof w === 'string') return `<p class="missing">${esc(w)}</p>`;
  const table = w.rows.map(([k, v]) => `<tr><th>${esc(k)}</th><td class="mono tx-wrap">${esc(capped(v, 600))}</td></tr>`).join('');
  return `<table class="tx-world">${table}</table><details><summary>scene objects</summary>${pre(w.scene)}</details>`;
}

/** One case × trial's collapsible transcript, under the given (unique) anchor; `read` is the host's reader of the recorded files. */
export function transcriptHtml(run: LoadedRun, r: ResultRecord, anchor: string, read?: EvidenceReader): string {
  const status = r.status === 'ok' ? (r.success ? 'pass' : 'fail') : r.status;
  const abs = r.tracePath ? path.resolve(run.dir, r.tracePath) : undefined;
  let convo: string;
  let world = '';
  if (!abs) convo = '<p class="missing">No trace was recorded for this case.</p>';
  else if (!read) convo = '<p class="missing">This report was built without reading the traces.</p>';
  else {
    const ev = read(abs);
    convo = ev.entries.map(entryHtml).join('') + ev.problems.map((p) => `<p class="missing">${esc(p)}</p>`).join('');
    world = worldHtml(ev.world);
  }
  return `<details class="transcript" id="${esc(anchor)}"><summary><span class="mono">${esc(r.caseId)}</span> · trial ${r.trial} · <span class="status-${esc(status)}">${esc(status)}</span> · score ${esc(formatValue(r.score, 'ratio'))}</summary>
<div class="tx-body"><h4>Score</h4>${verdictHtml(r)}<h4>Conversation</h4><div class="tx-convo">${convo}</div>${world ? `<h4>World at the end</h4>${world}` : ''}</div></details>`;
}

export const TRANSCRIPT_STYLE = `
details.transcript { margin: 4px 0; border-left: 3px solid var(--thin); padding-left: 8px; }
details.transcript > summary { cursor: pointer; font: 13px system-ui, sans-serif; }
details.transcript:target { border-left-color: var(--accent); }
.tx-body { font: 13px/1.4 system-ui, sans-serif; max-width: 1000px; }
.tx-body h4 { margin: 10px 0 4px; font-size: 13px; }
.tx-msg { margin: 6px 0; padding: 4px 8px; border-radius: 4px; background: #f6f7f9; }
.tx-user { background: #eef4fb; } .tx-assistant { background: #f3f1fa; } .tx-system { background: #f7f7f2; }
.tx-result-ok { background: #eef7f0; } .tx-result-bad, .tx-error { background: #fbeeee; } .tx-warning { background: #fdf6e3; }
.tx-prior { opacity: 0.7; }
.tx-role { font-size: 11.5px; color: var(--muted); font-weight: 600; }
.tx-tool { font-family: ui-monospace, Menlo, Consolas, monospace; color: var(--ink); }
.tx-text { white-space: pre-wrap; word-break: break-word; margin: 2px 0; font: 12px/1.4 ui-monospace, Menlo, Consolas, monospace; }
.tx-end, .tx-turn { font-size: 11.5px; color: var(--muted); margin: 6px 0; }
table.tx-verdict, table.tx-world { border-top: 1px solid var(--thin); border-bottom: 1px solid var(--thin); min-width: 0; }
td.tx-wrap { white-space: pre-wrap; word-break: break-word; max-width: 760px; }
`;
