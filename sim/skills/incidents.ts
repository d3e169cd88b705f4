// A skill answers for everything that happened while it ran. Before a skill the
// world is read (where every object is, how it stands, the event cursor); after
// it, once the objects have settled, every change the skill did not set out to
// make becomes an incident: an object that fell out of a box, was knocked off a
// table or over, slipped out of the fingers, or that the world guard had to put
// back. The physics decides; the words only name what the poses show.
import { rotate, v3 } from '../math';
import { type Place, locations } from '../world/location';
import type { SimWorld } from '../world/sim-world';
import type { SkillOutcome } from './outcome';

/** Seconds a skill waits, at most, for what it set moving to come to rest. */
export const SETTLE_SECONDS = 1.5;
/** An object whose up axis turned more than this (cos of ~60°) has been knocked over. */
const TIPPED = 0.5;

interface Before {
  events: number;
  places: ReadonlyMap<string, Place>;
  up: Map<string, number>;
}

function upOf(sim: SimWorld, id: string): { x: number; y: number; z: number } {
  return rotate(sim.pose(id).q, v3(0, 1, 0));
}

function look(sim: SimWorld): Before {
  const up = new Map<string, number>();
  for (const e of sim.entities.values()) if (!e.fixed) up.set(e.id, upOf(sim, e.id).y);
  return { events: sim.events.lastId, places: new Map(locations(sim)), up };
}

export function describePlace(p: Place | undefined): string {
  if (!p) return 'somewhere unknown';
  switch (p.kind) {
    case 'held':
      return 'in the hand';
    case 'handed':
      return `with ${p.person}`;
    case 'in':
      return `in ${p.id}`;
    case 'on':
      return `on ${p.id}`;
    case 'floor':
      return 'on the floor';
  }
}

const same = (a: Place | undefined, b: Place | undefined): boolean =>
  a?.kind === b?.kind &&
  (a && 'id' in a ? a.id : a && 'person' in a ? a.person : '') === (b && 'id' in b ? b.id : b && 'person' in b ? b.person : '');

/** Waits until nothing but the held object moves (at most SETTLE_SECONDS). */
export async function settle(sim: SimWorld): Promise<void> {
  if (sim.objectsSettled()) return;
  await sim.idle(SETTLE_SECONDS, { until: () => sim.objectsSettled(), ignoreEstop: true });
}

/** What changed since `b` that the skill did not set out to change (`own`: the objects it acts on). */
function incidents(sim: SimWorld, b: Before, own: ReadonlySet<string>): string[] {
  const out = new Map<string, string>();
  const after = locations(sim);
  for (const e of sim.events.since(b.events)) {
    if (e.type === 'physics_fault') out.set(e.object, `${e.object}: ${e.reason}; it is now ${describePlace(after.get(e.object))}`);
    if (e.type === 'object_dropped' && !own.has(e.object) && !out.has(e.object)) {
      out.set(e.object, `${e.object} dropped: ${e.reason}; it is now ${describePlace(after.get(e.object))}`);
    }
  }
  for (const [id, was] of b.places) {
    if (own.has(id) || out.has(id)) continue;
    const now = after.get(id);
    if (!same(was, now)) {
      const where = describePlace(now);
      if (was.kind === 'in') out.set(id, `${id} fell out of ${was.id} and is now ${where}`);
      else if (was.kind === 'on') out.set(id, `${id} was knocked off ${was.id} and is now ${where}`);
      else if (was.kind === 'floor') out.set(id, `${id} was pushed across the floor and is now ${where}`);
      else if (was.kind === 'held') out.set(id, `${id} left the hand and is now ${where}`);
      else out.set(id, `${id} moved and is now ${where}`);
      continue;
    }
    const up0 = b.up.get(id) ?? 1;
    const up1 = upOf(sim, id).y;
    if (now?.kind !== 'held' && up0 > TIPPED && up1 < TIPPED) out.set(id, `${id} was knocked over and lies ${describePlace(now)}`);
  }
  return [...out.values()];
}

const running = new WeakMap<SimWorld, boolean>();

/**
 * Wraps a skill so its outcome accounts for the whole world: the objects the
 * skill acts on (`own`) are its own business; every other change becomes an
 * incident. Nested skills (perceive moving the arm) report once, at the top.
 */
export function tracked<A extends unknown[], Own extends unknown[]>(
  skill: (sim: SimWorld, ...args: A) => Promise<SkillOutcome>,
  // `own` reads a prefix of the skill's arguments (typed apart, so it may take fewer).
  own: (sim: SimWorld, ...args: Own) => Array<string | undefined>,
): (sim: SimWorld, ...args: A) => Promise<SkillOutcome> {
  return async (sim, ...args) => {
    if (running.get(sim)) return skill(sim, ...args);
    running.set(sim, true);
    try {
      const before = look(sim);
      const mine = new Set(own(sim, ...(args as unknown as Own)).filter((x): x is string => Boolean(x)));
      const outcome = await skill(sim, ...args);
      await settle(sim);
      const extra = incidents(sim, before, mine);
      return extra.length ? { ...outcome, incidents: [...(outcome.incidents ?? []), ...extra] } : outcome;
    } finally {
      running.delete(sim);
    }
  };
}
