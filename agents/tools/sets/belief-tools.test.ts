// The belief rule through the tools, as a model calls them: ground truth never
// leaks past perception, names resolve honestly, and messages agree with
// themselves and with the skills.
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

describe('nothing the robot has not perceived reaches a tool', () => {
  it('pick "red bowl" in the closed cabinet: no object by that name is known, and the cabinet is not mentioned', async () => {
    const { robot } = await openSim('kitchen');
    const r = await call(robot, 'raider-recovery', 'pick', { object: 'red bowl' });
    expect(r.ok).toBe(false);
    expect(r.content).toContain('no object called "red bowl" is known to the robot');
    expect(r.content).not.toMatch(/bowl_2|cabinet_1 \(|inside/);
    // The list of known objects names only what the robot has seen and the furniture.
    expect(r.content).not.toMatch(/plate_1|apple_1|milk_1|potato_1/);
  });

  it('acts on what it believes: after a person carried the multimeter away, the reach finds nothing there', async () => {
    const { robot, control } = await openSim('tabletop/workshop');
    expect((await act(robot, 'move_arm', ['transport'])).ok).toBe(true);
    expect((await act(robot, 'navigate', ['table_1'])).ok).toBe(true);
    expect((await act(robot, 'perceive')).content).toContain('multimeter_1 on table_1');
    expect((await act(robot, 'move_arm', ['home'])).ok).toBe(true);
    // At rest, a person carries it to table 2: the robot did not see it happen.
    control.inject({ type: 'object_moved', object: 'multimeter_1', to: [2.2, 0.8, 1.5] });
    const r = await act(robot, 'pick', ['multimeter_1']);
    expect(r.ok).toBe(false);
    expect(r.content).toContain('nothing at the place where multimeter_1 (multimeter) was last seen');
    expect(r.content).not.toMatch(/\d\.\d+ m from the/);
    expect(control.holding()).toBeUndefined();
  });

  it('the human tools answer only about people in view', async () => {
    const { robot } = await openSim('kitchen/assistive');
    expect((await call(robot, 'raider-assistive', 'check_humans_around')).content).toBe('No humans around.');
    const d = await call(robot, 'raider-assistive', 'dist_robot_to_human', { specific_human: 'Adriana' });
    expect(d.ok).toBe(false);
    expect(d.content).toContain('is visible from here');
    expect(d.content).not.toMatch(/\d\.\d\d m/);
  });
});

describe('names resolve exactly or honestly', () => {
  it('an id is matched exactly: pick multimeter_2 does not act on multimeter_1', async () => {
    const { robot, control } = await openSim('tabletop/workshop');
    await act(robot, 'move_arm', ['transport']);
    await act(robot, 'navigate', ['table_1']);
    await act(robot, 'perceive');
    await act(robot, 'move_arm', ['home']);
    const r = await act(robot, 'pick', ['multimeter_2']);
    expect(r.ok).toBe(false);
    expect(r.content).toContain('no object with the id "multimeter_2"');
    expect(r.content).toContain('Did you mean multimeter_1');
    expect(control.holding()).toBeUndefined();
  });

  it('naming among what is visible is looking: a thing a person put in view of a wrist camera is then known', async () => {
    // The wrist camera has not been pointed since; the person set the box on the robot's base, in view.
    const open = async () => {
      const o = await openSim('tabletop/workshop', { seed: 1465 });
      o.control.inject({ type: 'object_moved', object: 'klt_1', to: [1.415, 0.674, 1.5], by: 'a person' });
      expect(o.control.world.belief.has('klt_1')).toBe(false);
      return o;
    };
    const a = await open();
    const found = await call(a.robot, 'raider-household', 'dist_to_target', { target: 'box' });
    expect(found).toMatchObject({ ok: true, data: { target: 'klt_1' } });
    expect(a.control.world.belief.has('klt_1')).toBe(true);
    // A miss lists what is visible: each listed name is one the robot now knows.
    const b = await open();
    const missed = await call(b.robot, 'raider-household', 'dist_to_target', { target: 'left one' });
    expect(missed.ok).toBe(false);
    expect(missed.content).toContain('Visible objects: klt_1');
    expect(b.control.world.belief.has('klt_1')).toBe(true);
  });

  it('an apple out of view is "not visible from here", not "does not exist"', async () => {
    const { robot } = await openSim('kitchen');
    const r = await call(robot, 'raider-household', 'get_obj_properties', { obj: 'apple' });
    expect(r.ok).toBe(false);
    expect(r.content).toMatch(/^no object called "apple" is visible from here; it may be elsewhere, or hidden from view/);
  });
});

describe('messages agree with themselves and with the skills', () => {
  it('dist_to_target measures to the point pick grasps, and its verdict is the one pick reaches', async () => {
    const { robot } = await openSim('kitchen');
    for (const obj of ['mug_2', 'knife_1', 'bread_1', 'toaster_1', 'cup_1']) {
      const d = await call(robot, 'raider-household', 'dist_to_target', { target: obj });
      if (!d.ok) continue;
      const reachable = (d.data as { reachable: boolean | null }).reachable;
      if (reachable === null) continue;
      const p = await call(robot, 'raider-recovery', 'pick', { object: obj });
      if (p.ok) {
        expect(reachable, `${obj}: ${d.content} / ${p.content}`).toBe(true);
        await call(robot, 'raider-recovery', 'place', { object: 'counter_1' });
      } else if (/out_of_reach/.test(p.content)) expect(reachable, `${obj}: ${d.content} / ${p.content}`).toBe(false);
    }
  });

  it('out of reach says which distance exceeds which, with numbers that agree', async () => {
    const { robot } = await openSim('kitchen');
    const r = await call(robot, 'raider-recovery', 'pick', { object: 'toaster' });
    const far = await call(robot, 'alrm', 'move_to', { pose: { position: { x: 3.5, y: 0.9, z: -1.0 }, tilt_deg: 0 } });
    for (const text of [r.content, far.content]) {
      const m = /(\d+\.\d+) m from the arm's shoulder; the arm reaches (\d+\.\d+) m/.exec(text);
      if (m) expect(Number(m[1])).toBeGreaterThan(Number(m[2]));
      const w = /wrist would have to be (\d+\.\d+) m from the shoulder, and the upper arm and forearm reach (\d+\.\d+) m/.exec(text);
      if (w) expect(Number(w[1])).toBeGreaterThan(Number(w[2]));
    }
    expect(far.content).toMatch(/Failed \(out_of_reach\)/);
  });

  it('the laptop: its properties say it cannot be picked, as pick does', async () => {
    const { robot } = await openSim('kitchen');
    expect((await call(robot, 'raider-recovery', 'move_to', { location: 'dining_table_1' })).ok).toBe(true);
    const props = await call(robot, 'raider-household', 'get_obj_properties', { obj: 'laptop' });
    expect(props.ok).toBe(true);
    expect(props.content).not.toContain('pickable');
    const pick = await call(robot, 'raider-recovery', 'pick', { object: 'laptop' });
    expect(pick.ok).toBe(false);
  });

  it('an injected fumble reads like a real one; only the trace data says it was injected', async () => {
    const { robot } = await openSim('tabletop/fruits', { noise: { skillFailureRate: 1 } });
    const r = await call(robot, 'alrm', 'pick', { object_name: 'lemon_1' });
    expect(r.ok).toBe(false);
    expect(r.content).not.toMatch(/injected|simulated/);
    expect(r.data).toMatchObject({ data: { injected: true } });
  });

  it('a stale observation says where to look again; a perceive away from any place says "here"', async () => {
    const { robot } = await openSim('tabletop/workshop');
    await act(robot, 'move_arm', ['transport']);
    await act(robot, 'navigate', ['table_1']);
    await act(robot, 'perceive');
    await act(robot, 'move_arm', ['transport']);
    await act(robot, 'navigate', ['table_3']);
    await act(robot, 'move_arm', ['home']);
    const r = await act(robot, 'pick', ['multimeter_1']);
    expect(r.content).toContain('go back to table_1 and perceive it there again');
    await act(robot, 'move_arm', ['transport']);
    expect((await call(robot, 'rtw-basic', 'take_a_step', { forward: -0.15 })).ok).toBe(true);
    expect((await call(robot, 'rtw-basic', 'take_a_step', { forward: -0.15 })).ok).toBe(true);
    const here = await act(robot, 'perceive');
    expect(here.content).toMatch(/perceived here: /);
    expect(here.content).not.toContain('at here');
  });
});
