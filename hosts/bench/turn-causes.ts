// Why a slow turn was slow, counted per turn of the agent benchmark: the
// garbage collections that ran inside it (minor or major, and their pause), the
// time the trace spent in synchronous file system calls, and whether another
// process took the core (involuntary context switches, and how long the turn
// waited for a core). The p99 is printed beside these counts, and again over
// every turn with the time it waited for a core taken out (no turn left out:
// GC and file calls are ours to fix), so a tail is explained rather than
// averaged away.
import { loadavg } from 'node:os';
import { getHeapSpaceStatistics } from 'node:v8';
import { type PerformanceEntry, PerformanceObserver, constants } from 'node:perf_hooks';
import { traceIo } from '../../agents/runtime/trace';
import { round } from '../../sim/math';
import { involuntarySwitches, runQueueWaitMs } from './preemption';

export interface SlowTurn {
  ms: number;
  gcMs: number;
  gcMajor: boolean;
  traceIoMs: number;
  preempted: boolean;
  /** Time the runtime's part of the turn waited for a core while other processes ran; null where the kernel does not say. */
  queuedMs: number | null;
}

export interface TurnCauses {
  turns: number;
  /** Turns a garbage collection ran in, those with a major (mark-compact) one, and the pause inside turns. */
  gcTurns: number;
  gcMajorTurns: number;
  /** Turns a young-generation collection (scavenge) ran in; the rest of the GC turns are incremental marking steps and weak callbacks. */
  gcMinorTurns: number;
  gcPauseMs: number;
  /** KB the young generation grew by in a turn no GC ran in (median): what the turn allocated, the cause of the GCs. */
  allocKBPerTurn: number;
  /** Process CPU time per turn, model and tool included (median, p99): steadier than wall time on a loaded machine. */
  cpuPerTurnMs: { median: number; p99: number };
  /** Turns during which another process took the core. */
  preemptedTurns: number;
  /** p99 over every turn of its overhead less the time it waited for a core (other processes' share); null where the kernel does not say. */
  ownP99Ms: number | null;
  /** Synchronous trace file calls per turn: p99 and worst, ms. */
  traceIoP99Ms: number;
  traceIoMaxMs: number;
  /** The three slowest turns and what ran in them. */
  slowest: SlowTurn[];
  load: [number, number];
}

interface Gc {
  start: number;
  end: number;
  major: boolean;
  minor: boolean;
}

const pct = (xs: number[], p: number): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? 0;
};

const switches = involuntarySwitches;

/**
 * Bytes in use in the young generation, where a turn's objects are made. Only a scavenge takes
 * them away, and a turn with a GC is left out; the whole heap's figure also falls while the old
 * generation is swept on other threads after a GC that ended before the turn, which made a turn
 * seem to allocate nothing.
 */
const youngUsed = (): number =>
  getHeapSpaceStatistics()
    .filter((s) => s.space_name === 'new_space' || s.space_name === 'new_large_object_space')
    .reduce((sum, s) => sum + s.space_used_size, 0);

const cpuMs = (): number => {
  const c = process.cpuUsage();
  return (c.user + c.system) / 1000;
};

/** Watches turns: `begin()` before one, `end(overheadMs)` after it; `causes()` once every turn is done. */
export class TurnWatch {
  private readonly gcs: Gc[] = [];
  private readonly obs: PerformanceObserver;
  private readonly rows: Array<{
    ms: number;
    t0: number;
    t1: number;
    io: number;
    preempted: boolean;
    heap: number;
    cpu: number;
    queued: number | null;
  }> = [];
  private readonly load0 = loadavg()[0]!;
  private t0 = 0;
  private io0 = 0;
  private sw0 = 0;
  private heap0 = 0;
  private cpu0 = 0;
  private queued0: number | undefined;

  constructor() {
    this.obs = new PerformanceObserver((list) => this.take(list.getEntries()));
    this.obs.observe({ entryTypes: ['gc'] });
  }

