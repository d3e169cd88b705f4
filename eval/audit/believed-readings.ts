// What the audit reads of the robot's belief beside the world: the ids it knows,
// where it believes each object's centre is, and the reading a call is judged at.
import type { SimWorld } from '../../sim/world/sim-world';
import type { V, WorldReading, readWorld } from './truth';

/** The ids the robot knows: the fixed furniture and what its belief holds. */
export function knownIds(w: SimWorld): Set<string> {
  const out = new Set<string>();
  for (const e of w.entities.values()) if (e.fixed || w.belief.has(e.id)) out.add(e.id);
  return out;
}

export function believedCentres(w: SimWorld, truth: ReturnType<typeof readWorld>): Map<string, V> {
  const out = new Map<string, V>();
  for (const e of w.belief.objects.values()) {
    const t = truth.bodies.get(e.id);
    if (!t) continue;
    const c = { x: (t.box.min.x + t.box.max.x) / 2, y: (t.box.min.y + t.box.max.y) / 2, z: (t.box.min.z + t.box.max.z) / 2 };
    out.set(e.id, { x: e.pose.p.x + c.x - t.pos.x, y: e.pose.p.y + c.y - t.pos.y, z: e.pose.p.z + c.z - t.pos.z });
  }
  return out;
}

/**
 * The places a call is judged by: where each object was as the call returned (a record
 * made then, a change the call caused), except where it was in flight then: there,
 * where it came to rest. A ball still rolling on the table as the call ended was on the table.
 * What moved as the call returned is read then: "still moving" is true of those alone.
 */
export function judgedAt(atEnd: WorldReading | undefined, settled: WorldReading): WorldReading {
  if (!atEnd) return settled;
  const places = new Map(settled.places);
  for (const [id, r] of atEnd.places) if (r.kind !== 'unsure' || r.plausible?.length) places.set(id, r);
  return { ...settled, places, moving: atEnd.moving, atEnd };
}
