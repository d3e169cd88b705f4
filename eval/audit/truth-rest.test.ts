// The checker judges objects at rest whose last solver contact does not count
// (a body that fell asleep keeps the contact it last measured, which can read
// centimetres apart): it finds what the object stands on by lowering its own
// shapes, so such a call is judged, not counted unjudged.
import { expect, it } from 'vitest';
import { sceneWorld } from '../../test/fixtures/worlds';
import { v3 } from '../../sim/math';
import { readWorld } from './truth';

it('an object at rest with no contact left is on what it stands on, not "unsure"', async () => {
  const sim = await sceneWorld('tabletop/boxes');
  for (const id of ['wooden_box_1', 'metal_box_1']) {
    const body = sim.world.getRigidBody(sim.entity(id).body);
    const p = body.translation();
    const at = v3(p.x, p.y, p.z);
    // Up in the air for a step: its contacts with the table are dropped.
    body.setTranslation(v3(at.x, at.y + 1, at.z), true);
    sim.step();
    body.setTranslation(at, false);
    body.setLinvel(v3(0, 0, 0), false);
    body.setAngvel(v3(0, 0, 0), false);
    body.sleep();
    // Its shapes follow it (the solver's contacts do not until the next step).
    sim.world.propagateModifiedBodyPositionsToColliders();
    const r = readWorld(sim).places.get(id);
    expect(r?.kind === 'on' ? [...r.ids] : r).toEqual(['table_1']);
  }
});
