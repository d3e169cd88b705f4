// The run trace: every message, tool call, argument, result, warning, approval,
// stop and timing, appended as it happens. One JSONL file per run: a header line,
// then one record per line, each written synchronously so a crash (or a killed
// process) keeps everything up to the last event. The UI, the benchmarks and
// replay all read the same records.
import { closeSync, mkdirSync, openSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import pkg from '../../package.json' with { type: 'json' };
import { TRACE_FORMAT, type TraceEvent, type TraceHeader, type TraceLine, type TraceRecord } from './trace-schema';

export * from './trace-schema';
export * from './trace-read';

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
