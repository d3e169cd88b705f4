// skillbridge robots check: the report of each fixture, its exit code, and bad input in one line (exit 2).
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from './main';

const ROBOTS = join(import.meta.dirname, '../../test/fixtures/robots');
async function run(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await main(argv, { out: (t) => (out += `${t}\n`), err: (t) => (err += `${t}\n`) });
  return { code, out, err };
}

describe('skillbridge robots check', () => {
  it('a 6-DoF arm: joints, chains, reach, gripper, meshes and the defaults taken; exit 0', async () => {
    const r = await run('robots', 'check', join(ROBOTS, 'ur5e_like/urdf/ur5e_like.urdf'));
    expect(r.code).toBe(0);
    expect(r.out).toContain('root world; 13 links, 12 joints (4 fixed, 6 revolute, 2 prismatic)');
    expect(r.out).toMatch(/shoulder_pan_joint +revolute +base_link -> shoulder_link +\[-6\.2832, 6\.2832\] rad +effort 150 velocity 3\.14/);
    expect(r.out).toContain(
      'world > base_link > shoulder_link > upper_arm_link > forearm_link > wrist_1_link > wrist_2_link > wrist_3_link > tool0 > gripper_base > tcp',
    );
    expect(r.out).toContain(
      'Arm: 6 moving joints to "tcp"; reach 1.069 m from the first arm joint (shoulder_pan_joint), by forward kinematics over 4096 joint samples within the limits; at most 1.159 m by the sum of the offsets',
    );
    expect(r.out).toContain('package://ur5e_like/meshes/base.stl  stl-binary, 12 triangles, 0.15 × 0.15 × 0.09 m');
    expect(r.out).toContain('default battery: not given: no battery (it never runs down)');
    expect(r.out).toContain('No problems.');
  });

  it('--json: the report as data; the xacro mobile manipulator with its package folder named', async () => {
    const r = await run(
      'robots',
      'check',
      join(ROBOTS, 'mobile_manipulator/urdf/mobile_manipulator.urdf.xacro'),
      '--package-dir',
      join(ROBOTS, 'mobile_manipulator'),
      '--json',
    );
    expect(r.code).toBe(0);
    const rep = JSON.parse(r.out) as {
      root: string;
      arm: { movingJoints: number };
      extras: { base: string };
      meshes: unknown[];
      errors: number;
    };
    expect(rep).toMatchObject({ root: 'odom', arm: { movingJoints: 6 }, extras: { base: 'planar' }, errors: 0 });
    expect(rep.meshes).toHaveLength(1);
  });

  it('every warning class of the broken fixture, each with its fix; exit 1 for its errors', async () => {
    const r = await run('robots', 'check', join(ROBOTS, 'broken/broken.urdf'));
    expect(r.code).toBe(1);
    expect(r.out).toContain('Problems (3 errors, 6 warnings):');
    for (const text of [
      'joint "shoulder": a revolute joint without <limit>',
      'joint "finger_joint": mimics joint "no_such_joint", which does not exist',
      'link "loose": no joint connects this link',
      'robot: more than one root',
      'link "upper": no <inertial>',
      'link "lower": zero mass',
      'mesh "meshes/missing.stl" not found',
      'COLLADA (.dae) is not read; the link is drawn as its collision shapes',
      'default payloadKg: not given: 1 kg',
    ])
      expect(r.out).toContain(text);
  });

  it.each([
    [['robots', 'check', join(ROBOTS, 'nope.urdf')], /cannot read .*nope\.urdf: no such file/],
    [['robots', 'check', join(ROBOTS, 'ur5e_like/package.xml')], /is not a URDF: its root element is <package>/],
    [['robots', 'check', ROBOTS], /a folder, not a regular file/],
    [['robots', 'check'], /robots check takes one URDF or xacro FILE/],
    [['robots', 'list'], /robots takes "check FILE" or "check rosbridge --robot ws:\/\/HOST:PORT", not "list"/],
    [['robots', 'check', join(ROBOTS, 'broken/broken.urdf'), '--package-dir', join(ROBOTS, 'nope')], /--package-dir .*: no such folder/],
  ])('bad input %j is one line, exit 2', async (argv, why) => {
    const r = await run(...argv);
    expect(r.code).toBe(2);
    expect(r.err.trim().split('\n')).toHaveLength(1);
    expect(r.err).toMatch(why);
    const j = await run(...argv, '--json');
    expect(j.code).toBe(2);
    expect((JSON.parse(j.out) as { error: { message: string } }).error.message).toMatch(why);
  });
});