  private take(entries: readonly PerformanceEntry[]): void {
    for (const e of entries) {
      const kind = (e as PerformanceEntry & { detail?: { kind?: number } }).detail?.kind ?? 0;
      this.gcs.push({
        start: e.startTime,
        end: e.startTime + e.duration,
        major: kind === constants.NODE_PERFORMANCE_GC_MAJOR,
        minor: kind === constants.NODE_PERFORMANCE_GC_MINOR,
      });
    }
  }

  begin(): void {
    this.heap0 = youngUsed();
    this.cpu0 = cpuMs();
    this.sw0 = switches();
    this.io0 = traceIo.ms;
    this.queued0 = runQueueWaitMs();
    this.t0 = performance.now();
  }

  /** `queuedOutsideMs`: of the turn's waits for a core, those inside the model and the tools (not the overhead's). */
  end(overheadMs: number, queuedOutsideMs = 0): void {
    const t1 = performance.now();
    const q1 = runQueueWaitMs();
    const queued = q1 !== undefined && this.queued0 !== undefined ? Math.max(0, q1 - this.queued0 - queuedOutsideMs) : null;
    const io = traceIo.ms - this.io0;
    const preempted = switches() > this.sw0;
    const cpu = cpuMs() - this.cpu0;
    this.rows.push({ ms: overheadMs, t0: this.t0, t1, io, preempted, heap: youngUsed() - this.heap0, cpu, queued });
  }

  /** Each turn's overhead less the time it waited for a core (never below 0); null where the kernel does not say. */
  ownOverheads(): number[] | null {
    if (this.rows.some((r) => r.queued === null)) return null;
    return this.rows.map((r) => Math.max(0, r.ms - r.queued!));
  }

  /** Waits for the GC entries still queued, then counts. */
  async causes(): Promise<TurnCauses> {
    await new Promise((r) => setTimeout(r, 20));
    this.take(this.obs.takeRecords());
    this.obs.disconnect();
    const rows = this.rows.map((r) => {
      const inside = this.gcs.filter((g) => g.start < r.t1 && g.end > r.t0);
      return {
        ...r,
        gcMs: inside.reduce((s, g) => s + (g.end - g.start), 0),
        gcMajor: inside.some((g) => g.major),
        gcMinor: inside.some((g) => g.minor),
        gc: inside.length > 0,
      };
    });
    const slowest = [...rows]
      .sort((a, b) => b.ms - a.ms)
      .slice(0, 3)
      .map((r) => ({
        ms: round(r.ms, 2),
        gcMs: round(r.gcMs, 2),
        gcMajor: r.gcMajor,
        traceIoMs: round(r.io, 2),
        preempted: r.preempted,
        queuedMs: r.queued === null ? null : round(r.queued, 2),
      }));
    const own = this.ownOverheads();
    return {
      turns: rows.length,
      gcTurns: rows.filter((r) => r.gc).length,
      gcMajorTurns: rows.filter((r) => r.gcMajor).length,
      gcMinorTurns: rows.filter((r) => r.gcMinor).length,
      allocKBPerTurn: round(
        pct(
          rows.filter((r) => !r.gc).map((r) => r.heap),
          50,
        ) / 1024,
        1,
      ),
      cpuPerTurnMs: {
        median: round(
          pct(
            rows.map((r) => r.cpu),
            50,
          ),
          3,
        ),
        p99: round(
          pct(
            rows.map((r) => r.cpu),
            99,
          ),
          3,
        ),
      },
      gcPauseMs: round(
        rows.reduce((s, r) => s + r.gcMs, 0),
        1,
      ),
      preemptedTurns: rows.filter((r) => r.preempted).length,
      ownP99Ms: own === null ? null : round(pct(own, 99), 3),
      traceIoP99Ms: round(
        pct(
          rows.map((r) => r.io),
          99,
        ),
        3,
      ),
      traceIoMaxMs: round(Math.max(0, ...rows.map((r) => r.io)), 3),
      slowest,
      load: [round(this.load0, 2), round(loadavg()[0]!, 2)],
    };
  }
}
