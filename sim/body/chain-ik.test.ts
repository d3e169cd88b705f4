import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Joint, RobotDescription } from '../../scenes/urdf/model';
import { fuzzRuns, fuzzSeed } from '../../test/fuzz/support/budget';
import { type Chain, buildChain, describeChainProblem, tipPose } from './chain';
import { chainSolver, describeIkFailure, goalOf, type IkGoal } from './chain-ik';
import { quatOf } from './chain-math';
import { pandaClass, ur5eClass } from './reference-arms';

function chainOf(robot: RobotDescription, base: string, tip: string): Chain {
  const r = buildChain(robot, base, tip);
  if (!r.ok) throw new Error(describeChainProblem(r.problem));
  return r.chain;
}

const ARMS = [
  { name: 'UR5e-class', chain: chainOf(ur5eClass(), 'base_link', 'tool0') },
  { name: 'Panda-class', chain: chainOf(pandaClass(), 'link0', 'link8') },
];

const inLimits = (chain: Chain) =>
  fc.tuple(...chain.variables.map((v) => fc.double({ min: v.lower, max: v.upper, noNaN: true }))).map((q) => q.slice());

/** Position (metres) and orientation (radians) between the pose q reaches and the goal. */
function miss(chain: Chain, q: ArrayLike<number>, goal: IkGoal): { position: number; angle: number } {
  const t = tipPose(chain, q);
  const p = goal.position;
  const position = Math.hypot(t[3]! - p[0], t[7]! - p[1], t[11]! - p[2]);
  if (!goal.orientation) return { position, angle: 0 };
  const a = quatOf(t);
  const b = goal.orientation;
  const d = Math.abs(a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3]);
  return { position, angle: 2 * Math.acos(Math.min(1, d)) };
}

function withinLimits(chain: Chain, q: ArrayLike<number>): boolean {
  return chain.variables.every((v, i) => q[i]! >= v.lower && q[i]! <= v.upper);
}

const coord = (r: number) => fc.double({ min: -r, max: r, noNaN: true });

const HALF_DEGREE = (0.5 * Math.PI) / 180;

describe.each(ARMS)('IK of the $name arm', ({ chain }) => {
  const solver = chainSolver(chain);

  it('reaches the pose of any in-limit joints, from other joints, within 1 mm and 0.5°, inside the limits', () => {
    fc.assert(
      fc.property(inLimits(chain), inLimits(chain), (q, seed) => {
        const goal = goalOf(tipPose(chain, q));
        const r = solver.solve(goal, { seed });
        if (!r.ok) throw new Error(describeIkFailure(r.failure));
        const m = miss(chain, r.joints, goal);
        expect(m.position).toBeLessThanOrEqual(0.001);
        expect(m.angle).toBeLessThanOrEqual(HALF_DEGREE);
        expect(withinLimits(chain, r.joints)).toBe(true);
      }),
      { numRuns: fuzzRuns(60), seed: fuzzSeed(39) },
    );
  });

  it('never answers with joints outside the limits, whatever the goal', () => {
    const reach = chain.reach;
    fc.assert(
      fc.property(
        fc.tuple(coord(reach), coord(reach), coord(reach)),
        fc.tuple(coord(1), coord(1), coord(1), coord(1)),
        fc.boolean(),
        (p, q, oriented) => {
          const n = Math.hypot(...q);
          fc.pre(n > 1e-3);
          const goal: IkGoal = { position: p, orientation: oriented ? [q[0] / n, q[1] / n, q[2] / n, q[3] / n] : null };
          const r = solver.solve(goal, { attempts: 4 });
          if (r.ok) {
            expect(withinLimits(chain, r.joints)).toBe(true);
            expect(miss(chain, r.joints, goal).position).toBeLessThanOrEqual(0.001);
          } else expect(describeIkFailure(r.failure)).not.toBe('');
        },
      ),
      { numRuns: fuzzRuns(30), seed: fuzzSeed(39) },
    );
  });

  it('answers a target beyond its reach with the distance and the reach, never joints', () => {
    fc.assert(
      fc.property(fc.tuple(coord(1), coord(1), coord(1)), fc.double({ min: 1.001, max: 10, noNaN: true }), (dir, k) => {
        const n = Math.hypot(...dir);
        fc.pre(n > 1e-3);
        const d = (chain.reach * k) / n;
        const s = chain.shoulder;
        const r = solver.solve({ position: [s[0] + dir[0] * d, s[1] + dir[1] * d, s[2] + dir[2] * d], orientation: null });
        expect(r.ok).toBe(false);
        if (r.ok) return;
        expect(r.failure.kind).toBe('out_of_reach');
        if (r.failure.kind === 'out_of_reach') expect(r.failure.distance).toBeGreaterThan(r.failure.reach);
        expect(describeIkFailure(r.failure)).toMatch(/reaches .* m at most/);
      }),
      { numRuns: fuzzRuns(30), seed: fuzzSeed(39) },
    );
  });

  it('gives the same answer to the same question', () => {
    const goal = goalOf(
      tipPose(
        chain,
        chain.variables.map((v) => (v.lower + v.upper) / 3),
      ),
    );
    const a = solver.solve(goal);
    const b = solver.solve(goal);
    expect(a.ok && b.ok && Array.from(a.joints)).toEqual(b.ok && Array.from(b.joints));
  });

  it('stays put when the goal is where the tip already is', () => {
    const q = chain.variables.map((v) => (v.lower + 2 * v.upper) / 3);
    const r = solver.solve(goalOf(tipPose(chain, q)), { seed: q });
    expect(r.ok && Array.from(r.joints)).toEqual(q);
  });
});

