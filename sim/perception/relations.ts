// Spatial relations between objects from their 3D boxes, after the geometric
// heuristics REFLECT uses (and RAIDER adapts, paper 001 §4.1.2): inside, on top
// of, above, below, left of, right of (from the robot's point of view), near and
// blocking. Pure functions over boxes, so tests can build layouts by hand.
import { compareIds } from '../ids';
import {
  type Aabb,
  type Pose,
  type Vec3,
  aabbCenter,
  aabbIntersection,
  aabbVolume,
  footprintOverlap,
  overlap1,
  poseInv,
  poseApply,
} from '../math';

export const RELATIONS = ['inside', 'on top of', 'above', 'below', 'on the left of', 'on the right of', 'near', 'blocking'] as const;
export type Relation = (typeof RELATIONS)[number];

export interface GeoObject {
  id: string;
  box: Aabb;
  /** Interior of a receptacle, if it is one. */
  interior?: Aabb | undefined;
  /** Tops things rest on (table tops); defaults to the box top. */
  surfaces?: Aabb[] | undefined;
  /** Furniture and appliances: never "on" or "in" anything. */
  fixed?: boolean;
  /**
   * Where the physics says it is (sim/world/location.ts): what it rests on or in
   * directly, and every container it is in through the chain of supports (an
   * apple in a bowl in the fridge is inside the fridge too). Absent for boxes a
   * test builds by hand, which fall back to the box heuristics below.
   */
  place?: { on?: string; in?: string; within: readonly string[]; free?: boolean } | undefined;
}

/** Tolerances, in metres. */
export const TOL = {
  contact: 0.02,
  near: 0.12,
  sideBySide: 0.6,
};

/** Share of a's volume that lies within b's interior (extended upward: bowls are open). */
export function insideFraction(a: Aabb, interior: Aabb): number {
  const grown: Aabb = {
    min: interior.min,
    max: { ...interior.max, y: interior.max.y + (interior.max.y - interior.min.y) * 0.5 },
  };
  const v = aabbVolume(a);
  return v > 0 ? aabbIntersection(a, grown) / v : 0;
}

export function isInside(a: GeoObject, b: GeoObject): boolean {
  if (a.place) return a.id !== b.id && a.place.within.includes(b.id);
  if (!b.interior || a.id === b.id || a.fixed) return false;
  const c = aabbCenter(a.box);
  const i = b.interior;
  const centreIn =
    c.x >= i.min.x - 0.01 &&
    c.x <= i.max.x + 0.01 &&
    c.z >= i.min.z - 0.01 &&
    c.z <= i.max.z + 0.01 &&
    c.y >= i.min.y - 0.01 &&
    c.y <= i.max.y + (i.max.y - i.min.y) * 0.5;
  return centreIn && insideFraction(a.box, i) >= 0.5;
}

function tops(b: GeoObject): Aabb[] {
  return b.surfaces && b.surfaces.length ? b.surfaces : [b.box];
}

export function isOnTopOf(a: GeoObject, b: GeoObject): boolean {
  if (a.place) return a.place.on === b.id && a.id !== b.id;
  if (a.id === b.id || a.fixed) return false;
  if (isInside(a, b)) return false;
  for (const s of tops(b)) {
    if (Math.abs(a.box.min.y - s.max.y) <= TOL.contact && footprintOverlap(a.box, s) >= 0.25) return true;
  }
  return false;
}

export function isAbove(a: GeoObject, b: GeoObject): boolean {
  if (a.id === b.id) return false;
  return a.box.min.y >= b.box.max.y - TOL.contact / 2 && footprintOverlap(a.box, b.box) > 0.05 && !isInside(a, b);
}

export function gap(a: Aabb, b: Aabb): number {
  const dx = Math.max(0, a.min.x - b.max.x, b.min.x - a.max.x);
  const dy = Math.max(0, a.min.y - b.max.y, b.min.y - a.max.y);
  const dz = Math.max(0, a.min.z - b.max.z, b.min.z - a.max.z);
  return Math.hypot(dx, dy, dz);
}

export function isNear(a: GeoObject, b: GeoObject): boolean {
  return a.id !== b.id && gap(a.box, b.box) <= TOL.near;
}

