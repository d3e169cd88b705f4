// How a placed object ended up: how it stands (upright, on its side, upside
// down) for objects that have an up, and how far it landed from an explicit
// point asked for. A place reports both, so a success never hides them.
import { rotate, v3 } from '../math';
import type { SimWorld } from '../world/sim-world';

/** A placement further than this from the requested point (metres, on the floor plane) says where it went. */
export const POSE_TOLERANCE = 0.03;

export type Standing = 'upright' | 'on its side' | 'upside down';

/**
 * An object has an up unless it is round (only spheres and capsules: fruit, an
 * egg), which rests any way. Upright is as it stands in the catalogue.
 */
export function hasUp(sim: SimWorld, id: string): boolean {
  // By the shapes that touch: an apple's stem is drawn, not felt.
  return !sim.entity(id).spec.parts.every((p) => p.collider === false || p.shape === 'sphere' || p.shape === 'capsule');
}

/** How the object stands now, or undefined when it has no up. Within 30° of its up counts as upright. */
export function standing(sim: SimWorld, id: string): { way: Standing; tiltDeg: number } | undefined {
  if (!hasUp(sim, id)) return undefined;
  const up = rotate(sim.pose(id).q, v3(0, 1, 0));
  const tiltDeg = Math.round((Math.acos(Math.max(-1, Math.min(1, up.y))) * 180) / Math.PI);
  const way: Standing = up.y >= Math.cos(Math.PI / 6) ? 'upright' : up.y <= -Math.cos(Math.PI / 6) ? 'upside down' : 'on its side';
  return { way, tiltDeg };
}

/** Centimetres between the object's footprint centre and the requested point, when beyond the tolerance. */
export function offTarget(sim: SimWorld, id: string, want: { x: number; z: number }): number | undefined {
  const b = sim.aabb(id);
  const d = Math.hypot((b.min.x + b.max.x) / 2 - want.x, (b.min.z + b.max.z) / 2 - want.z);
  return d > POSE_TOLERANCE ? Math.round(d * 100) : undefined;
}
