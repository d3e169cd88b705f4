// The world guard: after each physics step, every awake object is checked
// against what a real object cannot do. A body with a non-finite pose, one
// below the floor or outside the world's bounds, or one moving faster than a
// thrown object is a fault of the simulation, never a plausible outcome. The
// guard puts it back (at rest on the floor, inside the bounds, or slowed to the
// limit) and reports it, so the fault is an incident a skill must account for
// instead of an object that silently vanished.
import type { Aabb, Pose } from '../math';
import { aabbToWorld } from './entity';
import { FLOOR_MARGIN } from './build';
import { type BodyReads, bodyReads } from './body-reads';
import { type BodyMemory, slotOf } from './body-memory';
import type { PhysicsScene } from './physics-scene';

/** Faster than anything thrown or dropped here (a 2 m fall reaches 6.3 m/s), m/s. */
export const MAX_SPEED = 8;
/** Spin faster than this is a solver fault, rad/s (a knocked egg rolls at ~90). */
export const MAX_SPIN = 250;
/** How far below the floor's top a body's box may reach (contact depth), metres. */
export const FLOOR_TOLERANCE = 0.03;
/** Nothing in these scenes stands higher, metres. */
export const CEILING = 6;

export interface WorldBounds {
  min: { x: number; z: number };
  max: { x: number; z: number };
}

export function worldBounds(floorSize: readonly [number, number]): WorldBounds {
  const hx = floorSize[0] / 2 + FLOOR_MARGIN;
  const hz = floorSize[1] / 2 + FLOOR_MARGIN;
  return { min: { x: -hx, z: -hz }, max: { x: hx, z: hz } };
}

export interface GuardFault {
  object: string;
  reason: string;
}

const round2 = (x: number): string => x.toFixed(2);

/** What the guard needs of each movable object, built once per scene (the step runs it every time). */
interface Guarded {
  id: string;
  body: number;
  /** The body's arena slot (body-memory.ts). */
  slot: number;
  /** Farthest corner of its box from the body's origin: the box reaches no lower than y - reach. */
  reach: number;
}

interface GuardedSet {
  size: number;
  list: Guarded[];
  byBody: Map<number, Guarded>;
  /** Objects awake after the last step: picks how the next one finds the awake ones. */
  awake: number;
  /** Counts guard runs: picks the body whose direct read is checked against the API. */
  turn: number;
  /** Scratch for the awake objects of one step. */
  found: Guarded[];
  /** The same for the reads from memory, as long as the list and filled by index (setting an array's length is a runtime call). */
  awakeNow: Guarded[];
  /** Rapier's active-body callback, made once: takes a bare handle (no body wrapper per awake body). */
  visit: (handle: number) => void;
}

const guardedOf = new WeakMap<PhysicsScene['entities'], GuardedSet>();

/** The last scene's set: the step asks for the same one every time. */
let last: { entities: PhysicsScene['entities']; set: GuardedSet } | undefined;

function guarded(scene: PhysicsScene): GuardedSet {
  if (last && last.entities === scene.entities && last.set.size === scene.entities.size) return last.set;
  const set = guardedSet(scene);
  last = { entities: scene.entities, set };
  return set;
}

function guardedSet(scene: PhysicsScene): GuardedSet {
  const cached = guardedOf.get(scene.entities);
  if (cached && cached.size === scene.entities.size) return cached;
  const list: Guarded[] = [];
  for (const e of scene.entities.values()) {
    if (e.fixed) continue;
    const { min, max } = e.localAabb;
    const far = (a: number, b: number) => Math.max(Math.abs(a), Math.abs(b));
    list.push({ id: e.id, body: e.body, slot: slotOf(e.body), reach: Math.hypot(far(min.x, max.x), far(min.y, max.y), far(min.z, max.z)) });
  }
  const byBody = new Map(list.map((g) => [g.body, g]));
  const found: Guarded[] = [];
  const visit = (handle: number): void => {
    const g = byBody.get(handle);
    if (g) found.push(g);
  };
  const awakeNow = [...list];
  const set: GuardedSet = { size: scene.entities.size, list, byBody, awake: list.length, turn: 0, found, awakeNow, visit };
  guardedOf.set(scene.entities, set);
  return set;
}

/**
 * The awake objects, into `set.found`, through the API. Two exact ways: a sleep
 * test per object (one cheap call into Rapier each), or Rapier's active-body
 * callback (one call back per awake body, of any kind, with its bare handle).
 * Most scenes rest most of the time, where the callback is cheaper; a busy
 * scene takes the tests.
 */
function findAwake(scene: PhysicsScene, set: GuardedSet, read: BodyReads): Guarded[] {
  const found = set.found;
  found.length = 0;
  if (6 * set.awake + 8 < set.list.length) {
    scene.world.islands.forEachActiveRigidBodyHandle(set.visit);
  } else {
    for (let i = 0; i < set.list.length; i++) if (!read.sleeping(set.list[i]!.body)) found.push(set.list[i]!);
  }
  set.awake = found.length;
  return found;
}

