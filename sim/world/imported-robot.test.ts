// A robot description in a scene: its links' bodies are where the chain's
// forward kinematics puts them, its fingers stand the opening apart along the
// tool's closing axis, the tool point the skills read is the chain's, and what
// cannot be simulated is refused on its element.
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { builtinScene } from '../../scenes/registry';
import { type LoadedRobot, loadRobot } from '../../scenes/urdf/load';
import { robotFiles } from '../../test/support/robot-files';
import { fuzzRuns, fuzzSeed } from '../../test/fuzz/support/budget';
import { dist, dot, normalize, poseMul, rotate, sub, v3 } from '../math';
import { RobotImportError, withImportedRobot } from './imported-robot';
import { SimWorld } from './sim-world';

const ROBOTS = join(import.meta.dirname, '../../test/fixtures/robots');
const load = (f: string): LoadedRobot => loadRobot(robotFiles(join(ROBOTS, f)));

describe('a described robot in the simulated world', () => {
  it('every link body, finger and the tool point follow the chain, for any joints and opening', async () => {
    const sim = await SimWorld.create(withImportedRobot(builtinScene('tabletop/fruits'), load('ur5e_like/urdf/ur5e_like.urdf')), {
      settle: 0,
    });
    const kin = sim.kinematics!;
    expect(kin.kind).toBe('chain');
    expect(sim.scene.robot.id).toBe('ur5e_like');
    expect(sim.body.posture).toBe('home');
    const chain = sim.bodyLinks.chain!;
    const mount = sim.bodyLinks.mountPose(sim.body.basePose);
    const joint = (i: number) => {
      const [lo, hi] = kin.limits[i]!;
      return fc.double({ min: Math.max(lo, -Math.PI), max: Math.min(hi, Math.PI), noNaN: true });
    };
    fc.assert(
      fc.property(
        fc.tuple(...kin.limits.map((_, i) => joint(i))),
        fc.double({ min: 0, max: sim.scene.robot.arm!.gripperMaxOpening, noNaN: true }),
        (q, opening) => {
          sim.bodyLinks.apply(sim.body.basePose, q, opening, true);
          const want = new Map(kin.links(q).map((l) => [l.name, poseMul(mount, l.pose)]));
          for (const [name, body] of chain.bodies) {
            const t = sim.world.getRigidBody(body).translation();
            expect(dist(v3(t.x, t.y, t.z), want.get(name)!.p)).toBeLessThan(1e-5);
          }
          const tool = poseMul(mount, kin.tool(q));
          expect(dist(sim.bodyLinks.tcpPose(sim.body.basePose, q).p, tool.p)).toBeLessThan(1e-9);
          // The fixture's fingers are 1 cm thick: their centres stand the opening plus that apart, along the closing axis.
          const parts = sim.bodyLinks.partPoses(sim.body.basePose, q, opening);
          const apart = sub(parts.fingerA.p, parts.fingerB.p);
          expect(Math.abs(Math.hypot(apart.x, apart.y, apart.z) - (opening + 0.01))).toBeLessThan(1e-6);
          expect(Math.abs(dot(normalize(apart), rotate(tool.q, v3(0, 0, 1))))).toBeGreaterThan(1 - 1e-6);
        },
      ),
      { numRuns: fuzzRuns(40), seed: fuzzSeed(39) },
    );
  });

  it('a gripper it has no hand for, and a description with errors, are refused on their elements', () => {
    const ur = load('ur5e_like/urdf/ur5e_like.urdf');
    const suction = { ...ur, extras: { ...ur.extras!, gripper: { kind: 'suction' as const } } };
    const scene = builtinScene('tabletop/fruits');
    expect(() => withImportedRobot(scene, suction)).toThrow(RobotImportError);
    try {
      withImportedRobot(scene, suction);
    } catch (e) {
      expect((e as RobotImportError).problems.map((p) => p.element)).toEqual(['sidecar gripper']);
    }
    const broken = load('broken/broken.urdf');
    try {
      withImportedRobot(scene, broken);
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(RobotImportError);
      expect((e as RobotImportError).problems.every((p) => p.severity === 'error')).toBe(true);
      expect((e as RobotImportError).problems.map((p) => p.element)).toContain('link "loose"');
    }
  });
});
