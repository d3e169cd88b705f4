// Where each object is, read from the physics: held by the robot, handed to a
// person, in a container, on something, on the floor, or resting on the robot's
// own body (hand and fingers, an arm link, the base); always exactly one.
// - In: the object's centre of mass, expressed in the container's own frame,
//   lies within the container's interior (an open one counts half its height
//   again above the rim). Judged in the container's frame, so a box tipped while
//   held keeps what stays wedged inside it, and loses what falls out.
// - On: what carries its weight: among the bodies it touches with a contact
//   normal pointing up or below its centre of mass, the one that pushes hardest
//   (the contact impulses of the last step), so a drill lying tilted on a table
//   is on the table. Objects touching nothing (falling) are on what lies under them.
// - Robot: what carries its weight is a link of the robot (an object left on
//   the fingers, riding on the upper arm), or, when nothing bears it from
//   below, the robot's links pressing on it (a box wedged on the fingers).
// - Floor: resting on the floor slab, or nothing under it but the floor.
// - Moving: nothing bears it and it still moves (falling, bouncing, tumbling
//   off an edge): where it will rest is not known yet, so no support is named.
import { G, groups } from '../groups';
import { type Vec3, aabbVolume, qConj, rotate, v3 } from '../math';
import { localBox } from './entity';
import type { Place, RobotPart } from './place';
import type { SimWorld } from './sim-world';

export { type Place, type RobotPart, placeFact } from './place';

/** Prefix of a robot part among the supports supportByContact weighs. */
const ROBOT = 'robot:';

/** Which part of the robot a collider belongs to, or undefined when it is not the robot's. */
export function robotPartOf(sim: SimWorld, collider: number): RobotPart | undefined {
  if (!sim.bodyLinks.colliders.has(collider)) return undefined;
  const body = sim.world.getCollider(collider).parent()?.handle;
  const arm = sim.bodyLinks.arm;
  if (arm && (body === arm.hand || body === arm.fingerA || body === arm.fingerB)) return 'hand';
  if (arm && (body === arm.upper || body === arm.fore || body === arm.turret)) return 'arm';
  if (body !== undefined && sim.bodyLinks.armExtras.has(body)) return 'arm';
  return 'base';
}

/** A contact this far apart (metres) still counts as touching (contact skin and prediction). */
const TOUCH = 0.015;
/** A supporting contact's normal points this much upward at least. */
const UPWARD = 0.5;
/** A touch below the centre of mass bears weight only if its normal points up at least this much. */
const PUSHES_UP = 0.05;

/**
 * Is `id` in container `c`? Its centre of mass, in the container's frame, lies
 * within the interior (an open container counts half its height again above
 * the rim), so a container turned over keeps what stays wedged inside.
 */
export function containedIn(sim: SimWorld, id: string, c: string): boolean {
  const r = sim.entity(c).spec.receptacle;
  if (!r || c === id) return false;
  return comWithin(sim, centreOfMass(sim, id), c, r);
}

type ReceptacleSpec = NonNullable<ReturnType<SimWorld['entity']>['spec']['receptacle']>;

function centreOfMass(sim: SimWorld, id: string): Vec3 {
  return sim.world.getRigidBody(sim.entity(id).body).worldCom();
}

/** Whether a centre of mass (the world's) lies in receptacle `c`'s interior. */
function comWithin(sim: SimWorld, com: Vec3, c: string, r: ReceptacleSpec): boolean {
  const cp = sim.pose(c);
  const local = rotate(qConj(cp.q), v3(com.x - cp.p.x, com.y - cp.p.y, com.z - cp.p.z));
  // Indexed, not destructured (destructuring allocates in cold code; this runs per object and receptacle).
  const centre = r.interior.center;
  const size = r.interior.size;
  const cx = centre[0];
  const cy = centre[1];
  const cz = centre[2];
  const sx = size[0];
  const sy = size[1];
  const sz = size[2];
  const above = r.enclosed ? 0 : sy * 0.5;
  const m = 0.005;
  return (
    Math.abs(local.x - cx) <= sx / 2 + m &&
    Math.abs(local.z - cz) <= sz / 2 + m &&
    local.y >= cy - sy / 2 - m &&
    local.y <= cy + sy / 2 + above
  );
}

