// A skill answers for everything that happened while it ran. Before a skill the
// world is read (where every object is, how it stands, the event cursor); after
// it, once the objects have settled, every change the skill did not set out to
// make becomes an incident: an object that fell out of a box, was knocked off a
// table or over, slipped out of the fingers, or that the world guard had to put
// back. The physics decides; the words only name what the poses show.
import { type Vec3, dist, rotate, v3 } from '../math';
import { isKnown } from '../perception/believed';
import { look, record } from '../perception/observe';
import { visibleEntityIds } from '../perception/visibility';
import { locationOf, locations } from '../world/location';
import { type Place, describePlace, samePlace } from '../world/place';
import { slipReason } from '../body/grasp';
import type { SimWorld } from '../world/sim-world';
import { type Claim, type SkillOutcome, failure } from './outcome';
import { robotStillBears } from './robot-load';

/** Seconds a skill waits, at most, for what it set moving to come to rest. */
export const SETTLE_SECONDS = 1.5;
/** A perceived object pushed farther than this (metres) while staying where it was has been shoved: said, with how far. */
export const SHOVE = 0.02;
/** An object whose up axis turned more than this (cos of ~60°) has been knocked over. */
const TIPPED = 0.5;

interface Before {
  /** Objects the robot knew when the skill started (looking afterwards may forget one that left its spot). */
  known: Set<string>;
  events: number;
  places: ReadonlyMap<string, Place>;
  up: Map<string, number>;
  /** Where each movable object's body was. */
  pos: Map<string, Vec3>;
  /** Movable objects already moving (faster than 1 cm/s): how far they go on is not the skill's doing. */
  moving: Set<string>;
}

function upOf(sim: SimWorld, id: string): { x: number; y: number; z: number } {
  return rotate(sim.pose(id).q, v3(0, 1, 0));
}

function readWorld(sim: SimWorld): Before {
  const up = new Map<string, number>();
  const pos = new Map<string, Vec3>();
  const moving = new Set<string>();
  for (const e of sim.entities.values())
    if (!e.fixed) {
      up.set(e.id, upOf(sim, e.id).y);
      pos.set(e.id, sim.pose(e.id).p);
      const v = sim.world.getRigidBody(e.body).linvel();
      if (Math.hypot(v.x, v.y, v.z) > 0.01) moving.add(e.id);
    }
  const known = new Set([...sim.belief.objects.keys()]);
  return { known, events: sim.events.lastId, places: new Map(locations(sim)), up, pos, moving };
}

export { describePlace };

/** Who moved an object, as the robot may say it: a person it has seen by what it calls them (a handle until recognised), anyone else as "a person". */
function moverName(sim: SimWorld, by: string | undefined): string {
  const person = by ? [...sim.people.values()].find((p) => p.spec.id === by || p.spec.name === by) : undefined;
  return (person && sim.belief.people.get(person.spec.id)?.handle) ?? 'a person';
}

/**
 * How an object left where it was (the support named only if the robot knows it).
 * `bears`: the robot part that still bears part of it (it left the robot only partly).
 */
function whatHappened(was: Place, now: Place | undefined, knows: (id: string) => boolean, bears?: string): string {
  // Onto the robot: it did not fall, the robot's own body took it up.
  if (now?.kind === 'robot' && was.kind !== 'robot') {
    const from = was.kind === 'in' || was.kind === 'on' ? (knows(was.id) ? was.id : 'something it had not perceived') : undefined;
    return from ? `came off ${from} onto the robot` : 'came to rest on the robot';
  }
  switch (was.kind) {
    case 'in':
      return `fell out of ${knows(was.id) ? was.id : 'something it had not perceived'}`;
    case 'on':
      return `was knocked off ${knows(was.id) ? was.id : 'something it had not perceived'}`;
    case 'floor':
      return 'was pushed across the floor';
    case 'held':
      return 'left the hand';
    case 'robot':
      // The robot feels the load on its links: still leaning on one, it did not fall off.
      return bears
        ? `slid partly off the robot's ${was.part}; the robot still bears some of its weight`
        : `fell off the robot's ${was.part}`;
    case 'handed':
      return 'moved';
    case 'moving':
      return 'came to rest';
  }
}

/**
 * Where an object is now, as far as the robot can tell: seen (the belief is
 * updated), in the hand, or out of sight (the belief forgets where it was).
 */
