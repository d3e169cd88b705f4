// The simulator's wall clock: in the app the world runs in wall time so a person
// sees motion while skills run. A host calls `tick()` at its frame rate; the
// clock steps physics by the wall time since the last tick (scaled by `speed`,
// capped so a stalled thread catches up without a spiral) and wakes skills that
// wait for it. Headless runs never create one: skills step as fast as they can.
import type { SimWorld } from './sim-world';

/** Max simulated time one tick may advance. */
export const MAX_CATCH_UP_S = 0.1;

export class PacedClock {
  speed = 1;
  /** Paused by a person: time stands still (skills wait) until resumed or stepped by hand. */
  held = false;
  private last: number | undefined;
  private carry = 0;

  constructor(private readonly sim: SimWorld) {
    sim.paced = true;
  }

  /** Steps the world up to wall time `nowMs` (performance.now()); returns the steps taken. */
  tick(nowMs: number): number {
    const sim = this.sim;
    if (this.last === undefined || this.held) {
      // Resuming does not catch up on the time spent paused.
      this.last = nowMs;
      if (this.held) return 0;
    }
    let due = ((nowMs - this.last) / 1000) * this.speed + this.carry;
    if (due > MAX_CATCH_UP_S * this.speed) due = MAX_CATCH_UP_S * this.speed;
    const steps = Math.max(0, Math.floor(due / sim.dt));
    this.carry = due - steps * sim.dt;
    for (let i = 0; i < steps; i++) sim.step();
    this.last = nowMs;
    sim.notifyTick();
    return steps;
  }

  /** Hands stepping back to the skills (headless). */
  stop(): void {
    this.sim.paced = false;
    this.sim.notifyTick();
  }
}
