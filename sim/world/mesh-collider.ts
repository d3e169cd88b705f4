// Colliders of mesh parts: one convex hull, or a convex decomposition (V-HACD,
// Rapier's ColliderDesc.convexDecomposition) for concave shapes. Decomposing
// takes most of a second, so each result is kept for the process, by the
// mesh's content, and a reset or a second object of the same type reuses it.
import type { MeshPrimitive } from '../../scenes/shapes';
import { SceneDataError } from '../../scenes/validation';
import type { Rapier, RAPIER } from '../rapier';

/** Voxels along the longest side: detail enough for a cup's wall at a fraction of the default's time. */
const VHACD_RESOLUTION = 32;
const CACHE_SIZE = 32;
// Per Rapier module: a shape is made of one module's objects (the SIMD and scalar builds may both be loaded).
const caches = new WeakMap<Rapier, Map<string, RAPIER.Shape>>();

function contentKey(m: MeshPrimitive): string {
  // FNV-1a over the float bits and indices: cheap, and meshes that differ anywhere almost surely differ here.
  let h = 0x811c9dc5;
  const mix = (x: number): void => {
    h = Math.imul(h ^ x, 0x01000193) >>> 0;
  };
  for (const v of new Uint32Array(new Float32Array(m.positions).buffer)) mix(v);
  for (const i of m.indices) mix(i);
  return `${m.collision}:${m.maxParts}:${m.positions.length}:${m.indices.length}:${h}`;
}

function compute(R: Rapier, m: MeshPrimitive): RAPIER.Shape {
  const vertices = new Float32Array(m.positions);
  if (m.collision === 'hull') {
    const d = R.ColliderDesc.convexHull(vertices);
    if (!d) throw new SceneDataError(m.origin, ['no convex hull can be made of its vertices (they span no volume)']);
    return d.shape;
  }
  let d: RAPIER.ColliderDesc | null;
  try {
    d = R.ColliderDesc.convexDecomposition(vertices, new Uint32Array(m.indices), {
      resolution: VHACD_RESOLUTION,
      maxConvexHulls: m.maxParts,
    });
  } catch (e) {
    throw new SceneDataError(m.origin, [`the convex decomposition failed (${String(e)}); try "collision": "hull"`]);
  }
  if (!d)
    throw new SceneDataError(m.origin, ['the convex decomposition made no convex part (is the mesh closed?); try "collision": "hull"']);
  return d.shape;
}

/** A collider description of the mesh, its shape computed once per content. */
export function meshColliderDesc(R: Rapier, m: MeshPrimitive): RAPIER.ColliderDesc {
  const key = contentKey(m);
  let shapes = caches.get(R);
  if (!shapes) caches.set(R, (shapes = new Map()));
  let shape = shapes.get(key);
  if (!shape) {
    shape = compute(R, m);
    if (shapes.size >= CACHE_SIZE) shapes.delete(shapes.keys().next().value!);
    shapes.set(key, shape);
  }
  return new R.ColliderDesc(shape);
}
