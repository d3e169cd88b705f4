// "Objects inside X: a, b" of an inside the robot cannot see now (a closed door)
// is what it last knew in it: the answer says so, as "No objects inside X" does.
import { expect, it } from 'vitest';
import { openSimRobot } from '../../../robot/sim/open';
import type { Robot } from '../../../robot/robot';
import { buildToolSet } from './index';

const ctx = (robot: Robot) => ({ robot, signal: new AbortController().signal, state: new Map<string, unknown>() });
const call = async (robot: Robot, set: string, name: string, args: Record<string, unknown> = {}) => {
  const tool = (await buildToolSet(set, robot)).get(name);
  if (!tool) throw new Error(`no ${name} in ${set}`);
  return tool.call(args, ctx(robot));
};
const inside = (robot: Robot) => call(robot, 'raider-household', 'check_obj_relationship', { relationship: 'inside', obj: 'fridge' });

it('lists what is inside a closed fridge as last known, with the hedge; seen open, without it', async () => {
  const robot = await openSimRobot('kitchen');
  expect(await call(robot, 'raider-recovery', 'move_to', { location: 'fridge' })).toMatchObject({ ok: true });
  expect(await call(robot, 'raider-recovery', 'open', { object: 'fridge' })).toMatchObject({ ok: true });
  const open = await inside(robot);
  expect(open.content).toMatch(/^Objects inside fridge_1 \(fridge\): apple_1 \(apple\), milk_1 \(milk\)\.$/);
  expect(await call(robot, 'raider-recovery', 'close', { object: 'fridge' })).toMatchObject({ ok: true });
  const closed = await inside(robot);
  expect(closed.content).toBe(
    'Objects inside fridge_1 (fridge): apple_1 (apple), milk_1 (milk) (fridge_1 is closed, so its inside cannot be seen: these are what the robot last knew in it, there may be more).',
  );
  expect(closed.data).toEqual(['apple_1', 'milk_1']);
}, 60_000);
