// Has the camera looked inside a storage? Only when it sees the storage's whole
// bottom: five points on it (the centre and four halfway to the corners) are in
// view and each sight ray reaches its point, or meets something lying inside
// first (what is in it is then what the camera sees). A closed door, a wall of
// the sink seen from the side, a rim seen too flat: the inside is not seen, and
// what is in it stays "not known" (never "nothing").
import { type Aabb, type Vec3, aabbCenter, aabbContainsPoint, dist, v3 } from '../math';
import type { SimWorld } from '../world/sim-world';
import { type CameraView, cameraView, inView } from './camera';
import { castSight, transparentColliders } from './visibility';

/** Points on a storage's bottom, a centimetre above it. */
function bottomPoints(inside: Aabb): Vec3[] {
  const c = aabbCenter(inside);
  const y = inside.min.y + 0.01;
  const hx = (inside.max.x - inside.min.x) / 4;
  const hz = (inside.max.z - inside.min.z) / 4;
  return [v3(c.x, y, c.z), v3(c.x - hx, y, c.z - hz), v3(c.x + hx, y, c.z - hz), v3(c.x - hx, y, c.z + hz), v3(c.x + hx, y, c.z + hz)];
}

/** Does the camera see the whole bottom of this storage now? */
export function seesInside(sim: SimWorld, id: string, view: CameraView = cameraView(sim)): boolean {
  const e = sim.entities.get(id);
  if (!e?.spec.receptacle || sim.isHeld(id)) return false;
  const inside = sim.interior(id);
  if (!inside) return false;
  const skip = transparentColliders(sim);
  // What lies inside may stand in front of the bottom: seeing it is seeing inside.
  const within = (owner: string | undefined): boolean =>
    owner !== undefined && owner !== id && sim.entities.has(owner) && aabbContainsPoint(inside, aabbCenter(sim.aabb(owner)), 0.02);
  for (const point of bottomPoints(inside)) {
    if (!inView(view, point)) return false;
    const d = dist(view.pose.p, point);
    const hit = castSight(sim, view, point, d + 0.02, skip);
    if (hit && hit.distance < d - 0.03 && !within(hit.owner)) return false;
  }
  return true;
}

/** Records, for every storage whose inside the camera sees now, that the robot looked inside. */
export function lookInside(sim: SimWorld, view: CameraView = cameraView(sim)): string[] {
  const seen: string[] = [];
  for (const e of sim.entities.values()) {
    if (!e.spec.receptacle) continue;
    // An object's inside counts once the robot knows the object; furniture is known a priori.
    if (!e.fixed && !sim.belief.has(e.id)) continue;
    if (!seesInside(sim, e.id, view)) continue;
    sim.belief.sawInside(e.id, sim.time);
    seen.push(e.id);
  }
  return seen;
}
