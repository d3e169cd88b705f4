// Robot descriptions from files: the fixtures written from published DH
// parameters load with their kinematics intact (checked by composing the joint
// origins at zero), every class of problem is reported on its element, reads stay
// in the allowed folders, and a broken description is never replaced by another.
import { cpSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { robotFiles, robotPackages } from '../../test/support/robot-files';
import { RobotFileError, loadRobot, loadRobotText, sidecarPath } from './load';
import type { Origin, RobotDescription } from './model';
import { chainTo, reach } from './structure';

const ROBOTS = join(import.meta.dirname, '../../test/fixtures/robots');
const UR = join(ROBOTS, 'ur5e_like/urdf/ur5e_like.urdf');
const PANDA = join(ROBOTS, 'panda_like/panda_like.urdf');
const MOBILE = join(ROBOTS, 'mobile_manipulator/urdf/mobile_manipulator.urdf.xacro');
const BROKEN = join(ROBOTS, 'broken/broken.urdf');

type M = number[][];
const mul = (a: M, b: M): M => a.map((r) => b[0]!.map((_, j) => r.reduce((s, v, k) => s + v * b[k]![j]!, 0)));
/** URDF's origin as a 4×4 transform (rpy: fixed-axis roll, pitch, yaw). */
function transform(o: Origin): M {
  const [r, p, y] = o.rpy;
  const [cr, sr, cp, sp, cy, sy] = [Math.cos(r), Math.sin(r), Math.cos(p), Math.sin(p), Math.cos(y), Math.sin(y)];
  return [
    [cy * cp, cy * sp * sr - sy * cr, cy * sp * cr + sy * sr, o.xyz[0]],
    [sy * cp, sy * sp * sr + cy * cr, sy * sp * cr - cy * sr, o.xyz[1]],
    [-sp, cp * sr, cp * cr, o.xyz[2]],
    [0, 0, 0, 1],
  ];
}
/** Where `link` is with every joint at zero. */
function zeroPose(d: RobotDescription, link: string): [number, number, number] {
  const c = chainTo(d, link)!;
  const byName = new Map(d.joints.map((j) => [j.name, j]));
  const t = c.joints.reduce<M>((m, n) => mul(m, transform(byName.get(n)!.origin)), transform({ xyz: [0, 0, 0], rpy: [0, 0, 0] }));
  return [t[0]![3]!, t[1]![3]!, t[2]![3]!];
}
const load = (f: string, dirs: string[] = [], args: Record<string, string> = {}) => loadRobot(robotFiles(f, dirs), args);
const classes = (r: ReturnType<typeof load>) => r.problems.map((p) => `${p.severity} ${p.element}: ${p.problem}`);

describe('the fixtures written from published parameters', () => {
  it('a UR5e-class arm: 6 revolute joints, a two-finger gripper, its flange where the DH parameters put it', () => {
    const r = load(UR);
    expect(r.problems).toEqual([]);
    const d = r.description!;
    expect(d.name).toBe('ur5e_like');
    expect(d.joints.filter((j) => j.kind === 'revolute')).toHaveLength(6);
    expect(r.extras?.gripper).toEqual({ kind: 'fingers', joints: ['left_finger_joint', 'right_finger_joint'] });
    // At zero the UR flange is at (a2 + a3, -(d4 + d6), d1 - d5).
    const flange = zeroPose(d, 'tool0');
    expect(flange[0]).toBeCloseTo(-0.425 - 0.3922, 6);
    expect(flange[1]).toBeCloseTo(-(0.1333 + 0.0996), 6);
    expect(flange[2]).toBeCloseTo(0.1625 - 0.0997, 6);
    expect([...r.meshes.values()].map((m) => [m.mesh.format, m.mesh.triangles])).toEqual([
      ['stl-binary', 12],
      ['stl-ascii', 32],
      ['obj', 32],
    ]);
    expect(r.extras?.postures['home']?.['shoulder_lift_joint']).toBe(-1.5708);
  });

  it('a Panda-class arm: 7 revolute joints with its published limits, a mimic gripper, the flange at (0.088, 0, 0.926)', () => {
    const r = load(PANDA);
    expect(r.problems).toEqual([]);
    const d = r.description!;
    expect(chainTo(d, 'tcp')!.joints.filter((n) => d.joints.find((j) => j.name === n)!.kind === 'revolute')).toHaveLength(7);
    expect(d.joints.find((j) => j.name === 'joint4')!.limit).toMatchObject({ lower: -3.0718, upper: -0.0698 });
    expect(r.extras?.gripper).toEqual({ kind: 'mimic', joint: 'finger_joint1' });
    const flange = zeroPose(d, 'link8');
    expect(flange[0]).toBeCloseTo(0.088, 6);
    expect(flange[1]).toBeCloseTo(0, 6);
    expect(flange[2]).toBeCloseTo(0.333 + 0.316 + 0.384 - 0.107, 6);
    expect(r.extras?.cameraLink).toBe('camera_link');
    // Fields left out of the sidecar take their stated defaults, each reported.
    expect(r.notes.map((n) => n.field)).toEqual(['speed.jointRadPerS', 'speed.baseMPerS', 'base', 'battery']);
    expect(r.extras?.speed.jointRadPerS).toBe(2.175);
  });

  it('a mobile manipulator in xacro: macros, blocks, expressions, an include and an arg expand to a planar base with a 6-DoF arm', () => {
    const r = load(MOBILE);
    expect(r.problems).toEqual([]);
    const d = r.description!;
    expect(d.root).toBe('odom');
    expect(d.joints.find((j) => j.name === 'base_joint')!.kind).toBe('planar');
    const arm = chainTo(d, 'tcp')!;
    expect(arm.joints.filter((n) => /^arm_joint_\d$/.test(n))).toHaveLength(6);
    expect(d.joints.find((j) => j.name === 'arm_joint_3')!.origin.xyz).toEqual([-0.425, 0, 0]);
    expect(d.joints.find((j) => j.name === 'arm_joint_1')!.limit!.velocity).toBeCloseTo(Math.PI, 9);
    expect(d.links.find((l) => l.name === 'base_link')!.collisions[0]!.geometry).toEqual({ kind: 'box', size: [0.89, 0.58, 0.3] });
    expect(d.links.some((l) => l.name === 'head_camera')).toBe(true);
    expect(r.extras).toMatchObject({ base: 'planar', cameraLink: 'head_camera', battery: { capacityWh: 400 } });
    expect(reach(d, arm)).toBeGreaterThan(0.9);
    const noCamera = load(MOBILE, [], { with_camera: 'false' });
    expect(noCamera.description!.links.some((l) => l.name === 'head_camera')).toBe(false);
    // The sidecar names the camera link, which this variant lacks: said, not replaced.
    expect(classes(noCamera)).toEqual(['error sidecar mobile_manipulator.skillbridge.json: cameraLink: link "head_camera" does not exist']);
  });
});

describe('problems, each on its element', () => {
  it('reports every class once: no limits, unknown mimic, disconnected, two roots, no inertial, zero mass, mesh missing, flat, DAE', () => {
    const r = load(BROKEN);
    expect(r.description!.name).toBe('broken');
    expect(classes(r).sort()).toEqual(
      [
        'warning joint "shoulder": a revolute joint without <limit>: its range is unknown',
        'error joint "finger_joint": mimics joint "no_such_joint", which does not exist',
        'error link "loose": no joint connects this link: it is disconnected',
        'error robot: more than one root: "base", "other_root"; "base" is the robot\'s',
        'warning link "upper": no <inertial>: its mass and inertia are unknown',
        'warning link "lower": zero mass',
        `warning link "base": mesh "meshes/missing.stl" not found; looked at ${join(ROBOTS, 'broken/meshes/missing.stl')}`,
        'warning link "lower": mesh "meshes/flat.stl" is flat: its points span no volume, so it has no convex hull',
        'warning link "lower": visual mesh "meshes/lower.dae": COLLADA (.dae) is not read; the link is drawn as its collision shapes',
      ].sort(),
    );
    expect(r.problems.every((p) => p.fix.length > 0)).toBe(true);
    expect(r.sidecar?.found).toBe(false);
    expect(r.notes[0]!.note).toContain('every field takes its default');
  });

  const dir = mkdtempSync(join(tmpdir(), 'sb-urdf-'));
  const write = (name: string, text: string): string => {
    const p = join(dir, name);
    mkdirSync(join(p, '..'), { recursive: true });
    writeFileSync(p, text);
    return p;
  };
  const robot = (body: string) => `<robot name="r"><link name="a"/>${body}</robot>`;

  it('bad values name their field; the element is left out, never given a made-up value', () => {
    const f = write(
      'bad/values.urdf',
      robot(`<link name="b"><inertial><mass value="-1"/></inertial><collision><geometry><box size="1 2"/></geometry></collision></link>
        <joint name="j" type="revolute"><parent link="a"/><child link="b"/><axis xyz="0 0 0"/><limit lower="1" upper="-1" velocity="1" effort="1"/></joint>
        <joint name="k" type="hinge"><parent link="a"/><child link="b"/></joint>`),
    );
    const r = load(f);
    expect(classes(r)).toEqual([
      'error link "b": inertial.mass must not be negative',
      'error link "b": collisions[0].geometry.size[0] must be a finite number',
      'error link "b": collisions[0].geometry.size[1] must be a finite number',
      'error link "b": collisions[0].geometry.size[2] must be a finite number',
      'error joint "j": axis must not be the zero vector',
      'error joint "j": limit.lower lower must not be above upper',
      'error joint "k": type "hinge" is not a URDF joint type',
    ]);
    expect(r.description?.joints).toEqual([]);
  });

  it('a file that is no robot description is bad input in one line', () => {
    expect(() => load(write('x/not.urdf', 'hello'))).toThrow(RobotFileError);
    expect(() => load(write('x/scene.urdf', '<scene/>'))).toThrow(/its root element is <scene>, not <robot>/);
    expect(() => load(join(dir, 'x/none.urdf'))).toThrow(/no such file/);
  });

  it('package:// meshes are found in the named package folder, and nothing outside the allowed folders is read', () => {
    write('pkgs/my_robot/meshes/m.obj', 'v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\nf 1 2 3\n');
    write('secret/s.obj', 'v 0 0 0\n');
    const f = write(
      'desc/r.urdf',
      robot(`<link name="b"><inertial><mass value="1"/></inertial>
        <collision><geometry><mesh filename="package://my_robot/meshes/m.obj"/></geometry></collision>
        <visual><geometry><mesh filename="../secret/s.obj"/></geometry></visual></link>
        <joint name="j" type="fixed"><parent link="a"/><child link="b"/></joint>`),
    );
    const without = load(f);
    expect(classes(without)).toEqual([
      `warning link "b": mesh "package://my_robot/meshes/m.obj" not found; looked at ${join(dir, 'desc/my_robot/meshes/m.obj')}`,
      `warning link "b": mesh "../secret/s.obj" not found; looked at ${join(dir, 'secret/s.obj')} (outside the allowed folders)`,
    ]);
    const withPkg = load(f, [join(dir, 'pkgs')]);
    expect(withPkg.meshes.get('package://my_robot/meshes/m.obj')?.mesh.triangles).toBe(1);
    expect(withPkg.meshes.has('../secret/s.obj')).toBe(false);
  });

  it('the sidecar: unknown fields, unknown names and postures outside the limits are its problems', () => {
    const f = write(
      'side/arm.urdf.xacro',
      robot(`<link name="b"><inertial><mass value="1"/></inertial></link>
        <joint name="j" type="revolute"><parent link="a"/><child link="b"/><limit lower="-1" upper="1" effort="1" velocity="1"/></joint>`),
    );
    expect(sidecarPath(f)).toBe(join(dir, 'side/arm.skillbridge.json'));
    writeFileSync(sidecarPath(f), JSON.stringify({ endEffector: 'nope', postures: { home: { j: 2, q: 0 } }, payload: 3 }));
    expect(classes(load(f))).toEqual(['error sidecar arm.skillbridge.json: (top level): unknown field(s) payload']);
    writeFileSync(sidecarPath(f), JSON.stringify({ endEffector: 'nope', postures: { home: { j: 2, q: 0 } } }));
    expect(classes(load(f))).toEqual([
      'error sidecar arm.skillbridge.json: endEffector: link "nope" does not exist',
      'error sidecar arm.skillbridge.json: postures.home: j = 2 is outside its limits [-1, 1]',
      'error sidecar arm.skillbridge.json: postures.home: joint "q" does not exist',
    ]);
    writeFileSync(sidecarPath(f), '{"payloadKg": ');
    expect(classes(load(f))[0]).toMatch(/^error sidecar arm.skillbridge.json: not JSON/);
  });
});

describe("a description given as text (the robot's own robot_description)", () => {
  const text = readFileSync(UR, 'utf8');
  const origin = 'robot_description of ws://127.0.0.1:9090 (the ROS 1 parameter server)';

  it('loads as the file does, its package:// meshes from the package folder named; no sidecar, every extra its default', () => {
    const fromRobot = loadRobotText({ text, origin }, robotPackages([join(ROBOTS, 'ur5e_like')]));
    const fromFile = load(UR);
    expect(fromRobot.description).toEqual(fromFile.description);
    expect(fromRobot.problems).toEqual([]);
    expect([...fromRobot.meshes.keys()]).toEqual([...fromFile.meshes.keys()]);
    expect(fromRobot.file).toBe(origin);
    expect(fromRobot.sidecar).toBeNull();
    expect(fromRobot.notes[0]).toEqual({
      field: '(file)',
      note: 'a description from the robot has no sidecar: every field takes its default',
    });
    expect(fromRobot.extras?.endEffector).toBeDefined();
  });

  it('a package is found by the name its package.xml gives, in a checkout named otherwise or a workspace holding it', () => {
    const ws = mkdtempSync(join(tmpdir(), 'sb-ws-'));
    // A repository checked out under another name (ur_description lives in Universal_Robots_ROS2_Description), inside a workspace's src.
    const checkout = join(ws, 'src', 'UR_like_Description');
    cpSync(join(ROBOTS, 'ur5e_like'), checkout, { recursive: true });
    for (const folder of [checkout, join(ws, 'src'), ws]) {
      const r = loadRobotText({ text, origin }, robotPackages([folder]));
      expect({ folder, problems: r.problems }).toEqual({ folder, problems: [] });
      expect(r.meshes.size).toBe(load(UR).meshes.size);
    }
  });

  it("meshes come only from the package folders named: without one each is a warning on its link, never another robot's", () => {
    const r = loadRobotText({ text, origin }, robotPackages([]));
    expect(r.meshes.size).toBe(0);
    expect(r.description?.name).toBe('ur5e_like');
    expect(r.problems.length).toBeGreaterThan(0);
    for (const p of r.problems) {
      expect(p.severity).toBe('warning');
      expect(p.element).toMatch(/^link "/);
      expect(p.problem).toMatch(/^mesh "package:\/\/ur5e_like\/meshes\/\w+\.(stl|obj)" not available from the robot$/);
      expect(p.fix).toBe('give --package-dir DIR (the folder of the ROS package "ur5e_like", or one holding it)');
    }
    // A relative path names a file beside the URDF on the robot's disk: nothing here, whatever folders were named.
    const rel = loadRobotText(
      { text: text.replaceAll('package://ur5e_like/meshes/', '../meshes/'), origin },
      robotPackages([join(ROBOTS, 'ur5e_like')]),
    );
    expect(rel.meshes.size).toBe(0);
    expect(rel.problems[0]?.problem).toBe('mesh "../meshes/base.stl" not available from the robot');
    // A package folder named that lacks the file: where it was looked for.
    const other = loadRobotText(
      { text: text.replaceAll('package://ur5e_like/', 'package://panda_like/'), origin },
      robotPackages([ROBOTS]),
    );
    expect(other.problems[0]?.problem).toMatch(
      /^mesh "package:\/\/panda_like\/meshes\/base.stl" not found; looked at .*panda_like\/meshes\/base.stl$/,
    );
  });

  it('a xacro:include in it reads only from the package folders named', () => {
    const xacro = `<robot name="r" xmlns:xacro="http://www.ros.org/wiki/xacro"><xacro:include filename="arm.xacro"/><link name="a"/></robot>`;
    const r = loadRobotText({ text: xacro, origin }, robotPackages([join(ROBOTS, 'mobile_manipulator')]));
    expect(r.description).toBeNull();
    expect(r.problems).toEqual([
      {
        element: 'xacro:include "arm.xacro"',
        problem: 'arm.xacro is not available from the robot',
        fix: 'name the package folder with --package-dir DIR, and include it as $(find PKG)/… or package://PKG/…',
        severity: 'error',
      },
    ]);
  });

  it('reads meshes only under a grant the host policy made (a plain folder list does not type-check)', () => {
    const refused = () => {
      // @ts-expect-error package folders are RobotPackages, made by the host policy from what the person named
      loadRobotText({ text, origin }, { folders: ['/'] });
    };
    expect(typeof refused).toBe('function');
  });

  it('text that is no URDF is bad input naming where it came from', () => {
    expect(() => loadRobotText({ text: 'not xml <', origin }, robotPackages([]))).toThrow(RobotFileError);
    expect(() => loadRobotText({ text: '<launch/>', origin }, robotPackages([]))).toThrow(
      `${origin} is not a URDF: its root element is <launch>, not <robot>`,
    );
  });
});
