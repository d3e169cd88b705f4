import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Joint, RobotDescription } from '../../scenes/urdf/model';
import { fuzzRuns, fuzzSeed } from '../../test/fuzz/support/budget';
import { buildChain, describeChainProblem, linkFrames, tipPose, type Chain } from './chain';
import { quatOf } from './chain-math';
import { PANDA_DH, PANDA_READY, UR5E_DH, pandaClass, ur5eClass } from './reference-arms';

function chainOf(robot: RobotDescription, base: string, tip: string): Chain {
  const r = buildChain(robot, base, tip);
  if (!r.ok) throw new Error(describeChainProblem(r.problem));
  return r.chain;
}

const pos = (t: Float64Array): number[] => [t[3]!, t[7]!, t[11]!];

/** 4×4 product of the DH convention written out independently of the chain code. */
type M4 = number[][];
const mm = (a: M4, b: M4): M4 => a.map((row) => [0, 1, 2, 3].map((c) => row.reduce((s, x, k) => s + x * b[k]![c]!, 0)));
const rz = (t: number): M4 => [
  [Math.cos(t), -Math.sin(t), 0, 0],
  [Math.sin(t), Math.cos(t), 0, 0],
  [0, 0, 1, 0],
  [0, 0, 0, 1],
];
const rx = (t: number): M4 => [
  [1, 0, 0, 0],
  [0, Math.cos(t), -Math.sin(t), 0],
  [0, Math.sin(t), Math.cos(t), 0],
  [0, 0, 0, 1],
];
const tr = (x: number, y: number, z: number): M4 => [
  [1, 0, 0, x],
  [0, 1, 0, y],
  [0, 0, 1, z],
  [0, 0, 0, 1],
];
const I4: M4 = tr(0, 0, 0);

function urDh(q: number[]): M4 {
  return q.reduce((T, t, i) => mm(mm(mm(mm(T, rz(t)), tr(0, 0, UR5E_DH.d[i]!)), tr(UR5E_DH.a[i]!, 0, 0)), rx(UR5E_DH.alpha[i]!)), I4);
}

function pandaDh(q: number[]): M4 {
  const T = q.reduce((M, t, i) => mm(mm(mm(mm(M, rx(PANDA_DH.alpha[i]!)), tr(PANDA_DH.a[i]!, 0, 0)), rz(t)), tr(0, 0, PANDA_DH.d[i]!)), I4);
  return mm(T, tr(0, 0, PANDA_DH.flange));
}

function expectSameTransform(t: Float64Array, m: M4): void {
  for (let r = 0; r < 3; r++) for (let c = 0; c < 4; c++) expect(t[r * 4 + c]).toBeCloseTo(m[r]![c]!, 9);
}

const inLimits = (chain: Chain) =>
  fc.tuple(...chain.variables.map((v) => fc.double({ min: v.lower, max: v.upper, noNaN: true }))).map((q) => q.slice());

describe('a UR5e-class arm from its DH parameters', () => {
  const chain = chainOf(ur5eClass(), 'base_link', 'tool0');

  it('has six joints, the flange folded in, and its zero pose where the DH table puts it', () => {
    expect(chain.variables.map((v) => v.name)).toEqual([
      'shoulder_pan_joint',
      'shoulder_lift_joint',
      'elbow_joint',
      'wrist_1_joint',
      'wrist_2_joint',
      'wrist_3_joint',
    ]);
    const t = tipPose(chain, [0, 0, 0, 0, 0, 0]);
    // All zeros: stretched out along -x, x = a2 + a3, y = -(d4 + d6), z = d1 - d5; the tool's z along -y.
    expect(pos(t)[0]).toBeCloseTo(-0.425 - 0.3922, 9);
    expect(pos(t)[1]).toBeCloseTo(-(0.1333 + 0.0996), 9);
    expect(pos(t)[2]).toBeCloseTo(0.1625 - 0.0997, 9);
    expect([t[2], t[6], t[10]].map((x) => Math.round(x! * 1e9) / 1e9)).toEqual([0, -1, 0]);
    expect(chain.reach).toBeGreaterThan(0.85);
  });

  it('agrees with the standard DH product at any joint values', () => {
    fc.assert(
      fc.property(inLimits(chain), (q) => expectSameTransform(tipPose(chain, q), urDh(q))),
      { numRuns: fuzzRuns(50), seed: fuzzSeed(39) },
    );
  });
});

