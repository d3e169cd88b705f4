// The world-model tools (paper 000's AIMM getters, setters and query templates)
// say ignorance as ignorance: a closed storage whose inside has not been seen is
// "unknown", never "empty"; a pose is of the thing asked, or an error; no
// position is invented; people the robot has not seen are not in the model.
import { describe, expect, it } from 'vitest';
import { openSim } from '../../../robot/sim/open';
import type { Robot } from '../../../robot/robot';
import { buildToolSet } from './index';

const ctx = (robot: Robot) => ({ robot, signal: new AbortController().signal, state: new Map<string, unknown>() });
const call = async (robot: Robot, set: string, name: string, args: Record<string, unknown> = {}) => {
  const tool = (await buildToolSet(set, robot)).get(name);
  if (!tool) throw new Error(`no ${name} in ${set}`);
  return tool.call(args, ctx(robot));
};

describe('world-model tools: ignorance is said as ignorance', () => {
  it('get_empty_storages does not call the closed, never-opened fridge, cabinet or microwave empty', async () => {
    const { robot } = await openSim('kitchen');
    const r = await call(robot, 'world-model', 'get_empty_storages');
    expect(r.ok).toBe(true);
    const [said, unknown = ''] = r.content.split('Contents unknown');
    for (const id of ['fridge_1', 'cabinet_1', 'microwave_1']) {
      expect(said).not.toContain(id);
      expect(unknown).toContain(id);
    }
  });

  it('retrieve_parent_or_child: the children of a closed fridge are unknown, not nothing', async () => {
    const { robot } = await openSim('kitchen');
    const r = await call(robot, 'world-model-queries', 'retrieve_parent_or_child', { node_name: 'fridge_1', direction: 'children' });
    expect(r.content).not.toContain('(nothing related)');
    expect(r.content).toContain('unknown: fridge_1 is closed');
  });

  it('get_object_poses answers with the pose of the thing asked, not of the place the robot stands at', async () => {
    const { robot, control } = await openSim('kitchen');
    const r = await call(robot, 'world-model', 'get_object_poses', { object_name: 'counter_1' });
    expect(r.ok).toBe(true);
    const node = r.data as { id: string; type: string; position: { x: number; y: number } };
    expect(node.type).not.toBe('location');
    const w = control.world;
    const c = w.pose('counter_1').p;
    const b = w.body.basePose.p;
    expect(Math.hypot(node.position.x, node.position.y)).toBeCloseTo(Math.hypot(c.x - b.x, c.z - b.z), 2);
  });

  it('an object an operator added has no invented position: its pose query says so', async () => {
    const { robot } = await openSim('kitchen');
    expect((await call(robot, 'world-model', 'add_object', { object_name: 'tray_2', parent_name: 'counter_1' })).ok).toBe(true);
    const r = await call(robot, 'world-model', 'get_object_poses', { object_name: 'tray_2' });
    expect(r.ok).toBe(false);
    expect(r.content).toContain('no position for tray_2');
  });

  it('people the robot has not seen are not in the world model', async () => {
    const { robot, control } = await openSim('kitchen/assistive');
    const w = control.world;
    const unseen = [...w.people.keys()].filter((p) => !w.belief.people.has(p));
    expect(unseen.length).toBeGreaterThan(0);
    const ids = (await robot.worldModel!.nodes()).map((n) => n.id);
    for (const p of unseen) expect(ids).not.toContain(p);
  });
});
