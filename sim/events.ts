// Exogenous events reach the robot through one queue: an operator's emergency
// stop, what a person says, battery thresholds, objects moved by people. Skills
// also post what happened to them (a dropped object). Consumers read the events
// newer than the last id they saw, so several readers can share the queue.
export type SimEventBody =
  | { type: 'estop_pressed' }
  | { type: 'estop_released' }
  | { type: 'person_said'; person: string | undefined; text: string }
  | { type: 'battery_threshold'; level: 'okay' | 'low' | 'critical' | 'empty'; percent: number }
  | { type: 'object_moved'; object: string; by: string | undefined; to: [number, number, number] }
  | { type: 'object_dropped'; object: string; reason: string }
  /** The world guard caught a body the physics mishandled (see sim/world/guard.ts). */
  | { type: 'physics_fault'; object: string; reason: string }
  | { type: 'docked' }
  | { type: 'undocked' };

export type SimEvent = SimEventBody & { id: number; time: number };

export class EventQueue {
  private readonly events: SimEvent[] = [];
  private nextId = 1;
  private readonly listeners = new Set<(e: SimEvent) => void>();

  post(body: SimEventBody, time: number): SimEvent {
    const e = { ...body, id: this.nextId++, time } as SimEvent;
    this.events.push(e);
    // Keep memory bounded on long runs; readers keep their own cursors.
    if (this.events.length > 2000) this.events.splice(0, this.events.length - 2000);
    for (const l of this.listeners) l(e);
    return e;
  }

  since(lastId: number): SimEvent[] {
    return this.events.filter((e) => e.id > lastId);
  }

  get lastId(): number {
    return this.nextId - 1;
  }

  all(): readonly SimEvent[] {
    return this.events;
  }

  onEvent(listener: (e: SimEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  snapshot(): { events: SimEvent[]; nextId: number } {
    return { events: this.events.map((e) => ({ ...e })), nextId: this.nextId };
  }

  restore(s: { events: SimEvent[]; nextId: number }): void {
    this.events.splice(0, this.events.length, ...s.events.map((e) => ({ ...e })));
    this.nextId = s.nextId;
  }
}

export function describeEvent(e: SimEvent): string {
  const t = `t=${e.time.toFixed(1)}s`;
  switch (e.type) {
    case 'estop_pressed':
      return `${t} emergency stop pressed: the robot cannot move until it is released`;
    case 'estop_released':
      return `${t} emergency stop released`;
    case 'person_said':
      return `${t} ${e.person ?? 'a person'} said: "${e.text}"`;
    case 'battery_threshold':
      return `${t} battery is ${e.level} (${e.percent.toFixed(0)}%)`;
    case 'object_moved':
      return `${t} ${e.by ?? 'a person'} moved ${e.object}`;
    case 'object_dropped':
      return `${t} ${e.object} dropped: ${e.reason}`;
    case 'physics_fault':
      return `${t} ${e.object}: ${e.reason}`;
    case 'docked':
      return `${t} docked at the charging station`;
    case 'undocked':
      return `${t} undocked`;
  }
}
