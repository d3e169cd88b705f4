// The world-model tools answer from the robot's belief (paper 000's world model:
// what it perceived, what setters wrote), never from the physics: a move the
// robot did not see leaves the object where it was last seen, said with when; a
// storage is "empty" only when the robot looked inside since anything could
// have changed there; a person is named only once recognised.
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
const act = (robot: Robot, action: string, params: string[] = []) => call(robot, 'planner-executor', 'act', { action, params });

/** The empty and the not-known storages get_empty_storages reports. */
async function storages(robot: Robot): Promise<{ empty: string[]; unknown: string[]; content: string }> {
  const r = await call(robot, 'world-model', 'get_empty_storages');
  expect(r.ok).toBe(true);
  return { ...(r.data as { empty: string[]; unknown: string[] }), content: r.content };
}

describe('world-model getters read the belief, not the physics', () => {
  it('an object a person moved out of view keeps the place it was last seen at, said with when', async () => {
    const { robot, control } = await openSim('kitchen');
    expect((await act(robot, 'navigate', ['counter_2'])).ok).toBe(true);
    expect((await act(robot, 'perceive')).content).toContain('tomato_1');
    // Out of view, a person carries it to the free table.
    expect((await act(robot, 'navigate', ['kitchen_centre'])).ok).toBe(true);
    control.inject({ type: 'object_moved', object: 'tomato_1', to: [-2.4, 0.9, -1.0], by: 'a person' });
    const r = await call(robot, 'world-model', 'get_object_poses', { object_name: 'tomato_1' });
    expect(r.ok).toBe(true);
    expect(r.content).not.toContain('free_table');
    expect(r.content).toMatch(/on counter_2; last seen at \d+\.\d s on counter_2 \(now \d+\.\d s; it may have moved since\)/);
    expect(r.data).toMatchObject({ parent: 'counter_2', relation: 'on', known: { how: 'seen' } });
  });

  it('what a person put in or on an appliance out of view is not said to be there', async () => {
    const { robot, control } = await openSim('kitchen');
    expect((await act(robot, 'navigate', ['counter_2'])).ok).toBe(true);
    await act(robot, 'perceive');
    expect((await act(robot, 'navigate', ['kitchen_centre'])).ok).toBe(true);
    // A person puts the tomato by the microwave on counter 3: the robot did not see it.
    control.inject({ type: 'object_moved', object: 'tomato_1', to: [-0.35, 1.2, -2.37], by: 'a person' });
    const r = await call(robot, 'world-model', 'get_object_poses', { object_name: 'tomato_1' });
    expect(r.content).not.toContain('microwave_1');
    expect(r.content).toContain('on counter_2');
  });

  it('a bowl emptied out of view is not "empty"', async () => {
    const { robot, control } = await openSim('kitchen');
    expect((await act(robot, 'navigate', ['counter_2'])).ok).toBe(true);
    expect((await act(robot, 'perceive')).content).toContain('apple_2');
    expect((await storages(robot)).empty).not.toContain('bowl_1');
    expect((await act(robot, 'navigate', ['kitchen_centre'])).ok).toBe(true);
    // A person takes the apple out of the bowl and sets it on the dining table: not seen.
    control.inject({ type: 'object_moved', object: 'apple_2', to: [-1.1, 0.9, 1.1], by: 'a person' });
    const s = await storages(robot);
    expect(s.empty).not.toContain('bowl_1');
  });

  it('an open storage it cannot see into (the sink, from the kitchen centre) is not "empty"', async () => {
    const { robot } = await openSim('kitchen');
    expect((await act(robot, 'navigate', ['kitchen_centre'])).ok).toBe(true);
    await act(robot, 'perceive');
    const s = await storages(robot);
    expect(s.empty).not.toContain('sink_1');
    const q = await call(robot, 'world-model-queries', 'retrieve_parent_or_child', {
      node_name: 'sink_1',
      direction: 'children',
      relation: 'in',
    });
    expect(q.content).not.toContain('(nothing related)');
  });
});
