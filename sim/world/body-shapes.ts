// The colliders of a rigid body as plain primitives in the body's frame, read
// back from Rapier: what the physics really collides with (a convex hull as its triangles). The app's collider
// debug view draws these, and the robot is drawn from them (its links have no
// separate visual description), so the picture cannot drift from the physics.
import type { Primitive } from '../../scenes/shapes';
import { type Quat, type Vec3, poseApply, poseInv, qConj, qMul } from '../math';
import type { Collider } from '@dimforge/rapier3d-simd-compat';
import type { SimWorld } from './sim-world';

/** A convex hull (a link of a described robot from its mesh) as triangles: x, y, z per vertex, three indices per face. */
export interface MeshShape {
  shape: 'mesh';
  positions: number[];
  indices: number[];
}

export interface BodyShape {
  geometry: Primitive | MeshShape;
  position: [number, number, number];
  rotation: [number, number, number, number];
}

// Rapier's ShapeType values for the shapes the sim builds (ball, cuboid, capsule, cylinder).
const BALL = 0;
const CUBOID = 1;
const CAPSULE = 2;
const COMPOUND = 8;
const CONVEX_POLYHEDRON = 9;
const CYLINDER = 10;

export interface RapierShape {
  type: number;
  radius?: number;
  halfHeight?: number;
  halfExtents?: Vec3;
  vertices?: Float32Array;
  indices?: Uint32Array | null;
  shapes?: RapierShape[];
  positions?: Vec3[];
  rotations?: Quat[];
}

const IDENTITY: Quat = { x: 0, y: 0, z: 0, w: 1 };

/**
 * A collider's shape as Rapier describes it. A hull's own shape keeps the points it was made from;
 * the collider gives the hull's faces (a compound's parts carry their own).
 */
export function colliderShape(c: Collider): RapierShape {
  const shape = c.shape as unknown as RapierShape;
  return shape.type === CONVEX_POLYHEDRON ? { type: CONVEX_POLYHEDRON, vertices: c.vertices(), indices: c.indices() ?? null } : shape;
}

/** A shape as primitives in its own frame; a compound (a decomposed mesh) as each of its convex parts. */
export function shapeGeometries(shape: RapierShape): Array<{ geometry: Primitive | MeshShape; p: Vec3; q: Quat }> {
  if (shape.type === COMPOUND && shape.shapes) {
    return shape.shapes.flatMap((sub, k) => {
      const g = shapeGeometry(sub);
      return g ? [{ geometry: g, p: shape.positions?.[k] ?? { x: 0, y: 0, z: 0 }, q: shape.rotations?.[k] ?? IDENTITY }] : [];
    });
  }
  const g = shapeGeometry(shape);
  return g ? [{ geometry: g, p: { x: 0, y: 0, z: 0 }, q: IDENTITY }] : [];
}

function shapeGeometry(shape: RapierShape): Primitive | MeshShape | undefined {
  if (shape.type === CUBOID && shape.halfExtents) {
    const h = shape.halfExtents;
    return { shape: 'box', size: [h.x * 2, h.y * 2, h.z * 2] };
  } else if (shape.type === BALL && shape.radius !== undefined) {
    return { shape: 'sphere', radius: shape.radius };
  } else if (shape.type === CAPSULE && shape.radius !== undefined && shape.halfHeight !== undefined) {
    return { shape: 'capsule', radius: shape.radius, height: shape.halfHeight * 2 };
  } else if (shape.type === CYLINDER && shape.radius !== undefined && shape.halfHeight !== undefined) {
    return { shape: 'cylinder', radius: shape.radius, height: shape.halfHeight * 2 };
  } else if (shape.type === CONVEX_POLYHEDRON && shape.vertices) {
    // Without indices, the vertices are a triangle soup (three a face).
    const positions = Array.from(shape.vertices);
    const indices = shape.indices ? Array.from(shape.indices) : positions.slice(0, positions.length / 3).map((_, i) => i);
    return { shape: 'mesh', positions, indices };
  }
  return undefined;
}

export function bodyShapes(sim: SimWorld, handle: number): BodyShape[] {
  const body = sim.world.getRigidBody(handle);
  const t = body.translation();
  const r = body.rotation();
  const inv = poseInv({ p: { x: t.x, y: t.y, z: t.z }, q: { x: r.x, y: r.y, z: r.z, w: r.w } });
  const out: BodyShape[] = [];
  for (let i = 0; i < body.numColliders(); i++) {
    const c = body.collider(i);
    const parts = shapeGeometries(colliderShape(c));
    if (!parts.length) continue;
    // The offset from the parent when Rapier has it; else the world pose taken into the body frame.
    const lp = c.translationWrtParent();
    const lq = c.rotationWrtParent();
    let p: Vec3;
    let q: Quat;
    if (lp && lq) {
      p = { x: lp.x, y: lp.y, z: lp.z };
      q = { x: lq.x, y: lq.y, z: lq.z, w: lq.w };
    } else {
      const cp = c.translation();
      const cq = c.rotation();
      p = poseApply(inv, { x: cp.x, y: cp.y, z: cp.z });
      q = qMul(qConj({ x: r.x, y: r.y, z: r.z, w: r.w }), { x: cq.x, y: cq.y, z: cq.z, w: cq.w });
    }
    for (const part of parts) {
      const pp = poseApply({ p, q }, part.p);
      const pq = qMul(q, part.q);
      out.push({ geometry: part.geometry, position: [pp.x, pp.y, pp.z], rotation: [pq.x, pq.y, pq.z, pq.w] });
    }
  }
  return out;
}
