// The audit's own reading of the world, written apart from the simulator's
// perception: boxes from the Rapier colliders' shapes, containment from the
// centre of mass in the container's frame, support from contact points below
// the centre of mass. Where a reading is on a boundary it says "unsure" rather
// than guess, so the checker never calls a borderline case a lie.
import type { SimWorld } from '../../sim/world/sim-world';

export interface V {
  x: number;
  y: number;
  z: number;
}
export interface Q {
  x: number;
  y: number;
  z: number;
  w: number;
}
export interface Box {
  min: V;
  max: V;
}

export const vec = (x: number, y: number, z: number): V => ({ x, y, z });
export function rot(q: Q, v: V): V {
  const tx = 2 * (q.y * v.z - q.z * v.y);
  const ty = 2 * (q.z * v.x - q.x * v.z);
  const tz = 2 * (q.x * v.y - q.y * v.x);
  return vec(v.x + q.w * tx + (q.y * tz - q.z * ty), v.y + q.w * ty + (q.z * tx - q.x * tz), v.z + q.w * tz + (q.x * ty - q.y * tx));
}
export const conj = (q: Q): Q => ({ x: -q.x, y: -q.y, z: -q.z, w: q.w });
const finite = (...xs: number[]): boolean => xs.every(Number.isFinite);

/** World box of a local half-extent box at a pose. */
export function boxOf(c: V, q: Q, h: V): Box {
  let min = vec(Infinity, Infinity, Infinity);
  let max = vec(-Infinity, -Infinity, -Infinity);
  for (const sx of [-1, 1])
    for (const sy of [-1, 1])
      for (const sz of [-1, 1]) {
        const p = rot(q, vec(sx * h.x, sy * h.y, sz * h.z));
        min = vec(Math.min(min.x, c.x + p.x), Math.min(min.y, c.y + p.y), Math.min(min.z, c.z + p.z));
        max = vec(Math.max(max.x, c.x + p.x), Math.max(max.y, c.y + p.y), Math.max(max.z, c.z + p.z));
      }
  return { min, max };
}

function unite(a: Box | undefined, b: Box): Box {
  if (!a) return b;
  return {
    min: vec(Math.min(a.min.x, b.min.x), Math.min(a.min.y, b.min.y), Math.min(a.min.z, b.min.z)),
    max: vec(Math.max(a.max.x, b.max.x), Math.max(a.max.y, b.max.y), Math.max(a.max.z, b.max.z)),
  };
}

export interface BodyReading {
  id: string;
  fixed: boolean;
  pos: V;
  q: Q;
  com: V;
  box: Box;
  speed: number;
  spin: number;
  finite: boolean;
}

export type Reading =
  | { kind: 'held' }
  | { kind: 'handed'; person: string }
  | { kind: 'in'; id: string }
  | { kind: 'on'; ids: ReadonlySet<string> }
  /**
   * On a boundary the margin cannot settle: `plausible` lists every reading the object's
   * pose admits (in each container it is at the edge of or inside, on what bears it). A claim
   * is judged against all of them: true when it matches one, a lie when it matches none.
   */
  | { kind: 'unsure'; why: string; plausible?: Reading[] };

export interface WorldReading {
  time: number;
  bodies: Map<string, BodyReading>;
  places: Map<string, Reading>;
  /** Movable objects not at rest when read (faster than 1 cm/s or 0.1 rad/s): where they will rest is not settled. */
  moving: ReadonlySet<string>;
  held: string | undefined;
  tcp: V | undefined;
  base: { pos: V; yaw: number };
  joints: number[] | undefined;
  estop: boolean;
  docked: boolean;
  batteryPercent: number;
  batteryLevel: string;
  /** When something still moved as the call returned: the reading then (this one is where it came to rest). */
  atEnd?: WorldReading;
}

/** Rapier's shape types for the shapes scenes build. */
const BALL = 0;
const CAPSULE = 2;
const CYLINDER = 10;

export function halfExtents(shape: unknown): V | undefined {
  const s = shape as { type?: number; halfExtents?: V; radius?: number; halfHeight?: number };
  if (s.halfExtents) return s.halfExtents;
  if (s.radius !== undefined && s.halfHeight !== undefined) {
    // A capsule's caps add its radius to the length; a cylinder's do not.
    if (s.type === CAPSULE) return vec(s.radius, s.halfHeight + s.radius, s.radius);
    if (s.type === CYLINDER) return vec(s.radius, s.halfHeight, s.radius);
    return undefined;
  }
  if (s.radius !== undefined) return vec(s.radius, s.radius, s.radius);
  return undefined;
}

