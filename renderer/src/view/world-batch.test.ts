import { NullEngine } from '@babylonjs/core/Engines/nullEngine';
import { StandardMaterial } from '@babylonjs/core/Materials/standardMaterial';
import { Quaternion } from '@babylonjs/core/Maths/math.vector';
import { CreateBox } from '@babylonjs/core/Meshes/Builders/boxBuilder';
import type { Mesh } from '@babylonjs/core/Meshes/mesh';
import { TransformNode } from '@babylonjs/core/Meshes/transformNode';
import { Scene } from '@babylonjs/core/scene';
import { afterEach, describe, expect, it } from 'vitest';
import { Batches, CELL_M, cellKey } from './world-batch';

const engines: NullEngine[] = [];
afterEach(() => {
  for (const e of engines.splice(0)) e.dispose();
});

function world() {
  const engine = new NullEngine();
  engines.push(engine);
  const scene = new Scene(engine);
  const mat = new StandardMaterial('body-mat', scene);
  /** A 0.2 m box body standing at (x, z), as the scene builder makes one: a node and its mesh. */
  const body = (id: string, x: number, z: number): { node: TransformNode; mesh: Mesh } => {
    const node = new TransformNode(id, scene);
    node.position.set(x, 0, z);
    node.rotationQuaternion = Quaternion.Identity();
    const mesh = CreateBox(`${id}:body`, { size: 0.2 }, scene);
    mesh.parent = node;
    mesh.material = mat;
    return { node, mesh };
  };
  return { scene, body };
}

describe('Batches', () => {
  it('merges bodies per cell: a field corner is one batch, the far corner another, each as compact as its cell', () => {
    const { body } = world();
    const near = [body('a', 0.5, 0.5), body('b', 1, 2), body('c', 5, 5)];
    const far = [body('d', 30, 20), body('e', 31, 21)];
    const alone = body('f', -20, 10);
    const b = new Batches();
    const made = b.add([...near, ...far, alone].map((x) => x.mesh));
    expect(made).toHaveLength(2);
    expect(b.batchOf(near[0]!.mesh)).toBe(b.batchOf(near[2]!.mesh));
    expect(b.batchOf(far[0]!.mesh)).not.toBe(b.batchOf(near[0]!.mesh));
    // Alone in its cell: drawn as itself.
    expect(b.batchOf(alone.mesh)).toBeNull();
    expect(alone.mesh.isVisible).toBe(true);
    for (const batch of made) {
      const box = batch.getBoundingInfo().boundingBox;
      expect(box.maximumWorld.x - box.minimumWorld.x).toBeLessThanOrEqual(CELL_M + 0.2);
      expect(box.maximumWorld.z - box.minimumWorld.z).toBeLessThanOrEqual(CELL_M + 0.2);
    }
    // The batch draws what its members drew; they stay as undrawn stand-ins.
    expect(b.batchOf(far[0]!.mesh)!.getTotalVertices()).toBe(far[0]!.mesh.getTotalVertices() * 2);
    for (const x of [...near, ...far]) {
      expect(x.mesh.isVisible).toBe(false);
      expect(b.proxies.has(x.mesh)).toBe(true);
    }
  });

  it('a moved body leaves its batch: its cell is merged again without it, and it is drawn on its own', () => {
    const { body } = world();
    const bodies = [body('a', 0.5, 0.5), body('b', 1, 2), body('c', 2, 1)];
    const changes: Array<{ made: number; dropped: number; freed: string[] }> = [];
    const b = new Batches(CELL_M, (made, dropped, freed) =>
      changes.push({ made: made.length, dropped: dropped.length, freed: freed.map((m) => m.name) }),
    );
    b.add(
      bodies.map((x) => x.mesh),
      new Set(bodies.map((x) => x.node)),
    );
    const before = b.batchOf(bodies[0]!.mesh)!;
    // Settling by a millimetre keeps it in.
    bodies[0]!.node.position.y += 0.001;
    expect(b.releaseMoved()).toBe(0);
    bodies[0]!.node.position.x += 0.4;
    expect(b.releaseMoved()).toBe(1);
    expect(bodies[0]!.mesh.isVisible).toBe(true);
    expect(b.proxies.has(bodies[0]!.mesh)).toBe(false);
    expect(b.batchOf(bodies[0]!.mesh)).toBeNull();
    expect(before.isDisposed()).toBe(true);
    expect(b.batches.has(before)).toBe(false);
    const after = b.batchOf(bodies[1]!.mesh)!;
    expect(after.getTotalVertices()).toBe(bodies[1]!.mesh.getTotalVertices() * 2);
    expect(changes.at(-1)).toEqual({ made: 1, dropped: 1, freed: ['a:body'] });
    // Turning counts as moving; the last one left in the cell is drawn as itself.
    bodies[1]!.node.rotationQuaternion = Quaternion.RotationYawPitchRoll(0.2, 0, 0);
    expect(b.releaseMoved()).toBe(1);
    expect(b.batches.size).toBe(0);
    expect(bodies.every((x) => x.mesh.isVisible)).toBe(true);
    expect(changes.at(-1)).toEqual({ made: 0, dropped: 1, freed: ['b:body', 'c:body'] });
  });

  it('keeps still bodies (not watched) in their batch whatever happens to their nodes', () => {
    const { body } = world();
    const bodies = [body('a', 0.5, 0.5), body('b', 1, 2)];
    const b = new Batches();
    b.add(bodies.map((x) => x.mesh));
    bodies[0]!.node.position.x += 1;
    expect(b.releaseMoved()).toBe(0);
    expect(b.batchOf(bodies[0]!.mesh)).not.toBeNull();
  });
});

describe('cellKey', () => {
  it('splits the floor into squares of the cell size, negative sides included', () => {
    expect(cellKey(0, 0)).toBe('0,0');
    expect(cellKey(CELL_M - 0.01, 0.1)).toBe('0,0');
    expect(cellKey(CELL_M, 0)).toBe('1,0');
    expect(cellKey(-0.01, -CELL_M - 0.01)).toBe('-1,-2');
  });
});
