// An object over a part of a composite fixture (a burner on the stove, a toaster
// on the counter) is on the part. Found by the truth audit: an apple set down on
// stove burner 3 came to rest with its contact beyond the touch distance, and the
// fallback cast a ray down from the bottom of its box, which for a turned sphere
// reaches below the thin burner: the ray passed the burner and named the stove.
import { expect, it } from 'vitest';
import { sceneWorld } from '../../test/fixtures/worlds';
import { qAxisAngle, v3 } from '../math';
import { locationOf } from './location';

it('an object touching nothing over a burner is on the burner, whichever way it is turned', async () => {
  const sim = await sceneWorld('kitchen/assistive');
  const body = sim.world.getRigidBody(sim.entity('apple_1').body);
  // Away from everything for one step, so it has no contacts left over from the fridge.
  const b = sim.aabb('stove_burner_3');
  const x = (b.min.x + b.max.x) / 2;
  const z = (b.min.z + b.max.z) / 2;
  body.setTranslation(v3(x, 2, z), true);
  sim.step();
  for (const turn of [0, Math.PI / 4, Math.PI / 3]) {
    // 1 cm above the burner's top (the apple is a 4 cm sphere): nothing touches it yet.
    body.setTranslation(v3(x - 0.03, b.max.y + 0.05, z - 0.03), false);
    body.setRotation(qAxisAngle(v3(1, 0, 1), turn), false);
    // At rest there (the one step away let it start falling): a falling apple is still moving.
    body.setLinvel(v3(0, 0, 0), false);
    body.setAngvel(v3(0, 0, 0), false);
    sim.version++;
    expect(locationOf(sim, 'apple_1')).toEqual({ kind: 'on', id: 'stove_burner_3' });
  }
});
