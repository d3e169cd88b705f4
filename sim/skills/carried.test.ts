// What rides on the robot moves with it: a drive is never blocked by it, and
// it is never "an object the robot had not perceived" in the robot's own words.
import { expect, it } from 'vitest';
import { sceneWorld } from '../../test/fixtures/worlds';
import { navigate } from './navigation';

it('a screwdriver a person laid on the base does not block the drive, nor is it called unperceived', async () => {
  const sim = await sceneWorld('tabletop/workshop', { seed: 1465 });
  sim.inject({ type: 'object_moved', object: 'screwdriver_1', to: [1.415, 0.674, 1.5], by: 'a person' });
  const r = await navigate(sim, { kind: 'location', id: 'table_1' });
  const said = [r.summary, ...(r.incidents ?? [])].join(' ');
  expect(said).not.toContain('an object the robot had not perceived');
  expect(r.ok).toBe(true);
});
