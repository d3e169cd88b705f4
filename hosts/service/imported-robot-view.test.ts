// The app draws a robot from its description: the session service (as serve
// --urdf makes it) describes every link of the described arm with its shapes —
// meshes as triangles — streams every link's pose where the chain's forward
// kinematics puts it, and the arm's own joints by name; the scene meta passes
// the contract. A robot that cannot stand in the scene is refused, never drawn
// as the scene's robot.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FLOATS_PER_POSE, FRAME_HEADER } from '../../contract/frames';
import { SceneMeta } from '../../contract/schemas';
import { loadRobot } from '../../scenes/urdf/load';
import { poseMul } from '../../sim/math';
import { robotFiles } from '../../test/support/robot-files';
import { AppService } from './app-service';

const ROBOTS = join(import.meta.dirname, '../../test/fixtures/robots');
const UR5E = join(ROBOTS, 'ur5e_like/urdf/ur5e_like.urdf');

describe('a described robot in the app', () => {
  const session = new AppService({ paced: false, urdf: loadRobot(robotFiles(UR5E)) });
  let meta: SceneMeta;
  let latest: Float32Array | undefined;

  beforeAll(async () => {
    session.onPoses((f) => (latest = f));
    meta = await session.loadScene({ id: 'tabletop/fruits' });
  });
  afterAll(() => session.dispose());

  it('describes every link with its shapes (meshes as triangles) and the arm joints by their names', () => {
    expect(SceneMeta.parse(meta)).toEqual(meta);
    expect(meta.robot.title).toBe('ur5e_like');
    expect(meta.robot.jointNames).toEqual([
      'shoulder_pan_joint',
      'shoulder_lift_joint',
      'elbow_joint',
      'wrist_1_joint',
      'wrist_2_joint',
      'wrist_3_joint',
      'gripper',
    ]);
    const parts = meta.robot.bodies.map((b) => b.part);
    // The built-in arm's six parts stand for some links; the others are there by name.
    expect(parts).toEqual(expect.arrayContaining(['base', 'turret', 'upper', 'fore', 'hand', 'fingerA', 'fingerB']));
    expect(parts.filter((p) => p.startsWith('link:'))).toEqual(expect.arrayContaining(['link:wrist_1_link', 'link:wrist_2_link']));
    for (const b of meta.robot.bodies) expect(b.stream, b.part).toBe(meta.stream.indexOf(`robot#${b.part}`));
    // The shoulder and the wrists are STL and OBJ meshes: drawn as their hulls' triangles.
    const meshes = meta.robot.bodies.flatMap((b) => b.parts.filter((p) => p.geometry.shape === 'mesh').map(() => b.part));
    expect(meshes).toEqual(expect.arrayContaining(['turret', 'link:wrist_1_link', 'link:wrist_2_link']));
    const wrist = meta.robot.bodies.find((b) => b.part === 'link:wrist_1_link')!.parts[0]!.geometry;
    if (wrist.shape !== 'mesh') throw new Error('the wrist is a mesh');
    expect(wrist.indices.length).toBeGreaterThanOrEqual(12);
  });

  it('streams every link where the forward kinematics puts it, and the joints after the poses', async () => {
    expect((await session.callTool({ name: 'pick', args: { object_name: 'lemon' } })).ok).toBe(true);
    const f = latest!;
    const sim = (session as unknown as { loaded: { control: { world: import('../../sim/world/sim-world').SimWorld } } }).loaded.control
      .world;
    const q = sim.body.q!;
    const mount = sim.bodyLinks.mountPose(sim.body.basePose);
    const links = new Map(sim.kinematics!.links(q).map((l) => [l.name, poseMul(mount, l.pose).p]));
    for (const name of ['wrist_1_link', 'wrist_2_link', 'wrist_3_link']) {
      const o = FRAME_HEADER + meta.stream.indexOf(`robot#link:${name}`) * FLOATS_PER_POSE;
      const want = links.get(name)!;
      expect(Math.hypot(f[o]! - want.x, f[o + 1]! - want.y, f[o + 2]! - want.z), name).toBeLessThan(1e-4);
    }
    const j = FRAME_HEADER + meta.stream.length * FLOATS_PER_POSE;
    expect(f.length).toBe(j + 7);
    for (let i = 0; i < 6; i++) expect(f[j + i]).toBeCloseTo(q[i]!, 5);
    expect(f[j + 6]).toBeCloseTo(sim.body.opening, 5);
  });

  it('a description that cannot be the robot is refused on load, naming its problems', async () => {
    const broken = new AppService({ paced: false, urdf: loadRobot(robotFiles(join(ROBOTS, 'broken/broken.urdf'))) });
    try {
      await expect(broken.loadScene({ id: 'tabletop/fruits' })).rejects.toMatchObject({
        code: 'invalid_request',
        message: expect.stringContaining('mimics joint "no_such_joint"'),
      });
    } finally {
      await broken.dispose();
    }
  });
});
