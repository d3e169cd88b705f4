// The run trace: every message, tool call, argument, result, warning, approval,
// stop and timing, appended as it happens. One JSONL file per run: a header line,
// then one record per line, each written synchronously so a crash (or a killed
// process) keeps everything up to the last event. The UI, the benchmarks and
// replay all read the same records.
import { closeSync, mkdirSync, openSync, readFileSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { z } from 'zod';
import pkg from '../../package.json' with { type: 'json' };
import { ToolCallSchema } from '../models/model';

export const TRACE_FORMAT = 'skillbridge-trace/1';

export const WARNING_CODES = [
  'made_up_tool_response',
  'made_up_tool_name',
  'unsuccessful_tool_call',
  'missing_tool_call_or_final_response',
] as const;
export type WarningCode = (typeof WARNING_CODES)[number];

/** How a tool call ended. `failed`: the tool ran and reported failure (e.g. out of reach). */
export const TOOL_STATUSES = [
  'ok',
  'failed',
  'invalid_arguments',
  'exception',
  'unknown_tool',
  'skipped',
  'rejected',
  'denied',
  'stopped',
  'preempted',
] as const;
export type ToolStatus = (typeof TOOL_STATUSES)[number];

const UsageSchema = z.object({
  promptTokens: z.number(),
  completionTokens: z.number(),
  totalTokens: z.number(),
  costUsd: z.number().optional(),
});

export const TraceHeaderSchema = z.object({
  type: z.literal('header'),
  format: z.literal(TRACE_FORMAT),
  runId: z.string(),
  scene: z.string().nullable(),
  workflow: z.string().nullable(),
  model: z.string().nullable(),
  seed: z.number().nullable(),
  versions: z.object({ skillbridge: z.string(), node: z.string() }),
  startedAt: z.string(),
  /** Present when the run is one turn of a session. */
  session: z.string().optional(),
  turn: z.number().optional(),
});
export type TraceHeader = z.infer<typeof TraceHeaderSchema>;

// Events are what the runtime reports; records are events stamped with time.
// `stage` is the path of the flow that produced a record ("planner/executor");
// absent for a single-loop workflow's flow and in traces written before stages.
const stage = { stage: z.string().optional() };
const MessageEvent = z.object({
  ...stage,
  type: z.literal('message'),
  role: z.enum(['system', 'user', 'assistant']),
  content: z.string().nullable(),
  tool_calls: z.array(ToolCallSchema).optional(),
  /** The model's reasoning ("thinking") for this turn; not sent back to the model. */
  reasoning: z.string().optional(),
  iteration: z.number().optional(),
  /** From an earlier turn: context the run was given, not something it produced. */
  prior: z.boolean().optional(),
  usage: UsageSchema.optional(),
});
const ToolCallEvent = z.object({
  ...stage,
  type: z.literal('tool_call'),
  id: z.string(),
  name: z.string(),
  arguments: z.string(),
  iteration: z.number(),
  /** The call that made this one: a sandboxed program's API calls name the call that ran the program. */
  parent: z.string().optional(),
});
const ToolResultEvent = z.object({
  ...stage,
  type: z.literal('tool_result'),
  id: z.string(),
  name: z.string(),
  ok: z.boolean(),
  status: z.enum(TOOL_STATUSES),
  /** Exactly the text of the tool message the model reads: `result` when ok, `error` when not. */
  result: z.string().optional(),
  error: z.string().optional(),
  durationMs: z.number(),
  data: z.unknown().optional(),
  parent: z.string().optional(),
});
const WarningEvent = z.object({
  ...stage,
  type: z.literal('warning'),
  code: z.enum(WARNING_CODES),
  message: z.string(),
  /** Where the text went: a user message, or the tool message answering `toolCallId`. */
  via: z.enum(['user', 'tool']),
  toolCallId: z.string().optional(),
  iteration: z.number(),
});
const ApprovalEvent = z.object({
  ...stage,
  type: z.literal('approval'),
  id: z.string(),
  tool: z.string(),
  args: z.unknown(),
  decision: z.enum(['approved', 'rejected', 'denied']),
  note: z.string().optional(),
  waitedMs: z.number().optional(),
});
const StopEvent = z.object({ ...stage, type: z.literal('stop'), reason: z.enum(['user', 'time_limit']), message: z.string() });
const RouteEvent = z.object({ ...stage, type: z.literal('route'), route: z.string(), usage: UsageSchema.optional() });
const FinalEvent = z.object({ ...stage, type: z.literal('final'), answer: z.string() });
/** The model request was retried (rate limit, server error, dropped stream). */
const RetryEvent = z.object({
  ...stage,
  type: z.literal('retry'),
  iteration: z.number(),
  attempt: z.number(),
  delayMs: z.number(),
  reason: z.string(),
});
/** A workflow's own step: a hand-off, a critic's verdict, a preemption. */
const NoteEvent = z.object({ ...stage, type: z.literal('note'), text: z.string(), data: z.unknown().optional() });
/** The workflow asked the person, and what came back. */
const AskEvent = z.object({ ...stage, type: z.literal('ask'), id: z.string(), question: z.string() });
const AnswerEvent = z.object({
  ...stage,
  type: z.literal('answer'),
  id: z.string(),
  answer: z.string(),
  by: z.enum(['person', 'simulated', 'none']),
});
/** The safety chain's decision about one skill call (agents/runtime/safety). */
const SafetyEvent = z.object({
  ...stage,
  type: z.literal('safety'),
  verdict: z.enum(['allow', 'clamp', 'refuse', 'ask']),
  skill: z.string(),
  args: z.unknown(),
  ran: z.unknown().optional(),
  checks: z.array(z.string()),
  reason: z.string(),
  via: z.enum(['tool', 'sandbox', 'http', 'mcp', 'direct']),
  tool: z.string().optional(),
  callId: z.string().optional(),
  answer: z.enum(['approved', 'rejected', 'none']).optional(),
  note: z.string().optional(),
  prediction: z.object({ ok: z.boolean(), code: z.string().optional(), summary: z.string() }).optional(),
});
/** Shadow mode: the simulator's prediction and the robot's report differ. */
const DivergenceEvent = z.object({
  ...stage,
  type: z.literal('divergence'),
  kind: z.enum(['outcome', 'object', 'holding']),
  subject: z.string(),
  predicted: z.string(),
  actual: z.string(),
  skill: z.string(),
  via: z.enum(['tool', 'sandbox', 'http', 'mcp', 'direct']),
  tool: z.string().optional(),
  callId: z.string().optional(),
});
/** A sandboxed program: its code, how it ended, its output and each API call with its result. */
const CodeRunEvent = z.object({
  ...stage,
  type: z.literal('code_run'),
  id: z.string(),
  /** The tool call that ran it, when a tool did. */
  toolCallId: z.string().optional(),
  language: z.literal('javascript'),
  code: z.string(),
  ok: z.boolean(),
  error: z.object({ kind: z.string(), message: z.string(), line: z.number().optional() }).optional(),
  output: z.string(),
  calls: z.array(
    z.object({
      seq: z.number(),
      name: z.string(),
      args: z.unknown(),
      ok: z.boolean(),
      result: z.string().optional(),
      error: z.string().optional(),
      durationMs: z.number(),
    }),
  ),
  durationMs: z.number(),
});
const ErrorEvent = z.object({
  ...stage,
  type: z.literal('error'),
  message: z.string(),
  kind: z.string().optional(),
  where: z.string().optional(),
});
const EndEvent = z.object({
  ...stage,
  type: z.literal('end'),
  reason: z.enum(['final', 'time_limit', 'max_iterations', 'stopped', 'model_error']),
  iterations: z.number(),
  toolCalls: z.number(),
  usage: UsageSchema,
  durationMs: z.number(),
});

const EVENT_SCHEMAS = [
  MessageEvent,
  ToolCallEvent,
  ToolResultEvent,
  WarningEvent,
  ApprovalEvent,
  StopEvent,
  RouteEvent,
  FinalEvent,
  ErrorEvent,
  EndEvent,
  RetryEvent,
  NoteEvent,
  AskEvent,
  AnswerEvent,
  SafetyEvent,
  DivergenceEvent,
  CodeRunEvent,
] as const;
export const TraceEventSchema = z.discriminatedUnion('type', EVENT_SCHEMAS);
export type TraceEvent = z.infer<typeof TraceEventSchema>;

const Stamp = { t: z.string(), elapsedMs: z.number() };
export const TraceRecordSchema = z.discriminatedUnion('type', [
  MessageEvent.extend(Stamp),
  ToolCallEvent.extend(Stamp),
  ToolResultEvent.extend(Stamp),
  WarningEvent.extend(Stamp),
  ApprovalEvent.extend(Stamp),
  StopEvent.extend(Stamp),
  RouteEvent.extend(Stamp),
  FinalEvent.extend(Stamp),
  ErrorEvent.extend(Stamp),
  EndEvent.extend(Stamp),
  RetryEvent.extend(Stamp),
  NoteEvent.extend(Stamp),
  AskEvent.extend(Stamp),
  AnswerEvent.extend(Stamp),
  SafetyEvent.extend(Stamp),
  DivergenceEvent.extend(Stamp),
  CodeRunEvent.extend(Stamp),
]);
export type TraceRecord = z.infer<typeof TraceRecordSchema>;
export type TraceLine = TraceHeader | TraceRecord;

/** Where stamped lines go: a JSONL file, memory, a UI stream. */
export interface TraceSink {
  write(line: TraceLine): void;
  /** Several lines at once (the history at the start of a run): one syscall instead of many. */
  writeMany?(lines: readonly TraceLine[]): void;
  close?(): void;
}

export function traceVersions(): TraceHeader['versions'] {
  return { skillbridge: pkg.version, node: process.version };
}

export function newRunId(now = new Date()): string {
  return `${now.toISOString().replace(/[:.]/g, '-')}-${Math.random().toString(36).slice(2, 8)}`;
}

export type TraceHeaderInput = Omit<TraceHeader, 'type' | 'format' | 'versions' | 'startedAt'> &
  Partial<Pick<TraceHeader, 'versions' | 'startedAt'>>;

/**
 * Stamps events with wall time and time since the run started, and fans them out
 * to sinks. A sink that throws (disk full) is dropped and reported, so a trace
 * failure never breaks the run it records.
 */
export class Trace {
  readonly header: TraceHeader | undefined;
  readonly failures: Array<{ sink: TraceSink; error: unknown }> = [];
  private readonly sinks: TraceSink[];
  private readonly t0 = performance.now();

  constructor(opts: { header?: TraceHeaderInput; sinks: TraceSink[] }) {
    this.sinks = [...opts.sinks];
    if (opts.header) {
      const h = opts.header;
      this.header = {
        type: 'header',
        format: TRACE_FORMAT,
        ...h,
        versions: h.versions ?? traceVersions(),
        startedAt: h.startedAt ?? new Date().toISOString(),
      };
      this.emit(this.header);
    }
  }

  /** A trace writing one JSONL file (created with its directory), plus any other sinks. */
  static toFile(path: string, header: TraceHeaderInput, extra: TraceSink[] = []): Trace {
    return new Trace({ header, sinks: [new JsonlSink(path), ...extra] });
  }

  record(event: TraceEvent): TraceRecord {
    const rec = { ...event, t: new Date().toISOString(), elapsedMs: Math.round(performance.now() - this.t0) } as TraceRecord;
    this.emit(rec);
    return rec;
  }

  /** Records several events with one write per sink. */
  recordMany(events: readonly TraceEvent[]): void {
    if (!events.length) return;
    const t = new Date().toISOString();
    const elapsedMs = Math.round(performance.now() - this.t0);
    // Events that come stamped already (history re-written from earlier turns) are kept as they are.
    const recs = events.map((event) =>
      't' in event && 'elapsedMs' in event ? (event as TraceRecord) : ({ ...event, t, elapsedMs } as TraceRecord),
    );
    for (const s of [...this.sinks]) {
      try {
        if (s.writeMany) s.writeMany(recs);
        else for (const r of recs) s.write(r);
      } catch (error) {
        this.failures.push({ sink: s, error });
        this.sinks.splice(this.sinks.indexOf(s), 1);
      }
    }
  }

  close(): void {
    for (const s of this.sinks) {
      try {
        s.close?.();
      } catch (error) {
        this.failures.push({ sink: s, error });
      }
    }
  }

  private emit(line: TraceLine): void {
    for (const s of [...this.sinks]) {
      try {
        s.write(line);
      } catch (error) {
        this.failures.push({ sink: s, error });
        this.sinks.splice(this.sinks.indexOf(s), 1);
      }
    }
  }
}

/** JSON text per record object: records re-written every turn (the history) are serialised once. */
const JSON_TEXT = new WeakMap<object, string>();

function serialised(line: TraceLine): string {
  let text = JSON_TEXT.get(line);
  if (text === undefined) {
    text = JSON.stringify(line);
    if ((line as { prior?: boolean }).prior) JSON_TEXT.set(line, text);
  }
  return text;
}

/** Appends one JSON line per record with a synchronous write, so nothing waits in a buffer. */
export class JsonlSink implements TraceSink {
  private fd: number | undefined;

  constructor(readonly path: string) {
    mkdirSync(dirname(path), { recursive: true });
    this.fd = openSync(path, 'a');
  }

  write(line: TraceLine): void {
    if (this.fd === undefined) throw new Error(`trace ${this.path} is closed`);
    writeSync(this.fd, `${JSON.stringify(line)}\n`);
  }

  writeMany(lines: readonly TraceLine[]): void {
    if (this.fd === undefined) throw new Error(`trace ${this.path} is closed`);
    writeSync(this.fd, lines.map((l) => `${serialised(l)}\n`).join(''));
  }

  close(): void {
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
  }
}

/** Keeps lines in memory and tells listeners (tests, live UIs). */
export class MemorySink implements TraceSink {
  readonly lines: TraceLine[] = [];
  private readonly listeners = new Set<(line: TraceLine) => void>();

  write(line: TraceLine): void {
    this.lines.push(line);
    for (const l of [...this.listeners]) l(line);
  }

  get header(): TraceHeader | undefined {
    const h = this.lines[0];
    return h?.type === 'header' ? h : undefined;
  }

  get records(): TraceRecord[] {
    return this.lines.filter((l): l is TraceRecord => l.type !== 'header');
  }

  subscribe(listener: (line: TraceLine) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}

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

export function readTrace(path: string): ReadTrace {
  return parseTrace(readFileSync(path, 'utf8'), path);
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
