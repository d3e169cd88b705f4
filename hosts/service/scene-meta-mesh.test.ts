// Mesh objects in the scene metadata the view draws: their real triangles as
// the visual part (valid under the contract's mesh limits), and a decomposed
// mesh's collider as each of its convex parts for the collider view.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SceneMeta } from '../../contract/schemas';
import { loadScene } from '../../scenes/load';
import { SimWorld } from '../../sim/world/sim-world';
import { buildSceneMeta } from './scene-meta';

describe('scene metadata of mesh objects', () => {
  it('carries the triangles to draw and the convex parts that collide', async () => {
    const resolved = await loadScene(join(import.meta.dirname, '../../test/fixtures/meshes/mesh-scene.json'));
    const sim = await SimWorld.create(resolved);
    const meta = SceneMeta.parse(buildSceneMeta(sim, 1).meta);
    sim.dispose();
    const bowl = meta.objects.find((o) => o.id === 'bowl_1')!;
    const part = bowl.body.parts[0]!;
    const source = resolved.objects.find((o) => o.id === 'bowl_1')!.parts[0]!;
    if (part.geometry.shape !== 'mesh' || source.shape !== 'mesh') throw new Error('the bowl is not drawn as a mesh');
    expect(part.geometry.positions).toEqual(source.positions);
    expect(part.geometry.indices).toEqual(source.indices);
    expect(part.color).toBe('#3f7fbf');
    expect(bowl.body.colliders.length).toBeGreaterThan(1);
    expect(bowl.body.colliders.every((c) => c.geometry.shape === 'mesh')).toBe(true);
    const block = meta.objects.find((o) => o.id === 'block_1')!;
    expect(block.body.colliders).toHaveLength(1);
    expect(block.size[0]).toBeCloseTo(0.05, 5);
  }, 30_000);
});
