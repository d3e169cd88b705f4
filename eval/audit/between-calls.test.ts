// A call that ends with something still in flight (a box a skill left falling)
// is followed by the world running on until it rests, so the next call starts,
// and the audit judges this one, on a settled world: nothing is left unjudged
// as "still moving".
import { expect, it } from 'vitest';
import { buildToolSet } from '../../agents/tools/sets';
import { openSim } from '../../robot/sim/open';
import { v3 } from '../../sim/math';
import { ScriptRunner } from './script';
import { readWorld } from './truth';

it('after a call the world comes to rest before anything is judged', async () => {
  const { robot, control } = await openSim('tabletop/boxes', { seed: 1 });
  try {
    const w = control.world;
    const reg = await buildToolSet('alrm', robot);
    const runner = new ScriptRunner(robot, control, async (n) => reg.get(n));
    const body = w.world.getRigidBody(w.entity('wooden_box_1').body);
    const p = body.translation();
    body.setTranslation(v3(p.x, p.y + 0.3, p.z), true);
    w.step();
    expect(readWorld(w).places.get('wooden_box_1')).toMatchObject({ kind: 'unsure', why: 'touches nothing below (still moving)' });
    await runner.step({ tool: 'get_reference_names', args: {} });
    const r = readWorld(w).places.get('wooden_box_1');
    expect(r?.kind === 'on' ? [...r.ids] : r).toEqual(['table_1']);
    expect(w.objectsSettled()).toBe(true);
  } finally {
    control.dispose();
  }
});
