// A perceived object pushed along where it stands during a skill is said, with
// how far, and the belief follows it (the next pick aims where it is now). The
// property shoves a random perceived box by a random distance along the table.
import fc from 'fast-check';
import { expect, it } from 'vitest';
import { sceneWorld } from '../../test/fixtures/worlds';
import { fuzzRuns, fuzzSeed } from '../../test/fuzz/support/budget';
import { dist, v3 } from '../math';
import { observe } from '../perception/observe';
import type { SimWorld } from '../world/sim-world';
import { SHOVE } from './incidents';
import { moveArm } from './posture';

/** Slides an object along the table by (dx, dz) a little after the skill starts, as an arm brushing it would, with no event. */
function shoveDuring(sim: SimWorld, object: string, dx: number, dz: number): void {
  const at = sim.time + 0.2;
  let done = false;
  sim.processHooks.push((s) => {
    if (done || s.time < at) return;
    done = true;
    const b = s.world.getRigidBody(s.entity(object).body);
    const p = b.translation();
    b.setTranslation(v3(p.x + dx, p.y + 0.002, p.z + dz), true);
    b.setLinvel(v3(), true);
    s.refreshQueries();
  });
}

it('a perceived box shoved 19 cm during a skill is said, with how far, and the belief moves with it', async () => {
  const sim = await sceneWorld('tabletop/boxes');
  observe(sim);
  expect(sim.belief.has('cardboard_box_1')).toBe(true);
  const before = sim.pose('cardboard_box_1').p;
  shoveDuring(sim, 'cardboard_box_1', 0, -0.19);
  const r = await moveArm(sim, 'transport');
  const said = (r.incidents ?? []).join(' ');
  const moved = dist(before, sim.pose('cardboard_box_1').p);
  expect(moved).toBeGreaterThan(0.15);
  expect(said).toMatch(new RegExp(`cardboard_box_1 was pushed ${Math.round(moved * 100)} cm along table_1`));
  // The robot now believes it where it is: a pick would aim there, not at the old spot.
  expect(dist(sim.belief.get('cardboard_box_1')!.pose.p, sim.pose('cardboard_box_1').p)).toBeLessThan(0.02);
});

it('property: every perceived object shoved farther than the threshold is said, by name and distance', async () => {
  const boxes = ['cardboard_box_1', 'wooden_box_1', 'metal_box_1', 'toy_block_1', 'cast_iron_block_1'];
  await fc.assert(
    fc.asyncProperty(
      fc.constantFrom(...boxes),
      fc.double({ min: -0.12, max: 0.12, noNaN: true }),
      fc.double({ min: -0.12, max: 0.12, noNaN: true }),
      async (id, dx, dz) => {
        const sim = await sceneWorld('tabletop/boxes');
        observe(sim);
        const before = sim.pose(id).p;
        shoveDuring(sim, id, dx, dz);
        const r = await moveArm(sim, 'transport');
        const said = (r.incidents ?? []).join(' ');
        const moved = dist(before, sim.pose(id).p);
        // Whatever happened to it (shoved, or knocked into something and moved further), it is said by name.
        if (moved > SHOVE + 0.01) expect(said, `${id} moved ${moved.toFixed(3)} m`).toContain(id);
        if (moved < SHOVE - 0.005) expect(said).not.toContain(`${id} was pushed`);
      },
    ),
    { numRuns: fuzzRuns(8), seed: fuzzSeed(35) },
  );
}, 300_000);