/** One body's numbers for the guard's test: translation, linear and angular velocity. */
type State = ArrayLike<number>;

const MAX_SPEED2 = MAX_SPEED * MAX_SPEED;
const MAX_SPIN2 = MAX_SPIN * MAX_SPIN;

/**
 * Checks the awake dynamic bodies of the scene's objects (not the held one,
 * which the grasp drives), fixes what is impossible and says what it fixed.
 * It runs after every step, so the common case is kept cheap. Where Rapier's
 * memory layout is known (body-memory.ts), one pass over the objects' sleeping
 * flags finds the awake ones, and each one's position and both velocities are
 * read straight from memory: no call into Rapier, no allocation. Otherwise the
 * awake objects are found through the API (findAwake) and read without
 * allocating (body-reads.ts). Those reads decide most cases alone; the exact box
 * (which needs the rotation) is read only when the body is near enough the floor
 * or the ceiling for its box to cross them. A non-finite rotation shows in the
 * angular velocity it comes from.
 */
export function guardWorld(scene: PhysicsScene, bounds: WorldBounds, held: string | undefined): GuardFault[] {
  const faults: GuardFault[] = [];
  const read = bodyReads(scene.world);
  const set = guarded(scene);
  if (!set.list.length) return faults;
  const m = read.run();
  const n = m && m.sleepB >= 0 ? awakeInMemory(set, m, read) : -1;
  if (!m || n < 0) {
    for (const g of findAwake(scene, set, read)) viaApi(scene, bounds, held, g, read, faults);
    return faults;
  }
  const awake = set.awakeNow;
  let f = m.floats;
  let base = m.base;
  const stride = m.strideF;
  for (let i = 0; i < n; i++) {
    const g = awake[i]!;
    // Translation, linear and angular velocity, copied out of Rapier's memory for the test.
    const r = scratch;
    const e = base + g.slot * stride;
    const t = e + m.tF;
    const v = e + m.vF;
    const w = e + m.wF;
    r[0] = f[t]!;
    r[1] = f[t + 1]!;
    r[2] = f[t + 2]!;
    r[3] = f[v]!;
    r[4] = f[v + 1]!;
    r[5] = f[v + 2]!;
    r[6] = f[w]!;
    r[7] = f[w + 1]!;
    r[8] = f[w + 2]!;
    if (fine(g, r, bounds, held)) continue;
    const before = faults.length;
    inspect(scene, bounds, held, g, r, faults);
    // A body fixed through the API: read the arena's place (and the memory) again.
    if (faults.length !== before) {
      if (!m.open()) {
        for (let k = i + 1; k < n; k++) viaApi(scene, bounds, held, awake[k]!, read, faults);
        return faults;
      }
      f = m.floats;
      base = m.base;
    }
  }
  return faults;
}

/**
 * The awake objects by their sleeping flags in Rapier's memory, into
 * `set.awakeNow`; returns how many, or -1 when the direct reads must not be
 * trusted (then the API finds them). Each run spot-checks one body against the
 * API first: an awake one in full (what the guard reads of it and its flag),
 * or, when every object rests, one flag.
 */
function awakeInMemory(set: GuardedSet, m: BodyMemory, read: BodyReads): number {
  const { list, awakeNow } = set;
  const u8 = m.bytes;
  const { base, slots, strideF, sleepB } = m;
  let n = 0;
  for (let i = 0; i < list.length; i++) {
    const g = list[i]!;
    // A slot past the arena as read cannot happen while the handles are this world's: the API decides.
    if (g.slot >= slots) return -1;
    if (u8[(base + g.slot * strideF) * 4 + sleepB] !== 1) awakeNow[n++] = g;
  }
  set.awake = n;
  const turn = set.turn++;
  const ok = n ? read.check(awakeNow[turn % n]!.body, 'state') : read.checkSleeping(list[turn % list.length]!.body);
  return ok ? n : -1;
}

/** One awake object checked through the API: its state read without allocating, tested, looked at further if not fine. */
function viaApi(
  scene: PhysicsScene,
  bounds: WorldBounds,
  held: string | undefined,
  g: Guarded,
  read: BodyReads,
  faults: GuardFault[],
): void {
  const r = read.state(g.body);
  if (!fine(g, r, bounds, held)) inspect(scene, bounds, held, g, r, faults);
}

/** Scratch for one body's state read from memory. */
const scratch = new Float32Array(9);

