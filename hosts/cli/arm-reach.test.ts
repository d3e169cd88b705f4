// robots check's reach by forward kinematics: exact on arms whose answer is
// known (a two-link arm, stretched or held bent by its limits), never beyond the
// sum of the offsets, never short of a pose fast-check picks within the limits; and
// unknown, with the reason, when the chain cannot be cut.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Joint, Link, RobotDescription } from '../../scenes/urdf/model';
import { buildChain, tipPose } from '../../sim/body/chain';
import { fuzzRuns, fuzzSeed } from '../../test/fuzz/support/budget';
import { fkReach } from './arm-reach';

const link = (name: string): Link => ({ name, inertial: null, collisions: [], visuals: [] });
const joint = (
  name: string,
  parent: string,
  child: string,
  x: number,
  limit: [number, number] | null,
  kind: Joint['kind'] = 'revolute',
): Joint => ({
  name,
  kind,
  parent,
  child,
  origin: { xyz: [x, 0, 0], rpy: [0, 0, 0] },
  axis: [0, 0, 1],
  limit: limit ? { lower: limit[0], upper: limit[1], effort: null, velocity: null } : null,
  mimic: null,
});
/** A planar two-link arm: 0.5 m then 0.3 m, turning about Z, on a base 0.2 m off. */
function twoLink(elbow: [number, number] | null): RobotDescription {
  return {
    name: 'two',
    root: 'base',
    links: ['base', 'upper', 'fore', 'tip'].map(link),
    joints: [
      joint('shoulder', 'base', 'upper', 0.2, [-Math.PI, Math.PI]),
      joint('elbow', 'upper', 'fore', 0.5, elbow),
      joint('tool', 'fore', 'tip', 0.3, null, 'fixed'),
    ],
  };
}

describe('the reach by forward kinematics', () => {
  it('a two-link arm stretched: 0.8 m from the shoulder, not the 0.2 m base offset too', () => {
    const r = fkReach(twoLink([-Math.PI, Math.PI]), 'tip');
    expect(r.ok && r.from).toBe('shoulder');
    expect(r.ok && r.reachM).toBeCloseTo(0.8, 6);
    expect(r.ok && r.boundM).toBeCloseTo(0.8, 9);
  });

  it('an elbow held between 90° and 180° by its limits: √(0.5² + 0.3²), below the sum of the offsets', () => {
    const r = fkReach(twoLink([Math.PI / 2, Math.PI]), 'tip');
    expect(r.ok && r.reachM).toBeCloseTo(Math.hypot(0.5, 0.3), 6);
  });

  it('a joint without limits: unknown, with the reason', () => {
    expect(fkReach(twoLink(null), 'tip')).toEqual({
      ok: false,
      why: 'joint "elbow" has no <limit>: a revolute or prismatic joint needs lower and upper limits',
    });
    expect(fkReach(twoLink(null), 'nowhere')).toEqual({ ok: false, why: 'link "nowhere" is not in the robot description' });
  });

  it('no pose within the limits reaches farther than the reach reported (by a micrometre), which the sum of the offsets bounds', () => {
    const d = twoLink([-2, 2.5]);
    const r = fkReach(d, 'tip');
    if (!r.ok) throw new Error(r.why);
    expect(r.reachM).toBeLessThanOrEqual(r.boundM + 1e-9);
    const chain = (buildChain(d, 'base', 'tip') as Extract<ReturnType<typeof buildChain>, { ok: true }>).chain;
    fc.assert(
      fc.property(fc.double({ min: -Math.PI, max: Math.PI, noNaN: true }), fc.double({ min: -2, max: 2.5, noNaN: true }), (a, b) => {
        const t = tipPose(chain, [a, b]);
        const [x, y, z] = chain.shoulder;
        expect(Math.hypot(t[3]! - x, t[7]! - y, t[11]! - z)).toBeLessThanOrEqual(r.reachM + 1e-6);
      }),
      { numRuns: fuzzRuns(200), seed: fuzzSeed(39) },
    );
  });
});
