// A person is named only once the robot has recognised them: anyone else is the
// handle it gave them ("person_1") and where it saw them ("a person by
// dining_table_1"), and their name addresses nobody it knows.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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

/** The assistive kitchen with Bruno, whom the robot does not know, at the dining table facing it. */
async function withBruno(): Promise<Awaited<ReturnType<typeof openSim>>> {
  const scene = JSON.parse(readFileSync(new URL('../../../scenes/data/kitchen/assistive.json', import.meta.url), 'utf8')) as {
    id: string;
    people: unknown[];
    $schema?: string;
  };
  delete scene.$schema;
  scene.id = 'kitchen_with_bruno';
  scene.people.push({
    id: 'bruno',
    name: 'Bruno',
    position: [-0.5, 0, 1.3],
    yaw: 0,
    height: 1.8,
    gaze: 'robot',
    handsFree: true,
    known: false,
  });
  const file = join(mkdtempSync(join(tmpdir(), 'sb-people-')), 'bruno.json');
  writeFileSync(file, JSON.stringify(scene));
  const opened = await openSim(file);
  expect((await opened.robot.base!.navigate('room_view')).ok).toBe(true);
  return opened;
}

describe('people: a name only for a person the robot recognised', () => {
  it('check_humans_around does not name an unrecognised person; recognize_humans and it agree', async () => {
    const { robot } = await withBruno();
    const around = await call(robot, 'raider-assistive', 'check_humans_around');
    const known = await call(robot, 'raider-assistive', 'recognize_humans');
    expect(around.content).toMatch(/^Humans around: /);
    expect(around.content).not.toMatch(/bruno/i);
    expect(known.content).not.toMatch(/bruno/i);
    // Bruno is there, by a handle and where he stands.
    expect(around.content).toMatch(/person_\d+ \(a person (by|near) [a-z_0-9]+, not recognized\)/);
  });

  it('the name of an unrecognised person addresses nobody; the handle does', async () => {
    const { robot } = await withBruno();
    const ids = (await call(robot, 'raider-assistive', 'check_humans_around')).data as string[];
    const handle = ids.find((i) => /^person_\d+$/.test(i));
    expect(handle).toBeDefined();
    for (const name of ['bruno', 'Bruno']) {
      const d = await call(robot, 'raider-assistive', 'dist_robot_to_human', { specific_human: name });
      expect(d.ok).toBe(false);
      expect(d.content).not.toMatch(/\d\.\d\d m from the robot/);
      const m = await call(robot, 'raider-recovery', 'move_to', { location: name });
      expect(m.ok).toBe(false);
    }
    const d = await call(robot, 'raider-assistive', 'dist_robot_to_human', { specific_human: handle });
    expect(d.ok).toBe(true);
    expect(d.content).toMatch(new RegExp(`^${handle} is \\d\\.\\d\\d m from the robot`));
  });

  it('the world model lists the stranger by handle and place, never by name', async () => {
    const { robot } = await withBruno();
    await call(robot, 'raider-assistive', 'check_humans_around');
    const people = (await robot.worldModel!.nodes()).filter((n) => n.type === 'person');
    expect(people.length).toBeGreaterThan(0);
    for (const p of people) {
      expect(p.id).not.toMatch(/bruno/i);
      expect(p.name).not.toMatch(/bruno/i);
    }
    expect(people.some((p) => /^a person (by|near) /.test(p.name))).toBe(true);
  });

  it('check_events does not name an unrecognised person as mover or speaker; a label that is nobody in the room stays', async () => {
    const { robot, control } = await withBruno();
    control.inject({ type: 'person_said', person: 'bruno', text: 'hello' });
    control.inject({ type: 'object_moved', object: 'laptop_1', to: [-1.0, 0.9, 0.6], by: 'Bruno' });
    control.inject({ type: 'person_said', person: 'the operator', text: 'carry on' });
    const r = await call(robot, 'dfki', 'check_events');
    expect(r.content).not.toMatch(/bruno/i);
    expect(r.content).toMatch(/(person_\d+|a person) said: "hello"/);
    expect(r.content).toMatch(/(person_\d+|a person) moved laptop_1/);
    expect(r.content).toContain('the operator said: "carry on"');
    expect(JSON.stringify(r.data)).not.toMatch(/bruno/i);
  });
});
