// The run trace: every message, tool call, argument, result, warning, approval,
// stop and timing, appended as it happens. One JSONL file per run: a header line,
// then one record per line, each written synchronously so a crash (or a killed
// process) keeps everything up to the last event. The UI, the benchmarks and
// replay all read the same records.
import { closeSync, mkdirSync, writeFileSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import pkg from '../../package.json' with { type: 'json' };
import { openAppend, openTraceFile } from './trace-files';
import { TRACE_FORMAT, type TraceEvent, type TraceHeader, type TraceLine, type TraceRecord } from './trace-schema';

export * from './trace-schema';
export * from './trace-read';

/** Where stamped lines go: a JSONL file, memory, a UI stream. */
export interface TraceSink {
  write(line: TraceLine): void;
  /** Keeps a file that goes with the trace (a picture); returns where, relative to the trace's folder. */
  attach?(name: string, bytes: Buffer): string;
  /** Several lines at once (the history at the start of a run), `lines` then `after`: one syscall instead of many. Neither array may be kept. */
  writeMany?(lines: readonly TraceLine[], after?: readonly TraceLine[]): void;
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
 * to sinks. A sink that throws (disk full) is dropped and reported to `onFailure`
 * once: the run it records decides what follows (a conversation stops the run:
 * nothing may happen that the trace says nothing of).
 */
export class Trace {
  readonly header: TraceHeader | undefined;
  readonly failures: Array<{ sink: TraceSink; error: unknown }> = [];
  /** Replaced, never changed in place, so a write can go through the list without copying it. */
  private sinks: readonly TraceSink[];
  private readonly t0 = performance.now();

  private readonly onFailure: ((error: unknown) => void) | undefined;

  constructor(opts: { header?: TraceHeaderInput; sinks: TraceSink[]; onFailure?: (error: unknown) => void }) {
    this.sinks = [...opts.sinks];
    this.onFailure = opts.onFailure;
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

  /**
   * Records several events with one write per sink, after `stamped`: records
   * stamped already (a history's earlier messages, written as they are). Neither
   * array is kept, so a caller may pass a list it keeps growing.
   */
  recordMany(events: readonly TraceEvent[], stamped: readonly TraceRecord[] = []): void {
    if (!events.length && !stamped.length) return;
    const t = new Date().toISOString();
    const elapsedMs = Math.round(performance.now() - this.t0);
    const recs: TraceRecord[] = [];
    for (const event of events)
      recs.push('t' in event && 'elapsedMs' in event ? (event as TraceRecord) : ({ ...event, t, elapsedMs } as TraceRecord));
    for (const s of this.sinks) {
      try {
        if (s.writeMany) s.writeMany(stamped, recs);
        else {
          for (const r of stamped) s.write(r);
          for (const r of recs) s.write(r);
        }
      } catch (error) {
        this.fail(s, error);
      }
    }
  }

  /**
   * Keeps a file beside the trace (a camera picture) and returns its reference:
   * the first sink that keeps files decides it. Undefined when none does (a trace
   * in memory only) or the write failed; the record then says only what it was.
   */
  attach(name: string, bytes: Buffer): string | undefined {
    for (const s of this.sinks) {
      if (!s.attach) continue;
      try {
        return s.attach(name, bytes);
      } catch (error) {
        this.failures.push({ sink: s, error });
        return undefined;
      }
    }
    return undefined;
  }

  private fail(sink: TraceSink, error: unknown): void {
    this.failures.push({ sink, error });
    this.sinks = this.sinks.filter((s) => s !== sink);
    if (this.failures.length === 1) this.onFailure?.(error);
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
    for (const s of this.sinks) {
      try {
        s.write(line);
      } catch (error) {
        this.fail(s, error);
      }
    }
  }
}

/** The longest trace line written; a longer record has its long strings cut (saying how much) until it fits. */
export const MAX_TRACE_LINE_BYTES = 1024 * 1024;

/** One record as one JSON line of at most MAX_TRACE_LINE_BYTES (a tool's 20 MB answer must not make a 20 MB line). */
export function traceLineText(line: TraceLine): string {
  const text = JSON.stringify(line);
  if (text.length <= MAX_TRACE_LINE_BYTES / 4 || Buffer.byteLength(text) <= MAX_TRACE_LINE_BYTES) return text;
  for (let keep = 64 * 1024; keep >= 256; keep = Math.floor(keep / 4)) {
    const cut = JSON.stringify(line, (_k, v: unknown) =>
      typeof v === 'string' && v.length > keep ? `${v.slice(0, keep)}…[cut: ${v.length - keep} more characters]` : v,
    );
    if (Buffer.byteLength(cut) <= MAX_TRACE_LINE_BYTES) return cut;
  }
  return JSON.stringify({ ...('type' in line ? { type: line.type } : {}), cut: `a ${Buffer.byteLength(text)}-byte record left out` });
}

/** Time spent in the trace files' synchronous file system calls (open, write, close), for the benchmarks. */
export const traceIo = { ms: 0, calls: 0 };

function timedIo<T>(f: () => T): T {
  const t = performance.now();
  try {
    return f();
  } finally {
    traceIo.ms += performance.now() - t;
    traceIo.calls++;
  }
}

/**
 * The bytes of a history's leading prior records, kept per history (by its
 * first record) so each turn's trace encodes only what is new: a long
 * conversation re-writes its history every turn, and re-encoding it made a
 * turn's cost grow with the conversation. `ends[i]` is where line i ends.
 */
interface PriorPrefix {
  lines: TraceLine[];
  ends: number[];
  buf: Buffer;
}
const PRIOR_PREFIX = new WeakMap<TraceLine, PriorPrefix>();

const isPrior = (l: TraceLine): boolean => (l as { prior?: boolean }).prior === true;

const linesText = (lines: readonly TraceLine[], from = 0): string => {
  let text = '';
  for (let i = from; i < lines.length; i++) text += `${traceLineText(lines[i]!)}\n`;
  return text;
};

/** `lines` then `after` as bytes: the cached prefix of prior lines, extended by this call's, then the rest. Returns the buffer and the length to write. */
function encodeLines(lines: readonly TraceLine[], after: readonly TraceLine[]): { buf: Buffer; length: number } {
  const first = lines[0];
  if (first === undefined || !isPrior(first)) {
    const b = Buffer.from(linesText(lines) + linesText(after));
    return { buf: b, length: b.length };
  }
  let c = PRIOR_PREFIX.get(first);
  if (!c) PRIOR_PREFIX.set(first, (c = { lines: [], ends: [], buf: Buffer.alloc(64 * 1024) }));
  // Keep the cached lines this history still starts with.
  let keep = 0;
  while (keep < c.lines.length && keep < lines.length && c.lines[keep] === lines[keep]) keep++;
  c.lines.length = keep;
  c.ends.length = keep;
  let at = keep ? c.ends[keep - 1]! : 0;
  const put = (text: string): void => {
    const need = at + Buffer.byteLength(text);
    if (need > c.buf.length) {
      const grown = Buffer.alloc(Math.max(need, c.buf.length * 2));
      c.buf.copy(grown, 0, 0, at);
      c.buf = grown;
    }
    at += c.buf.write(text, at);
  };
  let i = keep;
  for (; i < lines.length && isPrior(lines[i]!); i++) {
    put(`${traceLineText(lines[i]!)}\n`);
    c.lines.push(lines[i]!);
    c.ends.push(at);
  }
  // The rest goes after the prefix for this write only.
  const rest = linesText(lines, i) + linesText(after);
  if (rest) put(rest);
  return { buf: c.buf, length: at };
}

/** Appends one JSON line per record with a synchronous write, so nothing waits in a buffer. */
export class JsonlSink implements TraceSink {
  private fd: number | undefined;

  /** `spare`: one of a series of files in one folder (a conversation's turns), opened by renaming a file made ahead (trace-files.ts). */
  constructor(
    readonly path: string,
    opts: { spare?: boolean } = {},
  ) {
    this.fd = timedIo(() => (opts.spare ? openTraceFile(path) : openAppend(path)));
  }

  write(line: TraceLine): void {
    const fd = this.fd;
    if (fd === undefined) throw new Error(`trace ${this.path} is closed`);
    const text = `${traceLineText(line)}\n`;
    timedIo(() => writeSync(fd, text));
  }

  writeMany(lines: readonly TraceLine[], after: readonly TraceLine[] = []): void {
    if (this.fd === undefined) throw new Error(`trace ${this.path} is closed`);
    const fd = this.fd;
    const { buf, length } = encodeLines(lines, after);
    timedIo(() => {
      for (let off = 0; off < length;) off += writeSync(fd, buf, off, length - off);
    });
  }

  close(): void {
    const fd = this.fd;
    if (fd !== undefined) timedIo(() => closeSync(fd));
    this.fd = undefined;
  }

  /** Into `<trace name>.files/` beside the trace file; the name is made safe for any file system. */
  attach(name: string, bytes: Buffer): string {
    const folder = `${basename(this.path).replace(/\.jsonl$/, '')}.files`;
    const safe = name.replace(/[^\w.-]/g, '_').slice(0, 120);
    mkdirSync(join(dirname(this.path), folder), { recursive: true });
    writeFileSync(join(dirname(this.path), folder, safe), bytes);
    return `${folder}/${safe}`;
  }
}

/** Keeps lines in memory and tells listeners (tests, live UIs). */
export class MemorySink implements TraceSink {
  readonly lines: TraceLine[] = [];
  /** Files attached to the trace, by reference (as a file sink would name them). */
  readonly files = new Map<string, Buffer>();
  private readonly listeners = new Set<(line: TraceLine) => void>();

  write(line: TraceLine): void {
    this.lines.push(line);
    for (const l of [...this.listeners]) l(line);
  }

  attach(name: string, bytes: Buffer): string {
    const ref = `memory/${name}`;
    this.files.set(ref, bytes);
    return ref;
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