/** The innermost container holding the object, if any. */
export function containerOf(sim: SimWorld, id: string): string | undefined {
  let best: { id: string; volume: number } | undefined;
  // The object's centre of mass, read once for every receptacle.
  let com: Vec3 | undefined;
  const own = sim.entity(id).spec.receptacle;
  const ownVolume = own ? aabbVolume(localBox(own.interior)) : 0;
  for (const e of sim.entities.values()) {
    const r = e.spec.receptacle;
    if (!r || e.id === id) continue;
    com ??= centreOfMass(sim, id);
    if (!comWithin(sim, com, e.id, r)) continue;
    const volume = aabbVolume(localBox(r.interior));
    // Two containers each within the other's opening (a mug set down in a basket): the
    // smaller is in the larger, never both ways round.
    if (own && (volume < ownVolume || (volume === ownVolume && e.id > id)) && comWithin(sim, centreOfMass(sim, e.id), id, own)) continue;
    if (!best || volume < best.volume) best = { id: e.id, volume };
  }
  return best?.id;
}

/** The floor's collider handles, kept per world while the floor has as many colliders (perception asks per object). */
const floors = new WeakMap<SimWorld, { body: number; count: number; handles: Set<number> }>();

function floorColliderHandles(sim: SimWorld): Set<number> {
  const floorBody = sim.world.getRigidBody(sim.floor);
  const count = floorBody.numColliders();
  const kept = floors.get(sim);
  if (kept && kept.body === sim.floor && kept.count === count) return kept.handles;
  const handles = new Set<number>();
  for (let i = 0; i < count; i++) handles.add(floorBody.collider(i).handle);
  floors.set(sim, { body: sim.floor, count, handles });
  return handles;
}

/** What carries the object's weight through contacts: an entity id, 'floor', 'robot:<part>', or undefined when it touches nothing below. */
export function supportByContact(sim: SimWorld, id: string): string | undefined {
  const e = sim.entity(id);
  const weight = new Map<string, number>();
  // Robot parts pressing on the object from the side: they carry it by friction when nothing bears it from below.
  const gripping = new Map<string, number>();
  const com = sim.world.getRigidBody(e.body).worldCom();
  const floorColliders = floorColliderHandles(sim);
  for (const h of e.colliders) {
    const mine = sim.world.getCollider(h);
    sim.world.contactPairsWith(mine, (other) => {
      const part = robotPartOf(sim, other.handle);
      const owner = floorColliders.has(other.handle) ? 'floor' : part ? ROBOT + part : sim.colliderOwner.get(other.handle);
      if (!owner || owner === id || (!sim.entities.has(owner) && owner !== 'floor' && !part)) return;
      sim.world.contactPair(mine, other, (m, flipped) => {
        // The normal points out of the first shape: up out of the support means it bears
        // the weight; so does any touch below the centre of mass (a rim, an edge).
        const n = m.normal();
        const up = flipped ? n.y : -n.y;
        const t = mine.translation();
        const r = mine.rotation();
        let push = 0;
        let touching = false;
        for (let k = 0; k < m.numContacts(); k++) {
          // A contact the solver pushed through touches, however far apart its points read
          // (a board leaning on a knife read 18 mm apart while bearing on it).
          if (m.contactDist(k) > TOUCH && !(m.contactImpulse(k) > 0)) continue;
          if (part && m.contactImpulse(k) > 0) gripping.set(owner, (gripping.get(owner) ?? 0) + m.contactImpulse(k));
          const local = flipped ? m.localContactPoint2(k) : m.localContactPoint1(k);
          const y = local ? t.y + rotate(r, local).y : com.y;
          const below = y < com.y - 0.002;
          // A support pushes up: something resting inside the object touches it below its
          // centre of mass too, but pushes down.
          if (up < UPWARD && !(below && up > PUSHES_UP)) continue;
          // Above the centre of mass only what pushes up now bears weight (a tilted laptop on a roll).
          if (!below && !(up >= UPWARD && m.contactImpulse(k) > 0)) continue;
          touching = true;
          push += Math.max(0, m.contactImpulse(k));
        }
        if (touching) weight.set(owner, (weight.get(owner) ?? 0) + push + 1e-9);
      });
    });
  }
  let best: { id: string; w: number; top: number } | undefined;
  for (const [owner, w] of weight) {
    const top = owner === 'floor' || owner.startsWith(ROBOT) ? 0 : sim.aabb(owner).max.y;
    if (!best || w > best.w + 1e-6 || (Math.abs(w - best.w) <= 1e-6 && top > best.top)) best = { id: owner, w, top };
  }
  if (best) return best.id;
  // Wedged on the fingers or the hand (a box hanging from fingers inside it): the robot bears it.
  let grip: { id: string; w: number } | undefined;
  for (const [owner, w] of gripping) if (!grip || w > grip.w) grip = { id: owner, w };
  return grip?.id;
}

