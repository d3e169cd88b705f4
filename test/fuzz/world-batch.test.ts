// Batching bodies at rest per cell (renderer/src/view/world-batch.ts): whatever
// the layout, each body is drawn in the batch of the cell its origin falls in,
// a batch never spans two cells, and a body alone in its cell is drawn as itself.
import { NullEngine } from '@babylonjs/core/Engines/nullEngine';
import { StandardMaterial } from '@babylonjs/core/Materials/standardMaterial';
import { CreateBox } from '@babylonjs/core/Meshes/Builders/boxBuilder';
import { TransformNode } from '@babylonjs/core/Meshes/transformNode';
import { Scene } from '@babylonjs/core/scene';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Batches, cellKey } from '../../renderer/src/view/world-batch';
import { fuzzRuns, fuzzSeed } from './support/budget';

const spot = fc.tuple(fc.double({ min: -40, max: 40, noNaN: true }), fc.double({ min: -40, max: 40, noNaN: true }));

describe('batches per cell (generated layouts)', () => {
  it('puts every body in the batch of its cell, and every batch holds one cell', () => {
    fc.assert(
      fc.property(fc.array(spot, { minLength: 1, maxLength: 12 }), (spots) => {
        const engine = new NullEngine();
        try {
          const scene = new Scene(engine);
          const mat = new StandardMaterial('body-mat', scene);
          const bodies = spots.map(([x, z], i) => {
            const node = new TransformNode(`o${i}`, scene);
            node.position.set(x, 0, z);
            const mesh = CreateBox(`o${i}:body`, { size: 0.2 }, scene);
            mesh.parent = node;
            mesh.material = mat;
            return { mesh, key: cellKey(x, z) };
          });
          const b = new Batches();
          b.add(bodies.map((x) => x.mesh));
          const perCell = new Map<string, number>();
          for (const x of bodies) perCell.set(x.key, (perCell.get(x.key) ?? 0) + 1);
          expect(b.batches.size).toBe([...perCell.values()].filter((n) => n > 1).length);
          for (const x of bodies) {
            const batch = b.batchOf(x.mesh);
            expect(batch !== null).toBe(perCell.get(x.key)! > 1);
            expect(x.mesh.isVisible).toBe(batch === null);
            for (const y of bodies) if (batch && b.batchOf(y.mesh) === batch) expect(y.key).toBe(x.key);
          }
        } finally {
          engine.dispose();
        }
      }),
      { numRuns: fuzzRuns(30), seed: fuzzSeed(38) },
    );
  });
});