describe('a Panda-class arm from its modified DH parameters', () => {
  const chain = chainOf(pandaClass(), 'link0', 'link8');

  it('has its flange 0.926 m up at zero, pointing down, and its ready pose where its maker puts it', () => {
    const zero = tipPose(chain, [0, 0, 0, 0, 0, 0, 0]);
    expect(pos(zero)[0]).toBeCloseTo(0.088, 9);
    expect(pos(zero)[1]).toBeCloseTo(0, 9);
    expect(pos(zero)[2]).toBeCloseTo(0.333 + 0.316 + 0.384 - 0.107, 9);
    expect(quatOf(zero)[0]).toBeCloseTo(1, 9);
    const ready = tipPose(chain, PANDA_READY);
    // The ready pose's flange: 0.307 m out, 0.590 m up, pointing straight down.
    expect(pos(ready)[0]).toBeCloseTo(0.307, 3);
    expect(pos(ready)[1]).toBeCloseTo(0, 9);
    expect(pos(ready)[2]).toBeCloseTo(0.59, 3);
    expect(ready[10]).toBeCloseTo(-1, 9);
  });

  it('agrees with the modified DH product at any joint values', () => {
    fc.assert(
      fc.property(inLimits(chain), (q) => expectSameTransform(tipPose(chain, q), pandaDh(q))),
      { numRuns: fuzzRuns(50), seed: fuzzSeed(39) },
    );
  });

  it('gives every link on the path its frame, the last one the tip', () => {
    const frames = linkFrames(chain, PANDA_READY);
    expect(frames.map((f) => f.link)).toEqual(['link0', 'link1', 'link2', 'link3', 'link4', 'link5', 'link6', 'link7', 'link8']);
    expect(Array.from(frames.at(-1)!.frame)).toEqual(Array.from(tipPose(chain, PANDA_READY)));
    expect(pos(frames[1]!.frame)).toEqual([0, 0, 0.333]);
  });
});

const O = { xyz: [0, 0, 0] as [number, number, number], rpy: [0, 0, 0] as [number, number, number] };
const lim = { lower: -1, upper: 1, effort: null, velocity: null };
function j(name: string, parent: string, child: string, over: Partial<Joint> = {}): Joint {
  return { name, kind: 'revolute', parent, child, origin: O, axis: [0, 0, 1], limit: lim, mimic: null, ...over };
}
function robot(joints: Joint[]): RobotDescription {
  const names = new Set(joints.flatMap((x) => [x.parent, x.child]));
  return { name: 't', root: 'a', joints, links: [...names].map((name) => ({ name, inertial: null, collisions: [], visuals: [] })) };
}

describe('cutting a chain', () => {
  it('follows a mimic joint: one variable drives both, with multiplier and offset', () => {
    const r = robot([
      j('j1', 'a', 'b'),
      j('j2', 'b', 'c', { origin: { xyz: [1, 0, 0], rpy: [0, 0, 0] }, mimic: { joint: 'j1', multiplier: 2, offset: 0.1 } }),
      j('f', 'c', 'd', { kind: 'fixed', origin: { xyz: [1, 0, 0], rpy: [0, 0, 0] } }),
    ]);
    const chain = chainOf(r, 'a', 'd');
    expect(chain.variables.map((v) => v.name)).toEqual(['j1']);
    const t = tipPose(chain, [0.3]);
    const a2 = 0.3 + (2 * 0.3 + 0.1);
    expect(pos(t)[0]).toBeCloseTo(Math.cos(0.3) + Math.cos(a2), 12);
    expect(pos(t)[1]).toBeCloseTo(Math.sin(0.3) + Math.sin(a2), 12);
  });

  it('says why a chain cannot be cut', () => {
    const problem = (r: RobotDescription, base: string, tip: string) => {
      const c = buildChain(r, base, tip);
      return c.ok ? 'ok' : c.problem.kind;
    };
    const two = robot([j('j1', 'a', 'b'), j('j2', 'b', 'c')]);
    expect(problem(two, 'a', 'nope')).toBe('unknown_link');
    expect(problem(two, 'c', 'a')).toBe('not_below');
    expect(problem(robot([j('j1', 'a', 'b', { kind: 'floating' })]), 'a', 'b')).toBe('unsupported_joint');
    expect(problem(robot([j('j1', 'a', 'b', { limit: null })]), 'a', 'b')).toBe('no_limits');
    expect(problem(robot([j('j1', 'a', 'b', { axis: [0, 0, 0] })]), 'a', 'b')).toBe('bad_axis');
    expect(
      problem(
        robot([
          j('j1', 'a', 'b', { mimic: { joint: 'j2', multiplier: 1, offset: 0 } }),
          j('j2', 'b', 'c', { mimic: { joint: 'j1', multiplier: 1, offset: 0 } }),
        ]),
        'a',
        'c',
      ),
    ).toBe('bad_mimic');
    expect(problem(robot([j('j1', 'a', 'b', { kind: 'fixed' })]), 'a', 'b')).toBe('no_moving_joints');
    const c = buildChain(robot([j('j1', 'a', 'b', { limit: null })]), 'a', 'b');
    expect(c.ok ? '' : describeChainProblem(c.problem)).toMatch(/joint "j1" has no <limit>/);
  });

  it('takes a tool offset beyond the tip', () => {
    const chain = chainOf(robot([j('j1', 'a', 'b', { origin: { xyz: [0, 0, 0], rpy: [0, 0, 0] } })]), 'a', 'b');
    const withTool = buildChain(robot([j('j1', 'a', 'b')]), 'a', 'b', { tool: { xyz: [0.5, 0, 0], rpy: [0, 0, 0] } });
    expect(withTool.ok && pos(tipPose(withTool.chain, [Math.PI / 2]))[1]).toBeCloseTo(0.5, 12);
    expect(pos(tipPose(chain, [1]))).toEqual([0, 0, 0]);
  });
});