const O = { xyz: [0, 0, 0] as [number, number, number], rpy: [0, 0, 0] as [number, number, number] };
function planar(limits: Array<[number, number] | null>): Chain {
  const joints: Joint[] = limits.map((l, i) => ({
    name: `j${i + 1}`,
    kind: l ? 'revolute' : 'continuous',
    parent: `l${i}`,
    child: `l${i + 1}`,
    origin: i === 0 ? O : { xyz: [0.5, 0, 0], rpy: [0, 0, 0] },
    axis: [0, 0, 1],
    limit: l ? { lower: l[0], upper: l[1], effort: null, velocity: null } : null,
    mimic: null,
  }));
  joints.push({
    ...joints[0]!,
    name: 'tip',
    kind: 'fixed',
    parent: `l${limits.length}`,
    child: 'tip',
    origin: { xyz: [0.5, 0, 0], rpy: [0, 0, 0] },
    limit: null,
  });
  const links = ['tip', ...limits.map((_, i) => `l${i}`), `l${limits.length}`].map((name) => ({
    name,
    inertial: null,
    collisions: [],
    visuals: [],
  }));
  return chainOf({ name: 'planar', root: 'l0', joints, links }, 'l0', 'tip');
}

describe('why IK fails', () => {
  it('refuses a goal that is not numbers, rather than reading NaN as far away', () => {
    const solver = chainSolver(planar([null]));
    const r = solver.solve({ position: [Number.NaN, 0, 0], orientation: null });
    expect(!r.ok && r.failure).toEqual({ kind: 'bad_goal', field: 'position' });
    const q = solver.solve({ position: [0.5, 0, 0], orientation: [0, 0, 0, 0] });
    expect(!q.ok && describeIkFailure(q.failure)).toMatch(/orientation is not a quaternion/);
  });

  it('names the joint whose limit stands between the arm and a reachable point', () => {
    // One joint of 0.5 m swinging only 0..0.5 rad: the point at 1 rad is on its circle, past the limit.
    const solver = chainSolver(planar([[0, 0.5]]));
    const r = solver.solve({ position: [0.5 * Math.cos(1), 0.5 * Math.sin(1), 0], orientation: null });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.failure).toMatchObject({ kind: 'joint_limit', joint: 'j1', lower: 0, upper: 0.5 });
    expect(describeIkFailure(r.failure)).toMatch(/^joint j1 would need 1\.000, outside its limits \[0\.000, 0\.500\]/);
  });

  it('says it did not converge, and by how much it missed, for a pose no joints give', () => {
    // A planar arm cannot tilt its tip out of its plane: stretched out, it misses by the tilt alone.
    const solver = chainSolver(planar([null, null]));
    const r = solver.solve({ position: [1, 0, 0], orientation: [Math.sin(0.4), 0, 0, Math.cos(0.4)] }, { attempts: 3 });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.failure.kind).toBe('no_convergence');
    if (r.failure.kind === 'no_convergence') expect(r.failure.orientationError).toBeCloseTo(0.8, 2);
    expect(describeIkFailure(r.failure)).toMatch(/no joint values reach the pose from 3 starts: the nearest missed by .* and 45\.8°/);
  });

  it('finds a point inside a small in-limit window from a start outside it', () => {
    const solver = chainSolver(
      planar([
        [-3, 3],
        [2, 2.2],
      ]),
    );
    const q = [0.4, 2.1];
    const goal = goalOf(tipPose(solver.chain, q), false);
    const r = solver.solve(goal, { seed: [-2, 2] });
    expect(r.ok && Array.from(r.joints).map((x) => Math.round(x * 1e4) / 1e4)).toEqual(q);
  });

  it('turns a continuous joint the short way from where it is', () => {
    const solver = chainSolver(planar([null]));
    const r = solver.solve({ position: [0, 0.5, 0], orientation: null }, { seed: [2 * Math.PI] });
    expect(r.ok && r.joints[0]).toBeCloseTo(2 * Math.PI + Math.PI / 2, 4);
  });
});
