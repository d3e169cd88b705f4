// Nobody puts a thing through a shut door: a person's move asked for a spot
// inside a closed appliance or cupboard sets the object on top of it instead.
// The property aims moves at random spots in and around every closed storage.
import fc from 'fast-check';
import { beforeAll, expect, it } from 'vitest';
import { sceneWorld } from '../../test/fixtures/worlds';
import { fuzzRuns, fuzzSeed } from '../../test/fuzz/support/budget';
import { type Aabb, aabbCenter, aabbContainsPoint } from '../math';
import type { SimWorld } from './sim-world';

/** The closed storage (door or drawer shut) whose inside holds the object's centre, if any. */
function shutInside(sim: SimWorld, id: string): string | undefined {
  const c = aabbCenter(sim.aabb(id));
  for (const e of sim.entities.values()) {
    if (e.id === id || !e.door || e.states.open) continue;
    const inside: Aabb | undefined = sim.interior(e.id);
    if (inside && aabbContainsPoint(inside, c)) return e.id;
  }
  return undefined;
}

let sim: SimWorld;
let start: ReturnType<SimWorld['snapshot']>;
beforeAll(async () => {
  sim = await sceneWorld('kitchen');
  start = sim.snapshot();
});

it('a person putting the coke can into the closed microwave sets it on top of the microwave', () => {
  sim.restore(start);
  expect(sim.entity('microwave_1').states.open).toBe(false);
  const inside = sim.interior('microwave_1')!;
  const c = aabbCenter(inside);
  sim.inject({ type: 'object_moved', object: 'coke_can_1', to: [c.x, inside.min.y + 0.01, c.z], by: 'a person' });
  expect(shutInside(sim, 'coke_can_1')).toBeUndefined();
  expect(sim.aabb('coke_can_1').min.y).toBeGreaterThan(sim.aabb('microwave_1').max.y - 0.01);
});

it('property: no move ends inside a closed storage', () => {
  const closed = [...sim.entities.values()].filter((e) => e.door && !e.states.open && sim.interior(e.id)).map((e) => e.id);
  const movable = [...sim.entities.values()].filter((e) => !e.fixed).map((e) => e.id);
  expect(closed.length).toBeGreaterThan(1);
  fc.assert(
    fc.property(
      fc.constantFrom(...closed),
      fc.constantFrom(...movable),
      fc.double({ min: 0, max: 1, noNaN: true }),
      fc.double({ min: 0, max: 1, noNaN: true }),
      fc.double({ min: 0, max: 1, noNaN: true }),
      (storage, object, fx, fy, fz) => {
        sim.restore(start);
        const b = sim.interior(storage)!;
        const to: [number, number, number] = [
          b.min.x + fx * (b.max.x - b.min.x),
          b.min.y + fy * (b.max.y - b.min.y),
          b.min.z + fz * (b.max.z - b.min.z),
        ];
        try {
          sim.inject({ type: 'object_moved', object, to, by: 'a person' });
        } catch {
          // No free height above the spot: refused, and the object was not moved.
          return;
        }
        expect(shutInside(sim, object), `${object} moved to ${to.map((v) => v.toFixed(2)).join(', ')}`).toBeUndefined();
      },
    ),
    { numRuns: fuzzRuns(25), seed: fuzzSeed(35) },
  );
});