export function noteWhereItIs(sim: SimWorld, id: string, opts: { fromHand?: boolean } = {}): string {
  const p = locationOf(sim, id);
  if (p.kind === 'held') return 'in the hand';
  if (p.kind === 'handed') return `with ${sim.belief.people.get(p.person)?.handle ?? 'a person'}`;
  // The robot feels what rests on its own body (the links' load), seen or not.
  if (p.kind === 'robot') {
    record(sim, id, 'placed');
    return `now ${describePlace(p)}`;
  }
  if (visibleEntityIds(sim).includes(id)) return `now ${describePlace(record(sim, id, 'seen').place)}`;
  // Just let go of by the robot's own hand and still at the fingers: it knows where it left it.
  const tcp = sim.tcp()?.p;
  const box = sim.aabb(id);
  const gap =
    tcp &&
    Math.hypot(
      Math.max(0, box.min.x - tcp.x, tcp.x - box.max.x),
      Math.max(0, box.min.y - tcp.y, tcp.y - box.max.y),
      Math.max(0, box.min.z - tcp.z, tcp.z - box.max.z),
    );
  if (opts.fromHand && gap !== undefined && gap < 0.08) return `now ${describePlace(record(sim, id, 'placed').place)}`;
  sim.belief.forget(id);
  return 'out of sight now';
}

/** Waits until nothing but the held object moves (at most SETTLE_SECONDS). */
export async function settle(sim: SimWorld): Promise<void> {
  if (sim.objectsSettled()) return;
  await sim.idle(SETTLE_SECONDS, { until: () => sim.objectsSettled(), ignoreEstop: true });
}

/**
 * What changed since `b` that the skill did not set out to change (`own`: the
 * objects it acts on). Objects the robot knows are named; one it never
 * perceived is "an object the robot had not perceived" (it cannot name it).
 */
function incidents(sim: SimWorld, b: Before, own: ReadonlySet<string>, said: string): string[] {
  // The robot knows what it holds; then it looks (a head camera) at the aftermath.
  const held = sim.heldId();
  if (held) record(sim, held, 'held');
  look(sim);
  const out = new Map<string, string>();
  // Perceived once is known by name, even where the robot lost track of it (dropped out of sight).
  const knows = (id: string): boolean => b.known.has(id) || isKnown(sim, id) || sim.belief.everKnew(id);
  const name = (id: string): string => (knows(id) ? id : 'an object the robot had not perceived');
  const where = (id: string): string => (knows(id) ? `it is ${noteWhereItIs(sim, id)}` : 'where it is now is not known');
  for (const e of sim.events.since(b.events)) {
    if (e.type === 'physics_fault') out.set(e.object, `${name(e.object)}: ${e.reason}; ${where(e.object)}`);
    if (e.type === 'object_dropped' && !own.has(e.object) && !out.has(e.object)) {
      out.set(e.object, `${name(e.object)} dropped: ${e.reason}; ${where(e.object)}`);
    }
  }
  // A person who moved an object did so on purpose: that is said as such, never as an accident.
  const byPerson = new Map<string, string>();
  for (const e of sim.events.since(b.events)) if (e.type === 'object_moved') byPerson.set(e.object, moverName(sim, e.by));
  const after = locations(sim);
  for (const [id, was] of b.places) {
    if (out.has(id)) continue;
    const now = after.get(id);
    if (own.has(id)) {
      // The skill's own object is its outcome's business, except coming to rest on the
      // robot or leaving it (not into the hand), which is said unless the outcome says it.
      const onRobot = (p: Place | undefined): boolean => p?.kind === 'robot';
      if (onRobot(was) !== onRobot(now) && now?.kind !== 'held' && !/on the robot/.test(said)) {
        const change = onRobot(was) ? whatHappened(was, now, knows, robotStillBears(sim, id)) : 'came to rest on the robot';
        out.set(id, `${name(id)} ${change}; ${where(id)}`);
      }
      continue;
    }
    const mover = byPerson.get(id);
    if (mover !== undefined) {
      if (!samePlace(was, now)) out.set(id, `${name(id)} was moved by ${mover}; ${where(id)}`);
      continue;
    }
    if (!samePlace(was, now)) {
      out.set(id, `${name(id)} ${whatHappened(was, now, knows, robotStillBears(sim, id))}; ${where(id)}`);
      continue;
    }
    const up0 = b.up.get(id) ?? 1;
    const up1 = upOf(sim, id).y;
    if (now?.kind !== 'held' && hasUpright(sim, id) && up0 > TIPPED && up1 < TIPPED) {
      out.set(id, `${name(id)} was knocked over; ${where(id)}`);
      continue;
    }
    // Shoved along where it stands: a perceived object is no longer where the robot saw it (a pick there would miss).
    const was0 = b.pos.get(id);
    const shoved = was0 ? dist(was0, sim.pose(id).p) : 0;
    if (shoved > SHOVE && knows(id) && !carriedAlong(id, b.places, own)) {
      const on =
        was.kind === 'on' || was.kind === 'in'
          ? ` ${was.kind === 'on' ? 'along' : 'within'} ${knows(was.id) ? was.id : 'what it stood on'}`
          : '';
      // Already rolling as the skill began: it went on, nobody pushed it.
      const how = b.moving.has(id) ? 'was already moving and went on' : 'was pushed';
      out.set(id, `${id} ${how} ${Math.round(shoved * 100)} cm${on}; ${where(id)}`);
    }
  }
  return [...out.values()];
}

