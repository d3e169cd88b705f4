// The goals in flight, each with its guard: a check of the safety state that
// cancels its goal when the state is not green. The seam (./ros-robot.ts) runs
// them on every e-stop and battery message and every change of the link; the
// ticker here runs them on the clock too, since a reading going stale sends no
// message.

/**
 * A goal in flight is checked against the safety state on every e-stop and
 * battery message, on every change of the link, and at least this often (a
 * reading going stale is noticed by the clock, not by a message): it is
 * cancelled within one period of the state turning from green.
 */
export const CONTROL_PERIOD_MS = 100;

export class GoalGuards {
  /** Goals in flight: each checks the safety state and cancels its goal when it is not green. */
  private readonly guards = new Set<() => void>();
  private ticker: ReturnType<typeof setInterval> | undefined;

  /** Checks every goal in flight now (on a message, a link change, and every CONTROL_PERIOD_MS). */
  check(): void {
    for (const g of [...this.guards]) g();
  }

  /** Guards a goal from now (checking it at once) until the returned function is called. */
  add(g: () => void): () => void {
    this.guards.add(g);
    if (!this.ticker) {
      this.ticker = setInterval(() => this.check(), CONTROL_PERIOD_MS);
      this.ticker.unref?.();
    }
    g();
    return () => {
      this.guards.delete(g);
      if (this.guards.size === 0) {
        clearInterval(this.ticker);
        this.ticker = undefined;
      }
    };
  }

  /** Stops the clock (the robot is closed). */
  stop(): void {
    clearInterval(this.ticker);
  }
}
