// What a skill says about changes it did not make: a person moving an object
// during the skill is said as that, never as an accident ("knocked off"), and
// an unrecognised person is not named.
import { expect, it } from 'vitest';
import { sceneWorld } from '../../test/fixtures/worlds';
import { observe } from '../perception/observe';
import type { SimWorld } from '../world/sim-world';
import { moveArm } from './posture';

function moveDuring(sim: SimWorld, seconds: number, object: string, to: [number, number, number], by: string): void {
  const at = sim.time + seconds;
  let done = false;
  sim.processHooks.push((s) => {
    if (done || s.time < at) return;
    done = true;
    s.inject({ type: 'object_moved', object, to, by });
  });
}

it('a person moving an object during a skill is reported as moved by a person, not knocked off', async () => {
  const sim = await sceneWorld('tabletop/fruits');
  observe(sim);
  expect(sim.belief.has('cup_1')).toBe(true);
  const p = sim.pose('cup_1').p;
  moveDuring(sim, 0.3, 'cup_1', [p.x, 0.3, p.z - 0.8], 'Anna');
  const r = await moveArm(sim, 'transport');
  const said = (r.incidents ?? []).join(' ');
  expect(said).toContain('cup_1 was moved by a person');
  expect(said).not.toMatch(/knocked|Anna/);
});