/** A ball (every solid part a sphere) has no upright: turned, it rolled, it was not knocked over. */
function hasUpright(sim: SimWorld, id: string): boolean {
  return !sim.entity(id).spec.parts.every((p) => p.collider === false || p.shape === 'sphere');
}

/** Does the object ride on or in the skill's own object, the hand or the robot (it moved with them, not shoved)? */
function carriedAlong(id: string, places: ReadonlyMap<string, Place>, own: ReadonlySet<string>): boolean {
  let p = places.get(id);
  for (let i = 0; p && i < 8; i++) {
    if (p.kind === 'held' || p.kind === 'robot' || p.kind === 'handed') return true;
    if (p.kind !== 'in' && p.kind !== 'on') return false;
    if (own.has(p.id)) return true;
    p = places.get(p.id);
  }
  return false;
}

const running = new WeakMap<SimWorld, boolean>();

/**
 * A success whose object was set down but did not stay (it tipped off its
 * support after the skill's own settling), or was lifted but left the fingers
 * while the world settled, is a failure: the claim is checked again once the
 * world has settled.
 */
function recheck(sim: SimWorld, o: SkillOutcome): SkillOutcome {
  if (!o.ok) return o;
  const claims = (o.data?.['claims'] ?? []) as Claim[];
  for (const c of claims) {
    if (c.kind === 'held' && sim.heldId() !== c.object) {
      const slip = sim.lastSlip;
      const why = slip ? slipReason(slip) : 'it slipped from the fingers';
      return failure('slipped', `lifted ${c.object}, but then ${why}; it is ${noteWhereItIs(sim, c.object, { fromHand: true })}`, {
        object: c.object,
      });
    }
    if (c.kind !== 'rests') continue;
    const p = locationOf(sim, c.object);
    if ((p.kind === 'on' || p.kind === 'in') && p.kind === c.relation && p.id === c.support) continue;
    return failure(
      'placement_failed',
      `${c.object} was set ${c.relation === 'in' ? 'into' : 'on'} ${c.support} but did not stay there; it is ${noteWhereItIs(sim, c.object)}`,
      { object: c.object },
    );
  }
  return o;
}

const tellers = new WeakMap<SkillOutcome, (sim: SimWorld) => SkillOutcome>();

/**
 * An outcome that says where an object is (a position, a support, how far from
 * the point asked): told now, and told again by `tracked` once the world has
 * settled, so what it says is read after settling, never what was commanded
 * or seen while the object still rolled. `tell` may run more than once.
 */
export function told(sim: SimWorld, tell: (sim: SimWorld) => SkillOutcome): SkillOutcome {
  const o = tell(sim);
  tellers.set(o, tell);
  return o;
}

/** Seconds more a skill watches its own object come to rest (a fruit set down that rolls on) before it says where it is. */
export const OWN_SETTLE_SECONDS = 6;

/** Is the object moving now (faster than the bounds under which SimWorld.objectsSettled counts a body as still)? */
export function stillMoving(sim: SimWorld, id: string): boolean {
  const e = sim.entities.get(id);
  if (!e || sim.isHeld(id)) return false;
  const b = sim.world.getRigidBody(e.body);
  if (b.isSleeping()) return false;
  const v = b.linvel();
  const w = b.angvel();
  return v.x * v.x + v.y * v.y + v.z * v.z > 1e-4 || w.x * w.x + w.y * w.y + w.z * w.z > 1e-2;
}

/** Waits, at most OWN_SETTLE_SECONDS, until none of the skill's own objects moves. */
async function settleOwn(sim: SimWorld, own: ReadonlySet<string>): Promise<void> {
  const rolling = (): boolean => [...own].some((id) => stillMoving(sim, id));
  if (rolling()) await sim.idle(OWN_SETTLE_SECONDS, { until: () => !rolling(), ignoreEstop: true });
}

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
      const before = readWorld(sim);
      const mine = new Set(own(sim, ...(args as unknown as Own)).filter((x): x is string => Boolean(x)));
      const first = await skill(sim, ...args);
      await settle(sim);
      await settleOwn(sim, mine);
      // Whatever the outcome says of where things are is told from the settled world.
      const tell = tellers.get(first);
      const outcome = recheck(sim, tell ? tell(sim) : first);
      const extra = incidents(sim, before, mine, [outcome.summary, ...(outcome.incidents ?? [])].join(' '));
      // Something moved that the skill did not mean to move: a storage out of view may hold it now.
      if (extra.length) sim.belief.noteMissable();
      return extra.length ? { ...outcome, incidents: [...(outcome.incidents ?? []), ...extra] } : outcome;
    } finally {
      running.delete(sim);
    }
  };
}
