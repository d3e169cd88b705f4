// A convex hull read back for drawing (the collider view, the camera picture) is the
// hull's faces, not the points it was made from: a point inside the hull is no corner.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fuzzRuns, fuzzSeed } from '../../test/fuzz/support/budget';
import { loadRapier } from '../rapier';
import { colliderShape, shapeGeometries } from './body-shapes';

describe('a convex hull read back', () => {
  it("gives the hull's corners and faces; an inner point of its input is left out", async () => {
    const R = await loadRapier();
    const world = new R.World({ x: 0, y: -9.81, z: 0 });
    const cube: number[] = [];
    for (const x of [0, 1]) for (const y of [0, 1]) for (const z of [0, 1]) cube.push(x, y, z);
    const c = world.createCollider(R.ColliderDesc.convexHull(new Float32Array([...cube, 0.5, 0.5, 0.5]))!);
    const [part] = shapeGeometries(colliderShape(c));
    world.free();
    if (part?.geometry.shape !== 'mesh') throw new Error('not read as a mesh');
    const { positions, indices } = part.geometry;
    const corners = new Set<string>();
    for (const i of indices) corners.add(positions.slice(i * 3, i * 3 + 3).join(','));
    expect(corners.size).toBe(8);
    expect(corners.has('0.5,0.5,0.5')).toBe(false);
    expect(indices.length / 3).toBeGreaterThanOrEqual(12);
  });

  it('for any cloud of points, every input point lies on the inner side of every face read back', async () => {
    const R = await loadRapier();
    const coord = fc.double({ min: -1, max: 1, noNaN: true });
    fc.assert(
      fc.property(fc.array(fc.tuple(coord, coord, coord), { minLength: 1, maxLength: 40 }), (extra) => {
        // A tetrahedron keeps every cloud solid (a flat one has no hull); the random points lie in or around it.
        const cloud: Array<readonly number[]> = [[-1, -1, -1], [1, -1, -1], [0, 1, -1], [0, 0, 1], ...extra];
        const world = new R.World({ x: 0, y: 0, z: 0 });
        try {
          const desc = R.ColliderDesc.convexHull(new Float32Array(cloud.flat()));
          if (!desc) throw new Error('no hull of a solid cloud');
          const [part] = shapeGeometries(colliderShape(world.createCollider(desc)));
          if (part?.geometry.shape !== 'mesh') throw new Error('not read as a mesh');
          const { positions: v, indices } = part.geometry;
          const at = (i: number) => [v[i * 3]!, v[i * 3 + 1]!, v[i * 3 + 2]!] as const;
          const inside = [0, 1, 2].map((k) => cloud.reduce((s, p) => s + p[k]!, 0) / cloud.length);
          for (let f = 0; f < indices.length; f += 3) {
            const [a, b, d] = [at(indices[f]!), at(indices[f + 1]!), at(indices[f + 2]!)];
            const u = [b[0] - a[0], b[1] - a[1], b[2] - a[2]];
            const w = [d[0] - a[0], d[1] - a[1], d[2] - a[2]];
            const n = [u[1]! * w[2]! - u[2]! * w[1]!, u[2]! * w[0]! - u[0]! * w[2]!, u[0]! * w[1]! - u[1]! * w[0]!];
            const len = Math.hypot(n[0]!, n[1]!, n[2]!);
            if (len < 1e-9) continue;
            const side = (p: readonly number[]) => (n[0]! * (p[0]! - a[0]) + n[1]! * (p[1]! - a[1]) + n[2]! * (p[2]! - a[2])) / len;
            // Faces may be wound either way: the cloud's centroid says which side is in.
            const sign = side(inside) <= 0 ? 1 : -1;
            for (const p of cloud) expect(sign * side(p)).toBeLessThan(1e-4);
          }
        } finally {
          world.free();
        }
      }),
      { numRuns: fuzzRuns(60), seed: fuzzSeed(4242) },
    );
  });
});
