// Where each object is, read from the physics: held by the robot, handed to a
// person, in a container, on something, or on the floor; always exactly one.
// - In: the object's box, expressed in the container's own frame, lies mostly
//   within the container's interior (an open one counts half its height again
//   above the rim). Judged in the container's frame, so a box tipped while held
//   keeps what stays wedged inside it, and loses what falls out.
// - On: what carries its weight: among the bodies it touches with a contact
//   normal pointing up, the one that pushes hardest (the contact impulses of the
//   last step), so a drill lying tilted on a table is on the table. Objects not
//   touching anything (falling, or just moved) are on what lies under them.
// - Floor: resting on the floor slab, or nothing under it but the floor.
import { G, groups } from '../groups';
import { type Aabb, type Pose, aabbIntersection, aabbVolume, poseInv, poseMul, v3 } from '../math';
import { aabbToWorld, localBox } from './entity';
import type { SimWorld } from './sim-world';

export type Place =
  { kind: 'held' } | { kind: 'handed'; person: string } | { kind: 'in'; id: string } | { kind: 'on'; id: string } | { kind: 'floor' };

/** A contact this far apart (metres) still counts as touching (contact skin and prediction). */
const TOUCH = 0.006;
/** A supporting contact's normal points this much upward at least. */
const UPWARD = 0.5;
/** Share of an object's box that must lie in a container's interior. */
const INSIDE_SHARE = 0.5;

/** The object's box in another body's frame. */
function boxIn(local: Aabb, pose: Pose, frame: Pose): Aabb {
  return aabbToWorld(local, poseMul(poseInv(frame), pose));
}

/** Is `id` in container `c`, judged in the container's frame? */
export function containedIn(sim: SimWorld, id: string, c: string): boolean {
  const ce = sim.entity(c);
  const r = ce.spec.receptacle;
  if (!r || c === id) return false;
  const inner = localBox(r.interior);
  // Open containers (bowls, boxes) hold what sticks out above the rim.
  const room: Aabb = r.enclosed ? inner : { min: inner.min, max: { ...inner.max, y: inner.max.y + (inner.max.y - inner.min.y) * 0.5 } };
  const box = boxIn(sim.entity(id).localAabb, sim.pose(id), sim.pose(c));
  const cx = (box.min.x + box.max.x) / 2;
  const cy = (box.min.y + box.max.y) / 2;
  const cz = (box.min.z + box.max.z) / 2;
  const m = 0.01;
  const centreIn =
    cx >= room.min.x - m &&
    cx <= room.max.x + m &&
    cz >= room.min.z - m &&
    cz <= room.max.z + m &&
    cy >= room.min.y - m &&
    cy <= room.max.y;
  if (!centreIn) return false;
  const v = aabbVolume(box);
  return v > 0 && aabbIntersection(box, room) / v >= INSIDE_SHARE;
}

/** The innermost container holding the object, if any. */
export function containerOf(sim: SimWorld, id: string): string | undefined {
  let best: { id: string; volume: number } | undefined;
  for (const e of sim.entities.values()) {
    if (!e.spec.receptacle || e.id === id) continue;
    if (!containedIn(sim, id, e.id)) continue;
    const volume = aabbVolume(localBox(e.spec.receptacle.interior));
    if (!best || volume < best.volume) best = { id: e.id, volume };
  }
  return best?.id;
}

/** What carries the object's weight through contacts: an entity id, 'floor', or undefined when it touches nothing below. */
export function supportByContact(sim: SimWorld, id: string): string | undefined {
  const e = sim.entity(id);
  const weight = new Map<string, number>();
  const floorColliders = new Set<number>();
  const floorBody = sim.world.getRigidBody(sim.floor);
  for (let i = 0; i < floorBody.numColliders(); i++) floorColliders.add(floorBody.collider(i).handle);
  for (const h of e.colliders) {
    const mine = sim.world.getCollider(h);
    sim.world.contactPairsWith(mine, (other) => {
      const owner = floorColliders.has(other.handle) ? 'floor' : sim.colliderOwner.get(other.handle);
      if (!owner || owner === id || (!sim.entities.has(owner) && owner !== 'floor')) return;
      sim.world.contactPair(mine, other, (m, flipped) => {
        // The normal points out of the first shape; up out of the support means support.
        const n = m.normal();
        const up = flipped ? n.y : -n.y;
        if (up < UPWARD) return;
        let push = 0;
        let touching = false;
        for (let k = 0; k < m.numContacts(); k++) {
          if (m.contactDist(k) > TOUCH) continue;
          touching = true;
          push += Math.max(0, m.contactImpulse(k));
        }
        if (touching) weight.set(owner, (weight.get(owner) ?? 0) + push + 1e-9);
      });
    });
  }
  let best: { id: string; w: number; top: number } | undefined;
  for (const [owner, w] of weight) {
    const top = owner === 'floor' ? 0 : sim.aabb(owner).max.y;
    if (!best || w > best.w + 1e-6 || (Math.abs(w - best.w) <= 1e-6 && top > best.top)) best = { id: owner, w, top };
  }
  return best?.id;
}

/** The first thing under the object's lowest point (robot and people aside), or 'floor'. */
function supportBelow(sim: SimWorld, id: string): string {
  const box = sim.aabb(id);
  const from = v3((box.min.x + box.max.x) / 2, box.min.y + 0.001, (box.min.z + box.max.z) / 2);
  const mine = new Set(sim.entity(id).colliders);
  const ray = new sim.R.Ray(from, v3(0, -1, 0));
  const filter = groups(0xffff, G.STATIC | G.OBJECT | G.DOOR | G.FLOOR);
  const hit = sim.world.castRay(ray, 20, true, undefined, filter, undefined, undefined, (c) => !mine.has(c.handle));
  const owner = hit ? sim.colliderOwner.get(hit.collider.handle) : undefined;
  return owner && sim.entities.has(owner) ? owner : 'floor';
}

/** Where an object is now (see the header); exactly one answer for every object. */
export function locationOf(sim: SimWorld, id: string): Place {
  if (sim.isHeld(id)) return { kind: 'held' };
  const person = sim.handedOver.get(id);
  if (person) return { kind: 'handed', person };
  const c = containerOf(sim, id);
  if (c) return { kind: 'in', id: c };
  const s = supportByContact(sim, id) ?? supportBelow(sim, id);
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

/** A location as a fact: in(x, c), on(x, s), on(x, floor), holding(robot, x) or held_by(x, person). */
export function placeFact(id: string, p: Place): string {
  switch (p.kind) {
    case 'held':
      return `holding(robot, ${id})`;
    case 'handed':
      return `held_by(${id}, ${p.person})`;
    case 'in':
      return `in(${id}, ${p.id})`;
    case 'on':
      return `on(${id}, ${p.id})`;
    case 'floor':
      return `on(${id}, floor)`;
  }
}
