// Reading a trace back: a JSONL file or text to header and records (damaged
// lines skipped and reported, a cut-off run flagged), and readable text for people.
import { readUserTextSync } from '../../base/user-file';
import type { z } from 'zod';
import { type TraceHeader, TraceHeaderSchema, type TraceLine, type TraceRecord, TraceRecordSchema } from './trace-schema';

export class TraceFormatError extends Error {
  constructor(
    message: string,
    readonly line: number,
  ) {
    super(message);
    this.name = 'TraceFormatError';
  }
}

export interface ReadTrace {
  header: TraceHeader;
  records: TraceRecord[];
  /** The last line, cut off mid-write (a crash): it is left out and reported here. */
  truncated?: { line: number; text: string };
  /** Lines in the middle that could not be read (corrupt, or not a record): left out, the rest is read. */
  skipped?: Array<{ line: number; reason: string }>;
  /** No `end` record: the run was cut off (the process was killed or crashed) or is still going. */
  unfinished?: boolean;
}

/** Largest trace file read back (a string longer than ~512 MiB cannot be made in Node). */
export const TRACE_MAX_BYTES = 256 * 1024 * 1024;

/** Reads a trace file; a file that is not there, not a regular file or too large throws UserFileError. */
export function readTrace(path: string): ReadTrace {
  return parseTrace(readUserTextSync(path, { maxBytes: TRACE_MAX_BYTES }), path);
}

/** Parses JSONL trace text; throws TraceFormatError naming the line of a bad record. */
export function parseTrace(text: string, name = 'trace'): ReadTrace {
  // A UTF-8 BOM (editors on Windows add one) and CRLF line ends are not errors.
  const lines = text.replace(/^\uFEFF/, '').split('\n');
  const endsClean = text.endsWith('\n');
  if (endsClean) lines.pop();
  let truncated: ReadTrace['truncated'];
  const skipped: NonNullable<ReadTrace['skipped']> = [];
  const parsed: Array<{ line: number; value: unknown }> = [];
  lines.forEach((rawLine, i) => {
    const n = i + 1;
    const raw = rawLine.endsWith('\r') ? rawLine.slice(0, -1) : rawLine;
    if (!raw.trim()) {
      if (n < lines.length) skipped.push({ line: n, reason: 'empty line' });
      return;
    }
    try {
      parsed.push({ line: n, value: JSON.parse(raw) });
    } catch {
      // The final line may be cut off mid-write (a crash); one in the middle is damage, left out and reported.
      if (n === lines.length && !endsClean) truncated = { line: n, text: raw };
      else skipped.push({ line: n, reason: `not valid JSON: ${raw.slice(0, 60)}` });
    }
  });
  const first = parsed[0];
  if (!first) throw new TraceFormatError(`${name}:1: no header line (the file is empty or cut off)`, 1);
  const h = TraceHeaderSchema.safeParse(first.value);
  if (!h.success) throw new TraceFormatError(`${name}:${first.line}: not a trace header: ${issues(h.error)}`, first.line);
  const records: TraceRecord[] = [];
  for (const { line, value } of parsed.slice(1)) {
    const r = TraceRecordSchema.safeParse(value);
    if (r.success) records.push(r.data);
    else skipped.push({ line, reason: `bad record: ${issues(r.error).slice(0, 200)}` });
  }
  skipped.sort((a, b) => a.line - b.line);
  const unfinished = !records.some((r) => r.type === 'end');
  return {
    header: h.data,
    records,
    ...(truncated ? { truncated } : {}),
    ...(skipped.length ? { skipped } : {}),
    ...(unfinished ? { unfinished } : {}),
  };
}

/** What a reader should be told about a trace besides its records (cut off, damaged lines), one line each. */
export function traceNotes(t: ReadTrace): string[] {
  const out: string[] = [];
  for (const sk of t.skipped ?? []) out.push(`line ${sk.line} was left out: ${sk.reason}`);
  if (t.truncated) out.push(`line ${t.truncated.line} was cut off mid-write and is not shown`);
  if (t.unfinished)
    out.push(
      'the run has no end record: it was cut off (the process was killed or crashed) or is still going; what it did up to then is shown',
    );
  return out;
}

function issues(e: z.ZodError): string {
  return e.issues.map((i) => `${i.path.length ? i.path.join('.') : '(record)'}: ${i.message}`).join('; ');
}

