import { describe, expect, it } from 'vitest';
import { openSimRobot } from '../../../robot/sim/open';
import type { Robot } from '../../../robot/robot';
import type { Tool } from '../tool';
import { STEP_LIMITS, WORLD_MODEL_QUERIES, mayaInformationTools, mayaTaskTools, rtwBasicTools } from './rtw';

const ctx = (robot: Robot) => ({ robot, signal: new AbortController().signal, state: new Map<string, unknown>() });
const byName = (tools: Tool[], name: string): Tool => {
  const t = tools.find((x) => x.name === name);
  if (!t) throw new Error(`no tool ${name} among ${tools.map((x) => x.name).join(', ')}`);
  return t;
};

describe('RTW basic (TORO)', () => {
  it('validates the step ranges at run time and tells the model the range', async () => {
    const robot = await openSimRobot('tabletop/workshop');
    const step = byName(rtwBasicTools(robot), 'take_a_step');
    expect(step.parameters).toMatchObject({ properties: { forward: { minimum: -STEP_LIMITS.forward, maximum: STEP_LIMITS.forward } } });
    const bad = await step.call({ forward: 0.5 }, ctx(robot));
    expect(bad.ok).toBe(false);
    expect(bad.content).toMatch(/forward: .*0\.15/);
    const at = async () => (await robot.worldModel!.node('robot'))!.position!;
    const before = await at();
    const good = await step.call({ forward: 0.1, turn: 10 }, ctx(robot));
    expect(good).toMatchObject({ ok: true });
    const after = await at();
    expect(Math.hypot(after[0] - before[0], after[2] - before[2])).toBeCloseTo(0.1, 2);
  });

  it('offers only what the robot has: a fixed arm gets no take_a_step', async () => {
    const names = rtwBasicTools(await openSimRobot('tabletop/fruits')).map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(['describe_yourself', 'nudge_arm', 'move_arm_to_posture', 'wave']));
    expect(names).not.toContain('take_a_step');
  });
});

describe('RTW hierarchical (MAYA): task tools follow the world', () => {
  it('pick_<x> for each visible pickable thing; after a pick they vanish and put_<held>_… appear', async () => {
    const robot = await openSimRobot('tabletop/fruits');
    let names = (await mayaTaskTools(robot)).map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(['pick_lemon_1', 'pick_peach_1']));
    expect(names.some((n) => n.startsWith('put_'))).toBe(false);
    expect(await byName(await mayaTaskTools(robot), 'pick_lemon_1').call({}, ctx(robot))).toMatchObject({ ok: true });
    names = (await mayaTaskTools(robot)).map((t) => t.name);
    expect(names.some((n) => n.startsWith('pick_'))).toBe(false);
    expect(names).toContain('put_lemon_1_in_bowl_1');
    expect(await byName(await mayaTaskTools(robot), 'put_lemon_1_in_bowl_1').call({}, ctx(robot))).toMatchObject({ ok: true });
    // The bowl now holds the lemon: it offers no pick, and the troubleshooting tool says why.
    expect((await mayaTaskTools(robot)).map((t) => t.name)).not.toContain('pick_bowl_1');
    const why = await byName(mayaInformationTools(robot), 'why_no_objects_or_tasks').call({}, ctx(robot));
    expect(why.content).toMatch(/bowl_1: no task, because it has lemon_1 inside/);
    const tasks = await byName(mayaInformationTools(robot), 'list_available_tasks').call({}, ctx(robot));
    expect(tasks.content).toContain('pick_peach_1');
  });

  it('a mobile robot that sees nothing explains why there are no tasks', async () => {
    const robot = await openSimRobot('tabletop/workshop');
    expect((await mayaTaskTools(robot)).map((t) => t.name).filter((n) => !n.startsWith('go_to_'))).toEqual([]);
    const why = await byName(mayaInformationTools(robot), 'why_no_objects_or_tasks').call({}, ctx(robot));
    expect(why.content).toMatch(/sees no objects/);
  });
});

describe('AIMM query templates', () => {
  it('retrieve_nodes answers from the world model and checks types and attributes against its schema', async () => {
    const robot = await openSimRobot('tabletop/fruits');
    const q = byName(WORLD_MODEL_QUERIES, 'retrieve_nodes');
    const r = await q.call({ node_type: 'lemon', return_attribute: 'mass_kg' }, ctx(robot));
    expect(r.content).toContain('MATCH (n:lemon) RETURN n.id, n.mass_kg');
    expect(r.content).toMatch(/lemon_1: 0\.\d+/);
    const typo = await q.call({ node_type: 'lemn', return_attribute: 'mass_kg' }, ctx(robot));
    expect(typo).toMatchObject({ ok: false });
    expect(typo.content).toMatch(/Did you mean "lemon"/);
    const attr = await q.call({ node_type: 'lemon', return_attribute: 'sourness_level' }, ctx(robot));
    expect(attr.content).toMatch(/not an attribute of lemon nodes/);
    const half = await q.call({ node_type: 'lemon', match_attribute: 'category', return_attribute: 'id' }, ctx(robot));
    expect(half.content).toMatch(/together/);
  });

  it('retrieve_parent_or_child follows the tree both ways', async () => {
    const robot = await openSimRobot('tabletop/fruits');
    const q = byName(WORLD_MODEL_QUERIES, 'retrieve_parent_or_child');
    const parent = await q.call({ node_name: 'lemon', direction: 'parent' }, ctx(robot));
    expect(parent.content).toMatch(/lemon_1 is on table_1/);
    const kids = await q.call({ node_name: 'table_1', direction: 'children', relation: 'on' }, ctx(robot));
    expect(kids.content).toMatch(/peach_1 is on table_1/);
  });
});
