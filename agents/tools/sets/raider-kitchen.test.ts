// RAIDER's tools (paper 001 Fig. 6, Fig. 16, §5.1) answer from the kitchen's
// ground truth, through the Robot seam as a model calls them.
import { describe, expect, it } from 'vitest';
import { openSimRobot } from '../../../robot/sim/open';
import type { Robot } from '../../../robot/robot';
import { buildToolSet } from './index';

const ctx = (robot: Robot) => ({ robot, signal: new AbortController().signal, state: new Map<string, unknown>() });
const call = async (robot: Robot, set: string, name: string, args: Record<string, unknown> = {}) => {
  const tool = (await buildToolSet(set, robot)).get(name);
  if (!tool) throw new Error(`no ${name} in ${set}`);
  return tool.call(args, ctx(robot));
};

describe('RAIDER household tools on the kitchen', () => {
  it('answer state, relation, distance and property questions per ground truth', async () => {
    const robot = await openSimRobot('kitchen');
    expect((await call(robot, 'raider-household', 'object_detection')).data).toEqual(
      expect.arrayContaining(['coffee_machine_1', 'cup_1', 'mug_1', 'mug_2', 'knife_1']),
    );
    expect(await call(robot, 'raider-household', 'get_obj_state', { obj: 'white mug' })).toMatchObject({
      ok: true,
      content: 'mug_1 (white mug) is dirty, empty.',
    });
    expect(await call(robot, 'raider-household', 'get_obj_state', { obj: 'mug' })).toMatchObject({ ok: false });
    expect(await call(robot, 'raider-household', 'check_obj_relationship', { relationship: 'inside', obj: 'CoffeeMachine' })).toMatchObject(
      { ok: true, data: ['cup_1'] },
    );
    expect(
      await call(robot, 'raider-household', 'check_obj_relationship', { relationship: 'blocking', obj: 'coffee machine' }),
    ).toMatchObject({ data: ['cup_1'] });
    expect(
      await call(robot, 'raider-household', 'check_obj_relationship', { relationship: 'on top of', obj: 'cutting board' }),
    ).toMatchObject({ data: ['bread_1'] });
    const closed = await call(robot, 'raider-household', 'check_obj_relationship', { relationship: 'inside', obj: 'fridge' });
    expect(closed).toMatchObject({ ok: true, data: [] });
    expect(closed.content).toContain('closed');
    const d = await call(robot, 'raider-household', 'dist_to_target', { target: 'coffee machine' });
    expect((d.data as { distanceM: number }).distanceM).toBeGreaterThan(0.5);
    expect((d.data as { distanceM: number }).distanceM).toBeLessThan(0.9);
    expect((await call(robot, 'raider-household', 'get_obj_properties', { obj: 'knife' })).content).toContain('canSlice');
    expect(await call(robot, 'raider-preferences', 'retrieve_user_information', { query: 'how does the user take coffee' })).toMatchObject({
      content: 'The user takes their coffee with milk and no sugar.',
    });
  });

  it('see into the fridge once the recovery actions open it', async () => {
    const robot = await openSimRobot('kitchen');
    expect(await call(robot, 'raider-recovery', 'move_to', { location: 'fridge' })).toMatchObject({ ok: true });
    // Closed, the fridge hides the apple: the robot cannot know it is there, and does not say so.
    const blind = (await call(robot, 'raider-recovery', 'pick', { object: 'apple' })).content;
    expect(blind).toContain('no object called "apple" is known to the robot');
    expect(blind).not.toContain('apple_1');
    expect(await call(robot, 'raider-recovery', 'open', { object: 'fridge' })).toMatchObject({ ok: true });
    expect((await call(robot, 'raider-household', 'check_obj_relationship', { relationship: 'inside', obj: 'fridge' })).data).toEqual([
      'apple_1',
      'milk_1',
    ]);
  });
});

describe('RAIDER assistive tools on kitchen/assistive', () => {
  it('find the blocked path, the person, her hands and her gaze', async () => {
    const robot = await openSimRobot('kitchen/assistive');
    expect(await call(robot, 'raider-assistive', 'check_free_path', { target: 'medicine_counter' })).toMatchObject({
      // The chair is out of the camera's view from here: the robot cannot name it.
      data: { free: false, obstacle: 'an obstacle' },
    });
    // Adriana is out of view from the middle of the kitchen: the robot cannot go to someone it has not seen.
    expect(await call(robot, 'raider-recovery', 'move_to', { location: 'Adriana' })).toMatchObject({ ok: false });
    expect(await call(robot, 'raider-assistive', 'check_humans_around')).toMatchObject({ data: [] });
    expect(await call(robot, 'raider-recovery', 'move_to', { location: 'room_view' })).toMatchObject({ ok: true });
    expect(await call(robot, 'raider-assistive', 'check_humans_around')).toMatchObject({ data: ['adriana'] });
    expect(await call(robot, 'raider-recovery', 'move_to', { location: 'Adriana' })).toMatchObject({ ok: true });
    expect(await call(robot, 'raider-assistive', 'recognize_humans')).toMatchObject({ data: [{ id: 'adriana', name: 'Adriana' }] });
    expect(await call(robot, 'raider-assistive', 'human_hands_free', { specific_human: 'adriana_user' })).toMatchObject({
      data: { handsFree: true },
    });
    expect(await call(robot, 'raider-assistive', 'detect_human_gaze', { specific_human: 'Adriana' })).toMatchObject({
      data: { gazeAtRobot: false },
    });
    expect(await call(robot, 'raider-recovery', 'say', { statement: 'Adriana, could you look at me?' })).toMatchObject({ ok: true });
    expect(await call(robot, 'raider-assistive', 'detect_human_gaze', { specific_human: 'Adriana' })).toMatchObject({
      data: { gazeAtRobot: true },
    });
    const d = await call(robot, 'raider-assistive', 'dist_robot_to_human', { specific_human: 'Adriana' });
    expect((d.data as { distanceM: number }).distanceM).toBeLessThanOrEqual(0.5);
  });
});
