import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { builtinRobots } from '../../scenes/registry';
import { fuzzRuns, fuzzSeed } from '../../test/fuzz/support/budget';
import { dist, dot, rotate, v3 } from '../math';
import { armGeometry, inverseKinematics } from './arm-kinematics';
import { buildChain } from './chain';
import { chainKinematics, fiveDofKinematics, simToUrdf, toolFrame, urdfToSim } from './kinematics';
import { ur5eClass } from './reference-arms';

const arm = builtinRobots().get('tabletop_arm')!.arm!;
const five = fiveDofKinematics(arm);
const Y = v3(0, 1, 0);
const Z = v3(0, 0, 1);

describe('the kinematics seam', () => {
  it('turns URDF Z-up into the sim Y-up and back', () => {
    expect(urdfToSim([0, 0, 1])).toEqual(v3(0, 1, 0));
    expect(urdfToSim([0, 1, 0])).toEqual(v3(0, 0, -1));
    expect(simToUrdf(urdfToSim([0.1, 0.2, 0.3]))).toEqual([0.1, 0.2, 0.3]);
  });

  it('the 5-DoF arm answers as its closed form does, and its tool frame is the one toolFrame asks a chain for', () => {
    const g = armGeometry(arm);
    fc.assert(
      fc.property(
        fc.double({ min: 0.15, max: 0.4, noNaN: true }),
        fc.double({ min: -0.1, max: 0.2, noNaN: true }),
        fc.double({ min: -0.3, max: 0.3, noNaN: true }),
        fc.double({ min: 0, max: Math.PI, noNaN: true }),
        (x, y, z, turn) => {
          const target = { position: v3(x, y, z), pitch: Math.PI, closing: v3(Math.cos(turn), 0, Math.sin(turn)) };
          const r = five.ik(target);
          const direct = inverseKinematics(g, target);
          expect(r.ok).toBe(direct.ok);
          if (!r.ok || !direct.ok) return;
          expect(r.joints).toEqual([...direct.joints]);
          const tool = five.tool(r.joints);
          expect(dist(tool.p, target.position)).toBeLessThan(1e-6);
          const want = toolFrame(target, five.shoulder);
          expect(dot(rotate(tool.q, Y), want.approach)).toBeCloseTo(1, 6);
          expect(Math.abs(dot(rotate(tool.q, Z), want.closing))).toBeCloseTo(1, 6);
        },
      ),
      { numRuns: fuzzRuns(40), seed: fuzzSeed(39) },
    );
  });

  it('a UR5e-class chain takes the same top-grasp targets: the point, the hand down, the fingers across the closing direction', () => {
    const c = buildChain(ur5eClass(), 'base_link', 'tool0');
    if (!c.ok) throw new Error(c.problem.kind);
    const ur = chainKinematics(c.chain, { approach: [0, 0, 1], closing: [0, 1, 0] });
    expect(ur.jointNames).toHaveLength(6);
    fc.assert(
      fc.property(
        fc.double({ min: 0.3, max: 0.6, noNaN: true }),
        fc.double({ min: -0.1, max: 0.3, noNaN: true }),
        fc.double({ min: -0.4, max: 0.4, noNaN: true }),
        fc.double({ min: 0, max: Math.PI, noNaN: true }),
        (x, y, z, turn) => {
          const target = { position: v3(x, y, z), pitch: Math.PI, closing: v3(Math.cos(turn), 0, Math.sin(turn)) };
          const r = ur.ik(target);
          if (!r.ok) throw new Error(r.why);
          const tool = ur.tool(r.joints);
          expect(dist(tool.p, target.position)).toBeLessThan(0.001);
          expect(rotate(tool.q, Y).y).toBeCloseTo(-1, 4);
          expect(Math.abs(dot(rotate(tool.q, Z), target.closing))).toBeCloseTo(1, 4);
          expect(r.joints.every((q, i) => q >= ur.limits[i]![0] && q <= ur.limits[i]![1])).toBe(true);
          expect(dist(ur.links(r.joints).at(-1)!.pose.p, tool.p)).toBeLessThan(1e-9);
        },
      ),
      { numRuns: fuzzRuns(30), seed: fuzzSeed(39) },
    );
  });

  it('says why a chain cannot reach, in the words of its failure', () => {
    const c = buildChain(ur5eClass(), 'base_link', 'tool0');
    if (!c.ok) throw new Error(c.problem.kind);
    const r = chainKinematics(c.chain, { approach: [0, 0, 1], closing: [0, 1, 0] }).ik({ position: v3(3, 0, 0), pitch: Math.PI });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.why).toMatch(/^the target is 3\.000 m from the first joint; the arm reaches 1\.312 m at most$/);
  });
});
