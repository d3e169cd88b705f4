// skillbridge call --urdf FILE: a robot from its description acts in a scene in
// place of the scene's own — the UR5e-class arm picks the lemon, the Panda-class
// arm (a mimic-finger hand) picks and places it, the mobile manipulator drives
// and perceives with its own camera — and a description that cannot be the
// robot is bad input naming each problem (exit 2), never the scene's robot.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from './main';

const ROBOTS = join(import.meta.dirname, '../../test/fixtures/robots');
const UR5E = join(ROBOTS, 'ur5e_like/urdf/ur5e_like.urdf');
const PANDA = join(ROBOTS, 'panda_like/panda_like.urdf');
const MOBILE = join(ROBOTS, 'mobile_manipulator/urdf/mobile_manipulator.urdf.xacro');

async function run(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await main(argv, { out: (t) => (out += `${t}\n`), err: (t) => (err += `${t}\n`) });
  return { code, out, err };
}

interface CallJson {
  robot: { name: string; joints: string[]; reachM: number; warnings: string[] };
  results: Array<{ tool: string; ok: boolean; result?: string; error?: string }>;
  facts: string[];
}

function scratch(): string {
  return mkdtempSync(join(tmpdir(), 'urdf-call-'));
}

describe('skillbridge call --urdf', () => {
  it('a UR5e-class arm with a two-finger gripper picks the lemon on tabletop/fruits', async () => {
    const r = await run('call', '--urdf', UR5E, '--scene', 'tabletop/fruits', 'pick', '{"object_name":"lemon"}', '--json');
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    const j = JSON.parse(r.out) as CallJson;
    expect(j.robot).toMatchObject({ name: 'ur5e_like', reachM: 1.159, warnings: [] });
    expect(j.robot.joints).toEqual([
      'shoulder_pan_joint',
      'shoulder_lift_joint',
      'elbow_joint',
      'wrist_1_joint',
      'wrist_2_joint',
      'wrist_3_joint',
    ]);
    expect(j.results).toEqual([expect.objectContaining({ tool: 'pick', ok: true, result: 'Success: picked up lemon_1 (lemon).' })]);
    expect(j.facts).toContain('holding(robot, lemon_1)');
    // Nothing else on the table was knocked about by the long arm swinging round.
    for (const o of ['plum_1', 'peach_1', 'strawberry_1', 'bowl_1', 'trash_1', 'cup_1', 'sponge_1'])
      expect(j.facts).toContain(`on(${o}, table_1)`);
  });

  it('a 7-DoF arm of the Panda class (its second finger mimics the first) picks the lemon and places it in the bowl', async () => {
    const dir = scratch();
    const script = join(dir, 'steps.json');
    writeFileSync(
      script,
      JSON.stringify([
        { tool: 'pick', args: { object_name: 'lemon' } },
        { tool: 'place', args: { target: 'bowl' } },
      ]),
    );
    const r = await run('call', '--urdf', PANDA, '--scene', 'tabletop/fruits', '--script', script, '--json');
    expect(r.code).toBe(0);
    const j = JSON.parse(r.out) as CallJson;
    expect(j.robot.joints).toHaveLength(7);
    expect(j.results.map((x) => x.ok)).toEqual([true, true]);
    expect(j.facts).toContain('in(lemon_1, bowl_1)');
    expect(j.facts).toContain('hand_empty(robot)');
  });

  it('the mobile manipulator (planar base, xacro, a sidecar named with --robot-config) drives to a table and sees with its head camera', async () => {
    const dir = scratch();
    const tucked = { arm_joint_1: -1.57, arm_joint_2: -2.3, arm_joint_3: -2.8, arm_joint_4: -2.5, arm_joint_5: 0, arm_joint_6: 0 };
    const sidecar = join(dir, 'mine.json');
    writeFileSync(
      sidecar,
      JSON.stringify({ endEffector: 'tcp', cameraLink: 'head_camera', postures: { home: tucked, transport: tucked }, base: 'planar' }),
    );
    const script = join(dir, 'steps.json');
    writeFileSync(
      script,
      JSON.stringify([
        { tool: 'act', args: { action: 'navigate', params: ['table_1'] } },
        { tool: 'act', args: { action: 'perceive', params: [] } },
      ]),
    );
    const r = await run(
      'call',
      '--urdf',
      MOBILE,
      '--robot-config',
      sidecar,
      '--scene',
      'tabletop/workshop',
      '--set',
      'dfki',
      '--script',
      script,
      '--json',
    );
    expect(r.code).toBe(0);
    const j = JSON.parse(r.out) as CallJson;
    expect(j.robot.name).toBe('mobile_manipulator');
    expect(j.results.map((x) => x.ok)).toEqual([true, true]);
    expect(j.results[1]!.result).toContain('multimeter_1 on table_1');
    expect(j.facts).toContain('robot_at(robot, table_1)');
  });

  it("run --urdf: a scripted model picks the lemon with the described robot; the facts are its world's", async () => {
    const dir = scratch();
    const turns = join(dir, 'turns.json');
    writeFileSync(
      turns,
      JSON.stringify([{ tool_calls: [{ function: { name: 'pick', arguments: { object_name: 'lemon' } } }] }, { content: 'done' }]),
    );
    const r = await run(
      'run',
      '--urdf',
      UR5E,
      '--scene',
      'tabletop/fruits',
      '--set',
      'alrm',
      '--model',
      `scripted:${turns}`,
      '--trace',
      join(dir, 't.jsonl'),
      'pick the lemon',
    );
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^robot: ur5e_like from .*ur5e_like\.urdf \(6 arm joints, reach 1\.159 m\)/);
    expect(r.out).toContain('Success: picked up lemon_1 (lemon).');
    expect(r.out).toContain('answer: done');
  });

  it('a description with errors is refused in one line naming each on its element; exit 2, no world built', async () => {
    const r = await run('call', '--urdf', join(ROBOTS, 'broken/broken.urdf'), '--scene', 'tabletop/fruits', 'get_objects');
    expect(r.code).toBe(2);
    expect(r.out).toBe('');
    expect(r.err.trim().split('\n')).toHaveLength(1);
    expect(r.err).toContain('3 problems');
    expect(r.err).toContain('joint "finger_joint": mimics joint "no_such_joint", which does not exist');
    expect(r.err).toContain('link "loose": no joint connects this link');
  });

  it('a gripper the simulator has no hand for, a sidecar that is not there, a sidecar without --urdf: each refused (exit 2)', async () => {
    const dir = scratch();
    const suction = join(dir, 'suction.json');
    writeFileSync(suction, JSON.stringify({ gripper: { kind: 'suction' } }));
    const cases: Array<[string[], RegExp]> = [
      [['--urdf', UR5E, '--robot-config', suction], /sidecar gripper: a suction gripper is not simulated yet/],
      [['--urdf', UR5E, '--robot-config', join(dir, 'none.json')], /sidecar none\.json: no such file/],
      [['--robot-config', suction], /--robot-config needs --urdf/],
      [['--urdf', join(dir, 'none.urdf')], /--urdf: cannot read .*none\.urdf/],
      [['--urdf', UR5E, '--robot', 'ws://127.0.0.1:1'], /--urdf/],
    ];
    for (const [flags, want] of cases) {
      const r = await run('call', ...flags, '--scene', 'tabletop/fruits', 'get_objects');
      expect(r.code, flags.join(' ')).toBe(2);
      expect(r.err).toMatch(want);
      expect(r.err.trim().split('\n')).toHaveLength(1);
    }
  });
});