/** Quaternion product a·b. */
export function qmul(a: Q, b: Q): Q {
  return {
    x: a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y,
    y: a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x,
    z: a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w,
    w: a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z,
  };
}

/**
 * The box an entity's colliders would fill with its body at another pose (where the
 * robot believes it is): each collider keeps its place on the body.
 */
export function boxAtPose(w: SimWorld, id: string, at: { p: V; q: Q }): Box | undefined {
  const e = w.entities.get(id);
  if (!e) return undefined;
  const body = w.world.getRigidBody(e.body);
  const bt = body.translation();
  const bq = body.rotation();
  let box: Box | undefined;
  for (const h of e.colliders) {
    const col = w.world.getCollider(h);
    const he = halfExtents(col.shape);
    if (!he) continue;
    const ct = col.translation();
    const local = rot(conj(bq), vec(ct.x - bt.x, ct.y - bt.y, ct.z - bt.z));
    const lq = qmul(conj(bq), col.rotation());
    const c = rot(at.q, local);
    const q = (col.shape as { type?: number }).type === BALL ? { x: 0, y: 0, z: 0, w: 1 } : qmul(at.q, lq);
    box = unite(box, boxOf(vec(at.p.x + c.x, at.p.y + c.y, at.p.z + c.z), q, he));
  }
  return box;
}

function readBody(w: SimWorld, id: string, handle: number, colliders: readonly number[], fixed: boolean): BodyReading {
  const b = w.world.getRigidBody(handle);
  const t = b.translation();
  const r = b.rotation();
  const v = b.linvel();
  const a = b.angvel();
  const c = b.worldCom();
  let box: Box | undefined;
  for (const h of colliders) {
    const col = w.world.getCollider(h);
    const he = halfExtents(col.shape);
    if (!he) continue;
    // A ball's box does not turn with it.
    const q = (col.shape as { type?: number }).type === BALL ? { x: 0, y: 0, z: 0, w: 1 } : col.rotation();
    box = unite(box, boxOf(col.translation(), q, he));
  }
  return {
    id,
    fixed,
    pos: vec(t.x, t.y, t.z),
    q: { x: r.x, y: r.y, z: r.z, w: r.w },
    com: vec(c.x, c.y, c.z),
    box: box ?? { min: vec(t.x, t.y, t.z), max: vec(t.x, t.y, t.z) },
    speed: Math.hypot(v.x, v.y, v.z),
    spin: Math.hypot(a.x, a.y, a.z),
    finite: finite(t.x, t.y, t.z, r.x, r.y, r.z, r.w, v.x, v.y, v.z),
  };
}

/** A receptacle's interior volume (m³). */
const volOf = (w: SimWorld, id: string): number => w.entity(id).spec.receptacle!.interior.size.reduce((a, b) => a * b, 1);

/** In a container: certainly (centre of mass well inside the interior, in the container's frame), certainly not, or unsure. */
function containment(w: SimWorld, obj: BodyReading, c: BodyReading): 'in' | 'out' | 'unsure' {
  const r = w.entity(c.id).spec.receptacle;
  if (!r) return 'out';
  const local = rot(conj(c.q), vec(obj.com.x - c.pos.x, obj.com.y - c.pos.y, obj.com.z - c.pos.z));
  const [cx, cy, cz] = r.interior.center;
  const [sx, sy, sz] = r.interior.size;
  const above = r.enclosed ? 0 : sy * 0.5;
  const d = vec(Math.abs(local.x - cx) - sx / 2, local.y - cy, Math.abs(local.z - cz) - sz / 2);
  const inside = d.x <= -0.005 && d.z <= -0.005 && d.y >= -sy / 2 + 0.002 && d.y <= sy / 2 + above - 0.01;
  if (inside) return 'in';
  const near = d.x <= 0.03 && d.z <= 0.03 && d.y >= -sy / 2 - 0.03 && d.y <= sy / 2 + above + 0.04;
  return near ? 'unsure' : 'out';
}

/** Stands for the robot's links among the things an object rests on (an object left on the fingers, riding on the arm). */
export const ROBOT = '(robot)';

