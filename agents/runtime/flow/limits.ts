// How long and how far a flow may go (RAIDER's flow manager, paper 001 §3.2: a
// 20 s limit; paper 000 §III.D: how many calls run per iteration), and the
// wall-clock budget that pauses while a person decides.

export interface FlowLimits {
  /** Wall time for the whole flow; null turns it off. Time waiting for a person's approval does not count. */
  timeLimitMs: number | null;
  /** Model turns per flow. */
  maxIterations: number;
  /** Calls run per model turn; the rest are answered as skipped. 1 = MAYA, more = TORO. */
  maxToolCallsPerIteration: number;
  /** After Stop, how long a running tool may take to confirm it stopped before the flow ends without it. */
  stopGraceMs: number;
  /**
   * The clock the time limit counts on, in ms (default wall time). Evaluation at scale passes a
   * case's own clock, which stands still while the case waits for a machine it shares.
   */
  clock?: () => number;
}

export const DEFAULT_LIMITS: FlowLimits = { timeLimitMs: 20_000, maxIterations: 12, maxToolCallsPerIteration: 1, stopGraceMs: 1_000 };

/** Defaults overlaid with the given limits; an explicit `undefined` keeps the default (null is "off"). */
export function mergeLimits(...parts: Array<Partial<FlowLimits> | undefined>): FlowLimits {
  const out: FlowLimits = { ...DEFAULT_LIMITS };
  for (const p of parts) {
    if (!p) continue;
    if (p.timeLimitMs !== undefined) out.timeLimitMs = p.timeLimitMs;
    if (p.maxIterations !== undefined) out.maxIterations = p.maxIterations;
    if (p.maxToolCallsPerIteration !== undefined) out.maxToolCallsPerIteration = p.maxToolCallsPerIteration;
    if (p.stopGraceMs !== undefined) out.stopGraceMs = p.stopGraceMs;
    if (p.clock !== undefined) out.clock = p.clock;
  }
  return out;
}

const wallClock = () => performance.now();

/**
 * A time budget that can pause while a person decides. It counts on `clock` (wall time by
 * default); a clock that runs slower than wall time (one that stands still while a case waits
 * for a shared machine) makes the timer look again when it fires and wait for the rest.
 */
export class Deadline {
  private used = 0;
  private since: number | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly budgetMs: number | null,
    private readonly expire: () => void,
    private readonly clock: () => number = wallClock,
  ) {}

  resume(): void {
    if (this.budgetMs === null || this.since !== undefined) return;
    this.since = this.clock();
    this.arm(this.budgetMs - this.used);
  }

  pause(): void {
    if (this.since === undefined) return;
    this.used += this.clock() - this.since;
    this.since = undefined;
    clearTimeout(this.timer);
  }

  private arm(leftMs: number): void {
    this.timer = setTimeout(
      () => {
        if (this.since === undefined || this.budgetMs === null) return;
        const left = this.budgetMs - (this.used + this.clock() - this.since);
        if (left <= 0) this.expire();
        else this.arm(Math.max(1, left));
      },
      Math.max(0, leftMs),
    );
  }
}
