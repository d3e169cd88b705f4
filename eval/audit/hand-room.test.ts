// A place keeps room for the fingers around the object, not only for the
// object: in the script where the retreating hand wedged itself in container_1
// and carried it off the table (on-robot.test.ts), the hand now sets the toy
// block down clear of the container, and nothing ends on the robot.
import { expect, it } from 'vitest';
import { openSim } from '../../robot/sim/open';
import { buildToolSet } from '../../agents/tools/sets';
import { locationOf } from '../../sim/world/location';
import { EP, SCRIPT } from './wedge.fixture';
import { ScriptRunner } from './script';

it('a place whose fingers would meet a box beside the spot picks another spot, and nothing ends on the hand', async () => {
  const { robot, control } = await openSim(EP.scene, { seed: EP.seed });
  const reg = await buildToolSet(EP.set, robot);
  const runner = new ScriptRunner(robot, control, async (n) => reg.get(n));
  const w = control.world;
  try {
    let last = '';
    for (const s of SCRIPT) last = (await runner.step(s)).result?.content ?? last;
    expect(last).toMatch(/^Success: placed toy_block_1/);
    expect(last).not.toContain('container_1');
    expect(locationOf(w, 'container_1')).toEqual({ kind: 'on', id: 'table_1' });
    expect([...w.entities.keys()].filter((id) => !w.entities.get(id)!.fixed && locationOf(w, id).kind === 'robot')).toEqual([]);
  } finally {
    control.dispose();
  }
}, 120_000);
