// The head camera looks all the time, but a scene where nothing moved is not
// looked at again ray by ray: what was seen is seen again, with the time of
// now, exactly as a full look would record it. Anything perception reads that
// changes (a pose, a state set without a step, the belief written by a skill)
// makes the next look a full one; noisy detection draws on every look.
import { describe, expect, it } from 'vitest';
import { layoutWorld, tableLayout } from '../../test/fixtures/worlds';
import type { SceneInput } from '../../scenes/schema';
import { v3 } from '../math';
import type { SimWorld } from '../world/sim-world';
import { believedGeos } from './believed';
import { look, observe } from './observe';
import { sceneRevision } from './scene-revision';

const objects: SceneInput['objects'] = [
  { id: 'bowl_1', type: 'bowl', on: 'table_1', position: [0.3, 0, -0.2] },
  { id: 'plum_1', type: 'plum', in: 'bowl_1', position: [0.3, 0, -0.2] },
  { id: 'cup_1', type: 'cup', on: 'table_1', position: [0.2, 0, 0.15], state: { filled: true } },
  { id: 'wood_1', type: 'wooden_box', on: 'table_1', position: [0.4, 0, 0.15] },
];

/** Steps until no pose changes from one step to the next (everything asleep). */
function still(sim: SimWorld): void {
  let r = sceneRevision(sim);
  for (let i = 0, calm = 0; i < 3000 && calm < 30; i++) {
    sim.step();
    const n = sceneRevision(sim);
    calm = n === r ? calm + 1 : 0;
    r = n;
  }
}

/** Counts the sight rays cast from now on. */
function countRays(sim: SimWorld): { n: number } {
  const count = { n: 0 };
  const cast = sim.world.castRay.bind(sim.world);
  sim.world.castRay = (...a: Parameters<typeof cast>) => {
    count.n++;
    return cast(...a);
  };
  return count;
}

const records = (sim: SimWorld) => [...sim.belief.objects.values()].sort((a, b) => a.id.localeCompare(b.id));

describe('looking at a still scene', () => {
  it('sees again what it saw, with the time of now, without a ray, as a full look would', async () => {
    const sim = await layoutWorld(tableLayout(objects));
    still(sim);
    look(sim);
    const rays = countRays(sim);
    for (let i = 0; i < 10; i++) sim.step();
    look(sim);
    expect(rays.n).toBe(0);
    const renewed = records(sim);
    expect(renewed.map((o) => o.id)).toEqual(['bowl_1', 'cup_1', 'plum_1', 'wood_1']);
    for (const o of renewed) expect(o.time).toBe(sim.time);
    // A full look at the same world, with nothing cached, records the same.
    const fresh = await layoutWorld(tableLayout(objects));
    fresh.restore(sim.snapshot());
    const cast = countRays(fresh);
    observe(fresh);
    expect(cast.n).toBeGreaterThan(0);
    expect(records(fresh)).toEqual(renewed);
  });

  it('looks afresh when an object is moved by hand, a state is set without a step, or a skill forgets a record', async () => {
    const sim = await layoutWorld(tableLayout(objects));
    still(sim);
    look(sim);
    const before = believedGeos(sim).find((g) => g.id === 'wood_1')!.box;
    sim.setDown(sim.entity('wood_1'), v3(0.45, 0.9, -0.05));
    sim.refreshQueries();
    sim.step();
    look(sim);
    expect(sim.belief.get('wood_1')!.pose.p.z).toBeCloseTo(-0.05, 2);
    expect(believedGeos(sim).find((g) => g.id === 'wood_1')!.box.min.z).not.toBeCloseTo(before.min.z, 2);

    const r = sceneRevision(sim);
    sim.entity('cup_1').states.filled = false;
    expect(sceneRevision(sim)).not.toBe(r);

    still(sim);
    look(sim);
    sim.belief.forget('cup_1');
    sim.step();
    look(sim);
    expect(sim.belief.get('cup_1')?.time).toBe(sim.time);
  });

  it('draws detection noise on every look, still scene or not', async () => {
    const sim = await layoutWorld(tableLayout(objects), { noise: { detectionDropout: 0.3 } });
    still(sim);
    look(sim);
    const seeds: number[] = [];
    for (let i = 0; i < 5; i++) {
      sim.step();
      look(sim);
      seeds.push(sim.rng.seed);
    }
    expect(new Set(seeds).size).toBe(5);
  });
});
