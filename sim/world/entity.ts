// An Entity is one scene object in the physics world: its rigid body, its
// colliders, the moving part of an articulated thing (a door, a drawer) and its
// discrete states (open, on, sliced, ...).
import type { ObjectStates } from '../../scenes/schema';
import type { ResolvedObject } from '../../scenes/resolve';
import { type PrimitivePart, primitiveHalfExtents } from '../../scenes/shapes';
import { type Aabb, type Pose, type Quat, type Vec3, fromTuple, qEulerDeg, rotate, v3 } from '../math';

export interface DoorState {
  body: number;
  colliders: number[];
  prims: PrimitivePart[];
  /** Door-part primitives' AABB in the door body frame (origin at the pivot). */
  localAabb: Aabb;
  kind: 'hinge' | 'slide';
  /** Pivot in the owner's body frame. */
  pivot: Vec3;
  axis: Vec3;
  /** Fully open value: radians (hinge) or metres (slide). */
  openValue: number;
  /** Current value, 0 = closed. */
  value: number;
}

export interface Entity {
  id: string;
  spec: ResolvedObject;
  fixed: boolean;
  body: number;
  colliders: number[];
  /** Non-moving primitives, body frame. */
  prims: PrimitivePart[];
  localAabb: Aabb;
  door: DoorState | undefined;
  states: Required<ObjectStates>;
  /** Seconds an ongoing process (brewing, cooking, washing) has acted on this entity. */
  process: { kind: string; seconds: number } | undefined;
}

export function primitiveAabb(p: PrimitivePart): Aabb {
  const h = primitiveHalfExtents(p.geometry);
  const q = qEulerDeg(p.rotation);
  const c = fromTuple(p.position);
  return transformBox(c, q, v3(h[0], h[1], h[2]));
}

/** AABB of an oriented box (centre, rotation, half extents). */
export function transformBox(center: Vec3, q: Quat, half: Vec3): Aabb {
  // |R| * h gives the half extents of the rotated box's AABB.
  const ex = rotate(q, v3(1, 0, 0));
  const ey = rotate(q, v3(0, 1, 0));
  const ez = rotate(q, v3(0, 0, 1));
  const hx = Math.abs(ex.x) * half.x + Math.abs(ey.x) * half.y + Math.abs(ez.x) * half.z;
  const hy = Math.abs(ex.y) * half.x + Math.abs(ey.y) * half.y + Math.abs(ez.y) * half.z;
  const hz = Math.abs(ex.z) * half.x + Math.abs(ey.z) * half.y + Math.abs(ez.z) * half.z;
  return { min: v3(center.x - hx, center.y - hy, center.z - hz), max: v3(center.x + hx, center.y + hy, center.z + hz) };
}

export function unionAll(boxes: Aabb[]): Aabb {
  if (boxes.length === 0) return { min: v3(), max: v3() };
  const out = { min: { ...boxes[0]!.min }, max: { ...boxes[0]!.max } };
  for (const b of boxes) {
    out.min.x = Math.min(out.min.x, b.min.x);
    out.min.y = Math.min(out.min.y, b.min.y);
    out.min.z = Math.min(out.min.z, b.min.z);
    out.max.x = Math.max(out.max.x, b.max.x);
    out.max.y = Math.max(out.max.y, b.max.y);
    out.max.z = Math.max(out.max.z, b.max.z);
  }
  return out;
}

/** World AABB of a local AABB carried by a pose. */
export function aabbToWorld(local: Aabb, pose: Pose): Aabb {
  const c = v3((local.min.x + local.max.x) / 2, (local.min.y + local.max.y) / 2, (local.min.z + local.max.z) / 2);
  const h = v3((local.max.x - local.min.x) / 2, (local.max.y - local.min.y) / 2, (local.max.z - local.min.z) / 2);
  const wc = rotate(pose.q, c);
  return transformBox(v3(wc.x + pose.p.x, wc.y + pose.p.y, wc.z + pose.p.z), pose.q, h);
}

export interface BoxTuple {
  center: readonly [number, number, number];
  size: readonly [number, number, number];
}

export function localBox(b: BoxTuple): Aabb {
  return {
    min: v3(b.center[0] - b.size[0] / 2, b.center[1] - b.size[1] / 2, b.center[2] - b.size[2] / 2),
    max: v3(b.center[0] + b.size[0] / 2, b.center[1] + b.size[1] / 2, b.center[2] + b.size[2] / 2),
  };
}

/** A receptacle's interior in world coordinates for the entity's pose (undefined when it has none). */
export function interiorAt(e: Entity, pose: Pose): Aabb | undefined {
  const r = e.spec.receptacle;
  return r ? aabbToWorld(localBox(r.interior), pose) : undefined;
}

/** Support surfaces (table tops) in world coordinates for the entity's pose. */
export function surfacesAt(e: Entity, pose: Pose): Aabb[] {
  return e.spec.surfaces.map((s) => aabbToWorld(localBox(s), pose));
}