/** Readable text for people (`skillbridge trace FILE`): one line per record, times since start. */
export function formatTrace(trace: ReadTrace | readonly TraceLine[]): string {
  const lines: readonly TraceLine[] = Array.isArray(trace) ? trace : [(trace as ReadTrace).header, ...(trace as ReadTrace).records];
  const out: string[] = [];
  for (const l of lines) {
    if (l.type === 'header') {
      out.push(`run ${l.runId}  ${l.startedAt}`);
      const parts = [`scene ${l.scene ?? '-'}`, `workflow ${l.workflow ?? '-'}`, `model ${l.model ?? '-'}`, `seed ${l.seed ?? '-'}`];
      if (l.session) parts.push(`session ${l.session}${l.turn !== undefined ? ` turn ${l.turn}` : ''}`);
      out.push(`${parts.join('  ')}  (skillbridge ${l.versions.skillbridge}, node ${l.versions.node})`);
      continue;
    }
    out.push(`${clock(l.elapsedMs)} ${l.stage ? `[${l.stage}] ` : ''}${describe(l)}`);
  }
  if (!Array.isArray(trace)) for (const note of traceNotes(trace as ReadTrace)) out.push(`(${note})`);
  return out.join('\n');
}

function clock(ms: number): string {
  return `[${(ms / 1000).toFixed(2).padStart(7)}s]`;
}

function indent(text: string): string {
  return text.replace(/\n/g, '\n            ');
}

function describe(r: TraceRecord): string {
  switch (r.type) {
    case 'message': {
      const who = r.prior ? `(earlier) ${r.role}` : r.role;
      const calls = r.tool_calls?.length ? ` [calls ${r.tool_calls.map((c) => c.function.name).join(', ')}]` : '';
      const usage = r.usage ? ` (${r.usage.promptTokens}+${r.usage.completionTokens} tokens)` : '';
      const thought = r.reasoning ? `(thinking) ${indent(r.reasoning.trim())}\n            ` : '';
      return `${who}: ${thought}${indent(r.content?.trim() || '(no text)')}${calls}${usage}`;
    }
    case 'tool_call':
      return `${r.parent ? '  ' : ''}→ ${r.name} ${r.arguments || '{}'}  #${r.id}`;
    case 'tool_result':
      return `${r.parent ? '  ' : ''}← ${r.name} ${r.status} in ${r.durationMs} ms: ${indent(r.result ?? r.error ?? '')}`;
    case 'warning':
      return `! ${r.code}: ${indent(r.message)}`;
    case 'approval':
      return `? ${r.tool} ${JSON.stringify(r.args)}: ${r.decision}${r.note ? ` (${r.note})` : ''}`;
    case 'stop':
      return `■ stop (${r.reason}): ${r.message}`;
    case 'route':
      return `route: ${r.route}`;
    case 'final':
      return `final: ${indent(r.answer)}`;
    case 'error':
      return `error${r.where ? ` in ${r.where}` : ''}${r.kind ? ` (${r.kind})` : ''}: ${r.message}`;
    case 'end':
      return `end: ${r.reason} after ${r.iterations} iteration(s), ${r.toolCalls} tool call(s), ${r.usage.totalTokens} tokens, ${(r.durationMs / 1000).toFixed(2)} s`;
    case 'retry':
      return `(retry ${r.attempt} in ${Math.round(r.delayMs)} ms: ${r.reason})`;
    case 'note':
      return `note: ${indent(r.text)}`;
    case 'ask':
      return `ask the person: ${indent(r.question)}`;
    case 'answer':
      return `answer (${r.by}): ${indent(r.answer)}`;
    case 'safety':
      return `safety ${r.verdict} ${r.skill} ${JSON.stringify(r.ran ?? r.args)} (${r.via}${r.tool ? ` ${r.tool}` : ''}): ${r.reason}${r.answer ? ` — ${r.answer}` : ''}${r.prediction ? ` [shadow: ${r.prediction.ok ? 'ok' : r.prediction.code}]` : ''}`;
    case 'divergence':
      return `≠ shadow divergence on ${r.skill} (${r.kind} ${r.subject}): predicted ${r.predicted}, robot reported ${r.actual}`;
    case 'code_run': {
      const calls = r.calls.map(
        (c) => `\n  ${c.seq}. ${c.name} ${JSON.stringify(c.args)} → ${c.ok ? (c.result ?? 'ok') : `✗ ${c.error ?? ''}`}`,
      );
      const end = r.ok
        ? 'ran to the end'
        : `ended: ${r.error?.kind ?? 'error'}${r.error?.line ? ` at line ${r.error.line}` : ''}: ${r.error?.message ?? ''}`;
      return `program ${r.id} (${r.calls.length} call${r.calls.length === 1 ? '' : 's'}, ${r.durationMs} ms) ${end}\n${indent(`  ${r.code.trim().replace(/\n/g, '\n  ')}${calls.join('')}`)}`;
    }
  }
}
