// The one place that decides, while a motion job runs, that it must stop: kept
// apart from the job's requests (./skill-jobs.ts), which only obey its signal.
import type { SafetyMonitor } from './safety-monitor';

/**
 * The watch over a motion job in flight: each control period it judges the last
 * reading (a reading ages between answers, so one that goes stale stops the job
 * within a period) and asks for a new one; every change of the monitor (an
 * answer, a press on the stream, the stream dropping) is judged at once.
 */
export class MotionWatch {
  private readonly ctl = new AbortController();
  private readonly timer: ReturnType<typeof setInterval>;
  private readonly off: () => void;
  private reading = false;
  tripped: { why: string; pressed: boolean } | undefined;

  constructor(
    private readonly monitor: SafetyMonitor,
    periodMs: number,
    readTimeoutMs: () => number,
  ) {
    this.off = monitor.onChange(() => this.judge());
    this.timer = setInterval(() => {
      this.judge();
      if (this.tripped || this.reading) return;
      this.reading = true;
      void monitor.read(readTimeoutMs()).finally(() => (this.reading = false));
    }, periodMs);
    this.judge();
  }

  get signal(): AbortSignal {
    return this.ctl.signal;
  }

  private judge(): void {
    if (this.tripped) return;
    const b = this.monitor.block();
    if (!b) return;
    this.tripped = b;
    this.stop();
    this.ctl.abort();
  }

  stop(): void {
    clearInterval(this.timer);
    this.off();
  }
}
