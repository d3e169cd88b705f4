import { NullEngine } from '@babylonjs/core/Engines/nullEngine';
import fc from 'fast-check';
import type { Mesh } from '@babylonjs/core/Meshes/mesh';
import { Scene } from '@babylonjs/core/scene';
import { afterEach, describe, expect, it } from 'vitest';
import type { BodyMeta, SceneMeta } from '../../../contract/schemas';
import { Batches } from './world-batch';
import { Builder, COARSE, FINE, facets } from './world-build';

describe('facets of round shapes', () => {
  it('a field cuts its plants and posts coarser (fewer vertices), never a large shape such as a crown', () => {
    const post = facets(COARSE, 0.05);
    expect(post.sphere).toBeLessThan(FINE.sphere);
    expect(post.cylinder).toBeLessThan(FINE.cylinder);
    expect(post.capsule).toBeLessThan(FINE.capsule);
    expect(facets(COARSE, 2)).toEqual(FINE);
  });

  it('other scenes keep every shape fine', () => {
    for (const r of [0.01, 0.2, 2]) expect(facets(FINE, r)).toEqual(FINE);
  });
});

describe('a location that shares its id with an object ("counter_1" is a counter and the place in front of it)', () => {
  const engines: NullEngine[] = [];
  afterEach(() => {
    for (const e of engines.splice(0)) e.dispose();
  });

  it('keeps the id for the body: its node, its batch, its frozen matrix; the marker is batched and highlighted too', () => {
    const engine = new NullEngine();
    engines.push(engine);
    const scene = new Scene(engine);
    const batched = new Batches();
    const b = new Builder(scene, 1, batched, FINE);
    const objects = [
      { id: 'counter_1', body: bodyAt(1, 1, null), door: null },
      { id: 'counter_2', body: bodyAt(2, 1, null), door: null },
      { id: 'cup_1', body: bodyAt(1.2, 1.2, 0), door: null },
    ];
    for (const o of objects) b.body(o.id, { id: o.id, label: o.id }, o.body);
    const meta = {
      objects,
      locations: [
        { id: 'counter_1', title: null, kind: 'surface', position: [1, 0, 1.6], yawDeg: 0 },
        { id: 'kitchen_centre', title: null, kind: 'floor', position: [2, 0, 2], yawDeg: 0 },
      ],
    } as unknown as SceneMeta;
    b.locations(meta);
    b.freezeStatic(meta);
    batched.add(b.restingMeshes(meta), b.movableNodes(meta));

    const node = b.graph.nodes.get('counter_1')!;
    expect(node.getChildMeshes(false).map((m) => m.name)).toEqual(['counter_1:body']);
    expect(node.isWorldMatrixFrozen).toBe(true);
    const body = scene.getMeshByName('counter_1:body')!;
    // Drawn in its cell's batch with the other bodies, not on its own.
    expect(batched.proxies.has(body)).toBe(true);
    expect(batched.batchOf(body as Mesh)).not.toBeNull();
    const marker = scene.getMeshByName('loc:counter_1:disc_merged')!;
    expect(batched.proxies.has(marker)).toBe(true);
    expect(b.graph.meshesById.get('counter_1')?.map((m) => m.name)).toEqual(['counter_1:body', 'loc:counter_1:disc_merged']);
    // A location no object shares keeps its own node.
    expect(b.graph.nodes.get('kitchen_centre')?.name).toBe('loc:kitchen_centre');
  });
});

describe('scene graph ids over random layouts (objects and locations drawn from one pool of ids)', () => {
  it('every object keeps its id, every body and marker is handed to the batches once, every still node is frozen', () => {
    const ids = ['counter_1', 'table_1', 'shelf', 'bowl_1', 'dock'];
    const layout = fc.record({
      objects: fc.uniqueArray(
        fc.record({ id: fc.constantFrom(...ids), x: fc.double({ min: -8, max: 8, noNaN: true }), moves: fc.boolean() }),
        { selector: (o) => o.id, minLength: 1 },
      ),
      locations: fc.uniqueArray(
        fc.record({ id: fc.constantFrom(...ids, 'kitchen_centre'), x: fc.double({ min: -8, max: 8, noNaN: true }) }),
        {
          selector: (l) => l.id,
        },
      ),
    });
    fc.assert(
      fc.property(layout, ({ objects, locations }) => {
        const engine = new NullEngine();
        try {
          const scene = new Scene(engine);
          const b = new Builder(scene, objects.length, new Batches(), FINE);
          const objs = objects.map((o, i) => ({ id: o.id, body: bodyAt(o.x, 1, o.moves ? i : null), door: null }));
          for (const o of objs) b.body(o.id, { id: o.id, label: o.id }, o.body);
          const meta = {
            objects: objs,
            locations: locations.map((l) => ({ id: l.id, title: null, kind: 'surface', position: [l.x, 0, 2], yawDeg: 0 })),
          } as unknown as SceneMeta;
          b.locations(meta);
          b.freezeStatic(meta);
          const resting = b.restingMeshes(meta).map((m) => m.name);
          expect(new Set(resting).size).toBe(resting.length);
          for (const o of objs) {
            expect(
              b.graph.nodes
                .get(o.id)
                ?.getChildMeshes(false)
                .map((m) => m.name),
            ).toEqual([`${o.id}:body`]);
            expect(resting).toContain(`${o.id}:body`);
            expect(b.graph.nodes.get(o.id)!.isWorldMatrixFrozen).toBe(o.body.stream === null);
          }
          for (const l of locations) {
            expect(resting).toContain(`loc:${l.id}:disc_merged`);
            expect(scene.getTransformNodeByName(`loc:${l.id}`)!.isWorldMatrixFrozen).toBe(true);
          }
        } finally {
          engine.dispose();
        }
      }),
      { numRuns: 60, seed: 7 },
    );
  });
});

function bodyAt(x: number, z: number, stream: number | null): BodyMeta {
  return {
    stream,
    position: [x, 0.45, z],
    rotation: [0, 0, 0, 1],
    parts: [
      { name: 'top', geometry: { shape: 'box', size: [0.6, 0.9, 0.6] }, position: [0, 0, 0], rotation: [0, 0, 0, 1], color: '#a0a0a0' },
    ],
    colliders: [],
  };
}