/** Nothing the guard must look at further: inside the room, above the floor, below the ceiling, not too fast. */
function fine(g: Guarded, r: State, bounds: WorldBounds, held: string | undefined): boolean {
  const tx = r[0]!;
  const ty = r[1]!;
  const tz = r[2]!;
  const speed2 = r[3]! * r[3]! + r[4]! * r[4]! + r[5]! * r[5]!;
  const spin2 = r[6]! * r[6]! + r[7]! * r[7]! + r[8]! * r[8]!;
  return (
    ty - g.reach >= -FLOOR_TOLERANCE &&
    ty + g.reach <= CEILING &&
    tx >= bounds.min.x &&
    tx <= bounds.max.x &&
    tz >= bounds.min.z &&
    tz <= bounds.max.z &&
    ((speed2 <= MAX_SPEED2 && spin2 <= MAX_SPIN2) || (g.id === held && Number.isFinite(speed2 + spin2)))
  );
}

/** The long way for a body the quick test did not pass: what is wrong with it, fixed and reported. */
function inspect(scene: PhysicsScene, bounds: WorldBounds, held: string | undefined, g: Guarded, r: State, faults: GuardFault[]): void {
  const h = g.body;
  const id = g.id;
  const tx = r[0]!;
  const ty = r[1]!;
  const tz = r[2]!;
  const vx = r[3]!;
  const vy = r[4]!;
  const vz = r[5]!;
  const wx = r[6]!;
  const wy = r[7]!;
  const wz = r[8]!;
  const speed2 = vx * vx + vy * vy + vz * vz;
  const spin2 = wx * wx + wy * wy + wz * wz;
  // Only dynamic bodies are the physics' to get wrong (a handed-over object is kinematic).
  if (!bodyReads(scene.world).dynamic(h)) return;
  // NaN fails every comparison, so a sum that is not finite catches any non-finite part.
  if (!Number.isFinite(tx + ty + tz + vx + vy + vz + wx + wy + wz)) {
    faults.push({ object: id, reason: settle(scene, id, bounds, 'its pose became undefined in the physics') });
    return;
  }
  if (ty - g.reach < -FLOOR_TOLERANCE || ty + g.reach > CEILING) {
    const b = scene.world.getRigidBody(h);
    const q = b.rotation();
    if (!Number.isFinite(q.x + q.y + q.z + q.w)) {
      faults.push({ object: id, reason: settle(scene, id, bounds, 'its pose became undefined in the physics') });
      return;
    }
    const box = aabbToWorld(scene.entity(id).localAabb, { p: { x: tx, y: ty, z: tz }, q });
    if (box.min.y < -FLOOR_TOLERANCE || box.min.y > CEILING) {
      faults.push({ object: id, reason: settle(scene, id, bounds, `it was pushed through the floor (to y = ${round2(box.min.y)} m)`) });
      return;
    }
  }
  if (tx < bounds.min.x || tx > bounds.max.x || tz < bounds.min.z || tz > bounds.max.z) {
    faults.push({ object: id, reason: settle(scene, id, bounds, `it left the room (at x = ${round2(tx)}, z = ${round2(tz)} m)`) });
    return;
  }
  if (id !== held && (speed2 > MAX_SPEED2 || spin2 > MAX_SPIN2)) {
    const b = scene.world.getRigidBody(h);
    const speed = Math.sqrt(speed2);
    const spin = Math.sqrt(spin2);
    if (speed > MAX_SPEED) b.setLinvel({ x: (vx * MAX_SPEED) / speed, y: (vy * MAX_SPEED) / speed, z: (vz * MAX_SPEED) / speed }, true);
    if (spin > MAX_SPIN) b.setAngvel({ x: (wx * MAX_SPIN) / spin, y: (wy * MAX_SPIN) / spin, z: (wz * MAX_SPIN) / spin }, true);
    faults.push({
      object: id,
      reason: `the physics flung it (${round2(speed)} m/s, ${round2(spin)} rad/s); a simulator fault: it was slowed to ${MAX_SPEED} m/s`,
    });
  }
}

/** Puts a faulty body at rest on the floor, upright, at the nearest point inside the bounds. */
function settle(scene: PhysicsScene, id: string, bounds: WorldBounds, what: string): string {
  const e = scene.entity(id);
  const b = scene.world.getRigidBody(e.body);
  const t = b.translation();
  const clampTo = (x: number, lo: number, hi: number): number => (Number.isFinite(x) ? Math.min(hi - 0.3, Math.max(lo + 0.3, x)) : 0);
  const x = clampTo(t.x, bounds.min.x, bounds.max.x);
  const z = clampTo(t.z, bounds.min.z, bounds.max.z);
  const upright: Pose = { p: { x, y: 0, z }, q: { x: 0, y: 0, z: 0, w: 1 } };
  const local: Aabb = e.localAabb;
  const y = -local.min.y + 0.002;
  b.setTranslation({ x, y, z }, true);
  b.setRotation(upright.q, true);
  b.setLinvel({ x: 0, y: 0, z: 0 }, true);
  b.setAngvel({ x: 0, y: 0, z: 0 }, true);
  return `${what}; a simulator fault: it was put back on the floor at (${round2(x)}, ${round2(z)})`;
}