/** What touches the object below its centre of mass and pushes it up: entity ids, 'floor', or ROBOT (also when only the robot presses on it, wedged). */
function touchingBelow(w: SimWorld, id: string, com: V, pressing?: Set<string>): Set<string> {
  const out = new Set<string>();
  let sideways = false;
  const floor = w.world.getRigidBody(w.floor);
  const floorColliders = new Set<number>();
  for (let i = 0; i < floor.numColliders(); i++) floorColliders.add(floor.collider(i).handle);
  for (const h of w.entity(id).colliders) {
    const mine = w.world.getCollider(h);
    w.world.contactPairsWith(mine, (other) => {
      // Neither furniture, an object nor the floor: the robot's own links (an object resting on the arm).
      const owner = floorColliders.has(other.handle) ? 'floor' : (w.colliderOwner.get(other.handle) ?? ROBOT);
      if (owner === id) return;
      w.world.contactPair(mine, other, (m, flipped) => {
        // The normal points out of the first shape; what bears weight pushes the object up
        // (an object resting inside it touches it below its centre of mass, pushing down).
        const n = m.normal();
        if ((flipped ? n.y : -n.y) <= 0.02) {
          // Pressed from the side by the robot: with nothing under it, the robot holds it up by friction.
          for (let k = 0; k < m.numContacts(); k++)
            if (m.contactDist(k) <= 0.02 && m.contactImpulse(k) > 0) {
              if (owner === ROBOT) sideways = true;
              else pressing?.add(owner);
            }
          return;
        }
        for (let k = 0; k < m.numContacts(); k++) {
          if (m.contactDist(k) > 0.02) continue;
          const local = flipped ? m.localContactPoint2(k) : m.localContactPoint1(k);
          if (!local) continue;
          const p = mine.translation();
          const world = rot(mine.rotation(), local);
          // Below the centre of mass, or pushing up on it from anywhere (a tilted object leaning on a support).
          if (p.y + world.y < com.y - 0.002 || m.contactImpulse(k) > 0) out.add(owner);
        }
      });
    });
  }
  if (!out.size && sideways) out.add(ROBOT);
  return out;
}

/**
 * Does a robot link bear part of the object now (touching it below its centre of mass, or
 * pushing it up)? An object in a container may still lean on the hand that set it there.
 */
export function robotBearsNow(w: SimWorld, id: string): boolean {
  const e = w.entities.get(id);
  if (!e) return false;
  const c = w.world.getRigidBody(e.body).worldCom();
  return touchingBelow(w, id, vec(c.x, c.y, c.z)).has(ROBOT);
}

/** Slower than this (m/s, rad/s) a body is at rest. */
const AT_REST = 0.01;
const AT_REST_SPIN = 0.1;
/** How far the shapes are lowered to find what a resting body stands on. */
const LOWER = 0.02;

/**
 * At rest with no contact below it that counts (the solver's last contact of a body
 * that fell asleep can read centimetres apart): what its own shapes meet when lowered
 * by 2 cm, among things whose top lies between its bottom and its centre of mass
 * (not a neighbour touching its side, which rises above its bottom).
 */
function restingOn(w: SimWorld, id: string, me: BodyReading): Set<string> {
  const out = new Set<string>();
  const floor = w.world.getRigidBody(w.floor);
  const self = w.world.getRigidBody(w.entity(id).body);
  for (const h of w.entity(id).colliders) {
    const mine = w.world.getCollider(h);
    const t = mine.translation();
    w.world.intersectionsWithShape(
      vec(t.x, t.y - LOWER, t.z),
      mine.rotation(),
      mine.shape,
      (other) => {
        const owner = other.parent()?.handle === floor.handle ? 'floor' : (w.colliderOwner.get(other.handle) ?? ROBOT);
        if (owner === id) return true;
        const he = halfExtents(other.shape);
        const top = he ? boxOf(other.translation(), other.rotation(), he).max.y : me.box.min.y;
        if (top <= me.com.y && top >= me.box.min.y - LOWER - 0.005 && top <= me.box.min.y + 0.01) out.add(owner);
        return true;
      },
      undefined,
      undefined,
      undefined,
      self,
    );
  }
  return out;
}

