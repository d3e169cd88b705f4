// Found by `skillbridge audit --calls 10000 --seed 23`: setting a toy block down
// on the tabletop, the retreating hand wedged itself in a container standing
// next to it and lifted it off the table; nothing bore it from below, the
// fingers held it by friction. The place said nothing of it and perception kept
// it on the table; the next arm move dropped it back, unreported too. Every
// skill now says what comes to rest on the robot and what leaves it.
import { describe, expect, it } from 'vitest';
import { openSim } from '../../robot/sim/open';
import { buildToolSet } from '../../agents/tools/sets';
import { tracked } from '../../sim/skills/incidents';
import { success } from '../../sim/skills/outcome';
import { moveArm } from '../../sim/skills/posture';
import { locationOf } from '../../sim/world/location';
import type { SimWorld } from '../../sim/world/sim-world';
import { replay } from './run';
import { type ScriptStep, ScriptRunner } from './script';

const EP = { scene: 'tabletop/boxes', set: 'alrm', seed: 23023 };
const SCRIPT: ScriptStep[] = [
  { tool: 'move_to', args: { pose: { position: { x: -0.107, y: -0.381, z: 0.01 } } } },
  { event: { type: 'object_moved', object: 'toy_block_1', to: [-0.157, 0.88, 0.381], by: 'a person' } },
  { event: { type: 'object_moved', object: 'wooden_box_1', to: [0.15, 0.92, 0.05], by: 'a person' } },
  { tool: 'move_to_home_pos', args: {} },
  { tool: 'pick', args: { object_name: 'cardboard_box_1' } },
  { tool: 'move_to_home_pos', args: {} },
  { tool: 'place', args: { target: 'container_1' } },
  { tool: 'move_to', args: { pose: { position: { x: 0.133, y: -0.413, z: 0.01 }, tilt_deg: 9.601 } } },
  { tool: 'move_to_home_pos', args: {} },
  { tool: 'pick', args: { object_name: 'toy_block_1' } },
  { tool: 'move_to_home_pos', args: {} },
  { tool: 'move_to', args: { pose: { position: { x: 0.197, y: -0.04, z: 0.124 }, tilt_deg: 6.905 } } },
  { tool: 'move_to_home_pos', args: {} },
  { tool: 'place', args: { target: 'desk' } },
];
const DROP: ScriptStep = { tool: 'move_to', args: { pose: { position: { x: 0.35, y: 0.3, z: 0.06 } } } };

describe('an object the hand wedges itself in', () => {
  it('is reported coming onto the robot and leaving it, and the belief follows', async () => {
    const { robot, control } = await openSim(EP.scene, { seed: EP.seed });
    const reg = await buildToolSet(EP.set, robot);
    const runner = new ScriptRunner(robot, control, async (n) => reg.get(n));
    const w = control.world;
    try {
      let last = '';
      for (const s of SCRIPT) last = (await runner.step(s)).result?.content ?? last;
      expect(locationOf(w, 'container_1')).toEqual({ kind: 'robot', part: 'hand' });
      expect(last).toMatch(/container_1 came off table_1 onto the robot; it is now resting on the robot's hand/);
      expect(w.belief.get('container_1')?.place).toEqual({ kind: 'robot', part: 'hand' });
      const dropped = (await runner.step(DROP)).result?.content ?? '';
      expect(dropped).toMatch(/container_1 fell off the robot's hand; it is now on table_1/);
      expect(w.belief.get('container_1')?.place).toEqual({ kind: 'on', id: 'table_1' });
    } finally {
      control.dispose();
    }
  }, 120_000);

  it("is reported leaving the robot even by a skill that acts on it, unless that skill's outcome says so", async () => {
    const { robot, control } = await openSim(EP.scene, { seed: EP.seed });
    const reg = await buildToolSet(EP.set, robot);
    const runner = new ScriptRunner(robot, control, async (n) => reg.get(n));
    const w = control.world;
    try {
      for (const s of SCRIPT) await runner.step(s);
      expect(locationOf(w, 'container_1')).toEqual({ kind: 'robot', part: 'hand' });
      // A skill whose own object is the container, and whose outcome does not say where it went.
      const tuck = tracked(
        async (s: SimWorld) => {
          await moveArm(s, 'home');
          return success('moved the arm');
        },
        () => ['container_1'],
      );
      const r = await tuck(w);
      expect(locationOf(w, 'container_1')).not.toEqual({ kind: 'robot', part: 'hand' });
      expect(r.incidents?.join(' ')).toMatch(/container_1 fell off the robot's hand; it is now /);
    } finally {
      control.dispose();
    }
  }, 120_000);

  it('leaves the audit nothing to find at either call', async () => {
    expect(await replay(EP, SCRIPT)).toEqual([]);
    expect(await replay(EP, [...SCRIPT, DROP])).toEqual([]);
  }, 120_000);
});