/**
 * Left/right as the robot sees it: compare box centres in the viewer's frame
 * (forward +X, left -Z). Objects must be side by side (similar height band,
 * within reach of each other) for the relation to mean anything.
 */
export function sideOf(a: GeoObject, b: GeoObject, viewer: Pose): 'left' | 'right' | undefined {
  if (a.id === b.id) return undefined;
  const inv = poseInv(viewer);
  const ca = poseApply(inv, aabbCenter(a.box));
  const cb = poseApply(inv, aabbCenter(b.box));
  // More than contact depth: a table top and the fruit on it touch, and are not side by side.
  const verticalOverlap =
    overlap1(a.box.min.y, a.box.max.y, b.box.min.y, b.box.max.y) > TOL.contact || Math.abs(a.box.min.y - b.box.min.y) < 0.1;
  if (!verticalOverlap) return undefined;
  if (Math.hypot(ca.x - cb.x, ca.z - cb.z) > TOL.sideBySide) return undefined;
  const lateral = cb.z - ca.z; // positive: a is further toward -Z, i.e. to the left
  const halfA = (a.box.max.z - a.box.min.z + a.box.max.x - a.box.min.x) / 4;
  const halfB = (b.box.max.z - b.box.min.z + b.box.max.x - b.box.min.x) / 4;
  const margin = Math.min(halfA, halfB) * 0.5;
  if (lateral > margin && Math.abs(lateral) >= Math.abs(ca.x - cb.x) * 0.5) return 'left';
  if (lateral < -margin && Math.abs(lateral) >= Math.abs(ca.x - cb.x) * 0.5) return 'right';
  return undefined;
}

/** Objects `a` that stand in relation `rel` to the reference `b` (RAIDER's check_obj_relationship). */
export function related(rel: Exclude<Relation, 'blocking'>, b: GeoObject, all: readonly GeoObject[], viewer: Pose): GeoObject[] {
  const out: GeoObject[] = [];
  for (const a of all) {
    if (a.id === b.id) continue;
    let yes = false;
    switch (rel) {
      case 'inside':
        yes = isInside(a, b);
        break;
      case 'on top of':
        yes = isOnTopOf(a, b);
        break;
      case 'above':
        yes = isAbove(a, b) && !isOnTopOf(a, b);
        break;
      case 'below':
        yes = isAbove(b, a) && !isOnTopOf(b, a) && !a.fixed;
        break;
      case 'on the left of':
        yes = sideOf(a, b, viewer) === 'left';
        break;
      case 'on the right of':
        yes = sideOf(a, b, viewer) === 'right';
        break;
      case 'near':
        yes = isNear(a, b);
        break;
    }
    if (yes) out.push(a);
  }
  const c = aabbCenter(b.box);
  return out.sort((x, y) => distTo(x, c) - distTo(y, c) || compareIds(x.id, y.id));
}

function distTo(o: GeoObject, p: Vec3): number {
  const c = aabbCenter(o.box);
  return Math.hypot(c.x - p.x, c.y - p.y, c.z - p.z);
}

/** The receptacle an object is in, if any (the innermost when nested). */
export function containerOf(a: GeoObject, all: readonly GeoObject[]): GeoObject | undefined {
  if (a.place) return a.place.in ? all.find((g) => g.id === a.place!.in) : undefined;
  const hits = all.filter((b) => isInside(a, b));
  hits.sort((x, y) => aabbVolume(x.interior!) - aabbVolume(y.interior!));
  return hits[0];
}

/** What an object rests on: the thing under it in contact (its container counts first). */
export function supportOf(a: GeoObject, all: readonly GeoObject[]): { id: string; relation: 'in' | 'on' } | undefined {
  if (a.place) return a.place.in ? { id: a.place.in, relation: 'in' } : a.place.on ? { id: a.place.on, relation: 'on' } : undefined;
  const c = containerOf(a, all);
  if (c) return { id: c.id, relation: 'in' };
  let best: { id: string; top: number } | undefined;
  for (const b of all) {
    if (b.id === a.id) continue;
    if (isOnTopOf(a, b)) {
      const top = Math.max(...tops(b).map((s) => s.max.y));
      if (!best || top > best.top) best = { id: b.id, top };
    }
  }
  return best ? { id: best.id, relation: 'on' } : undefined;
}