/** How far (metres) the object's own shapes are swept down to find what they stand on. */
const SWEEP = 0.03;

/**
 * What the object stands on when no contact says so (a body that fell asleep can keep a
 * contact reading more than TOUCH apart): what its own shapes meet first when swept
 * straight down a few centimetres. The shapes, not one ray from the centre of mass: a
 * chair stands on its legs, not on the burner or the book under its seat. Failing that,
 * the first thing under the centre of mass (robot and people aside), or 'floor'; cast
 * from the centre, not from the bottom of its box, which for a turned object reaches
 * below a thin part it rests on (a burner on a stove) and would name the whole fixture.
 */
function supportBelow(sim: SimWorld, id: string): string {
  const e = sim.entity(id);
  const mine = new Set(e.colliders);
  const filter = groups(0xffff, G.STATIC | G.OBJECT | G.DOOR | G.FLOOR);
  const body = sim.world.getRigidBody(e.body);
  const down = v3(0, -1, 0);
  let first: { owner: string; toi: number } | undefined;
  for (const h of e.colliders) {
    const c = sim.world.getCollider(h);
    const hit = sim.world.castShape(
      c.translation(),
      c.rotation(),
      down,
      c.shape,
      0,
      SWEEP,
      false,
      undefined,
      filter,
      undefined,
      body,
      (o) => !mine.has(o.handle),
    );
    if (!hit) continue;
    const owner =
      sim.colliderOwner.get(hit.collider.handle) ??
      (sim.world.getRigidBody(sim.floor).handle === hit.collider.parent()?.handle ? 'floor' : undefined);
    if (!owner || (owner !== 'floor' && !sim.entities.has(owner))) continue;
    if (!first || hit.time_of_impact < first.toi) first = { owner, toi: hit.time_of_impact };
  }
  if (first) return first.owner;
  const com = body.worldCom();
  const ray = new sim.R.Ray(v3(com.x, com.y, com.z), down);
  const hit = sim.world.castRay(ray, 20, true, undefined, filter, undefined, undefined, (c) => !mine.has(c.handle));
  const owner = hit ? sim.colliderOwner.get(hit.collider.handle) : undefined;
  return owner && sim.entities.has(owner) ? owner : 'floor';
}

/** Still moving: faster than 1 cm/s or 0.1 rad/s, the bounds under which SimWorld.objectsSettled counts a body as still. */
function moving(sim: SimWorld, id: string): boolean {
  const b = sim.world.getRigidBody(sim.entity(id).body);
  if (b.isSleeping()) return false;
  const v = b.linvel();
  const w = b.angvel();
  return v.x * v.x + v.y * v.y + v.z * v.z > 1e-4 || w.x * w.x + w.y * w.y + w.z * w.z > 1e-2;
}

/** Where an object is now (see the header); exactly one answer for every object. */
export function locationOf(sim: SimWorld, id: string): Place {
  if (sim.isHeld(id)) return { kind: 'held' };
  const person = sim.handedOver.get(id);
  if (person) return { kind: 'handed', person };
  const c = containerOf(sim, id);
  if (c) return { kind: 'in', id: c };
  const contact = supportByContact(sim, id);
  // Nothing bears it and it moves: what lies under it now is not where it will rest.
  if (contact === undefined && moving(sim, id)) return { kind: 'moving' };
  const s = contact ?? supportBelow(sim, id);
  if (s.startsWith(ROBOT)) return { kind: 'robot', part: s.slice(ROBOT.length) as RobotPart };
  return s === 'floor' ? { kind: 'floor' } : { kind: 'on', id: s };
}

/** Every movable object's location, cached per world version. */
const cache = new WeakMap<SimWorld, { version: number; places: Map<string, Place> }>();

export function locations(sim: SimWorld): ReadonlyMap<string, Place> {
  const hit = cache.get(sim);
  if (hit && hit.version === sim.version) return hit.places;
  const places = new Map<string, Place>();
  for (const e of sim.entities.values()) if (!e.fixed) places.set(e.id, locationOf(sim, e.id));
  cache.set(sim, { version: sim.version, places });
  return places;
}