export function readWorld(w: SimWorld): WorldReading {
  const bodies = new Map<string, BodyReading>();
  for (const e of w.entities.values()) bodies.set(e.id, readBody(w, e.id, e.body, e.colliders, e.fixed));
  const held = w.heldId();
  const places = new Map<string, Reading>();
  const moving = new Set<string>();
  for (const e of w.entities.values()) {
    if (e.fixed) continue;
    const b = bodies.get(e.id)!;
    if (!(b.speed < AT_REST && b.spin < AT_REST_SPIN)) moving.add(e.id);
    if (held === e.id) {
      places.set(e.id, { kind: 'held' });
      continue;
    }
    const person = w.handedOver.get(e.id);
    if (person) {
      places.set(e.id, { kind: 'handed', person });
      continue;
    }
    const me = bodies.get(e.id)!;
    let inside: string | undefined;
    let unsure = false;
    const candidates: string[] = [];
    for (const c of w.entities.values()) {
      if (c.id === e.id || !c.spec.receptacle) continue;
      let k = containment(w, me, bodies.get(c.id)!);
      // Two containers each within the other's opening (a mug set down in a basket): the smaller is in the larger.
      if (k === 'in' && e.spec.receptacle && volOf(w, c.id) <= volOf(w, e.id) && (volOf(w, c.id) < volOf(w, e.id) || c.id > e.id))
        if (containment(w, bodies.get(c.id)!, me) === 'in') k = 'out';
      if (k !== 'out') candidates.push(c.id);
      if (k === 'in') {
        // The innermost: a smaller interior wins.
        if (!inside || volOf(w, c.id) < volOf(w, inside)) inside = c.id;
      } else if (k === 'unsure') unsure = true;
    }
    // On the edge of one container while inside another: which is innermost is not certain,
    // so each reading the pose admits is plausible (in any of them, or on what bears it).
    if (unsure) {
      const below = touchingBelow(w, e.id, me.com);
      const plausible: Reading[] = candidates.map((id) => ({ kind: 'in', id }));
      if (below.size) plausible.push({ kind: 'on', ids: below });
      places.set(e.id, { kind: 'unsure', why: 'on the boundary of a container', plausible });
    } else if (inside) places.set(e.id, { kind: 'in', id: inside });
    else {
      const pressing = new Set<string>();
      let below = touchingBelow(w, e.id, me.com, pressing);
      const still = me.speed < AT_REST && me.spin < AT_REST_SPIN;
      if (!below.size && still) below = restingOn(w, e.id, me);
      // At rest with nothing under it, wedged (a chair a person pushed into a table): what
      // presses on it holds it up, as the robot's fingers do a box wedged on them.
      if (!below.size && still && pressing.size) below = pressing;
      // Resting on the robot (its hand, fingers, an arm link) is a place like any other.
      places.set(
        e.id,
        below.size
          ? { kind: 'on', ids: below }
          : { kind: 'unsure', why: still ? 'touches nothing below, at rest' : 'touches nothing below (still moving)' },
      );
    }
  }
  const base = w.world.getRigidBody(w.bodyLinks.base);
  const bt = base.translation();
  const bq = base.rotation();
  const fwd = rot({ x: bq.x, y: bq.y, z: bq.z, w: bq.w }, vec(1, 0, 0));
  const tcp = w.tcp()?.p;
  return {
    time: w.time,
    bodies,
    places,
    moving,
    held,
    tcp: tcp ? vec(tcp.x, tcp.y, tcp.z) : undefined,
    base: { pos: vec(bt.x, bt.y, bt.z), yaw: Math.atan2(-fwd.z, fwd.x) },
    joints: w.body.q ? [...w.body.q] : undefined,
    estop: w.estop,
    docked: w.body.docked,
    batteryPercent: w.battery.percent,
    batteryLevel: w.battery.level,
  };
}

/** Does a reported place agree with the reading? undefined when the reading is unsure. */
export function agrees(
  r: Reading | undefined,
  kind: 'in' | 'on' | 'floor' | 'held' | 'handed' | 'robot',
  id?: string,
): boolean | undefined {
  if (!r) return undefined;
  if (r.kind === 'unsure') return r.plausible?.length ? r.plausible.some((p) => agrees(p, kind, id) === true) : undefined;
  if (kind === 'held') return r.kind === 'held';
  if (kind === 'robot') return r.kind === 'on' && r.ids.has(ROBOT);
  if (kind === 'handed') return r.kind === 'handed' && r.person === id;
  if (kind === 'in') return r.kind === 'in' && r.id === id;
  if (kind === 'floor') return r.kind === 'on' && r.ids.has('floor');
  return r.kind === 'on' && r.ids.has(id!);
}

/** Two readings of one object that certainly differ (a move the skill must account for). */
export function certainlyMoved(a: Reading | undefined, b: Reading | undefined): boolean {
  if (!a || !b) return false;
  // A boundary reading moved only when every reading it admits differs from every one the other admits.
  if (a.kind === 'unsure' || b.kind === 'unsure') {
    const as = a.kind === 'unsure' ? a.plausible : [a];
    const bs = b.kind === 'unsure' ? b.plausible : [b];
    return !!as?.length && !!bs?.length && as.every((x) => bs.every((y) => certainlyMoved(x, y)));
  }
  if (a.kind !== b.kind) return true;
  if (a.kind === 'in' && b.kind === 'in') return a.id !== b.id;
  if (a.kind === 'handed' && b.kind === 'handed') return a.person !== b.person;
  if (a.kind === 'on' && b.kind === 'on') return ![...a.ids].some((x) => b.ids.has(x));
  return false;
}
