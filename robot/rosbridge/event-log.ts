// The robot's events (the seam's EventSource) for a robot that sends none of
// its own: what this client saw happen (the link, the e-stop, the battery, a
// goal's progress, rosbridge's errors), numbered and timed from when it opened.
import type { EventSource, RobotEvent } from '../robot';

type Msg = Record<string, unknown>;

const round = (x: number) => Math.round(x * 1000) / 1000;

export class EventLog {
  private readonly log: RobotEvent[] = [];
  private readonly listeners = new Set<(e: RobotEvent) => void>();
  private readonly t0 = performance.now();
  readonly source: EventSource = {
    since: async (id) => this.log.filter((e) => e.id > id),
    lastId: async () => this.log.at(-1)?.id ?? 0,
    subscribe: (l) => {
      this.listeners.add(l);
      return () => this.listeners.delete(l);
    },
  };

  /** Seconds since the robot was opened: its time, and each event's. */
  time(): number {
    return round((performance.now() - this.t0) / 1000);
  }

  post(type: string, text: string, data: Msg): void {
    const e: RobotEvent = { id: (this.log.at(-1)?.id ?? 0) + 1, time: round((performance.now() - this.t0) / 1000), type, text, data };
    this.log.push(e);
    if (this.log.length > 2000) this.log.splice(0, this.log.length - 2000);
    for (const l of [...this.listeners]) l(e);
  }

  /** Forgets every listener (the robot is closed). */
  clear(): void {
    this.listeners.clear();
  }
}
