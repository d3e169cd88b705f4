// A serial chain cut from a robot description: the joints from a base link to a
// tip link, fixed joints folded into the offsets between the moving ones, mimic
// joints following the joint they copy. Kept in URDF's frame (Z up, metres,
// radians); the sim's Y-up frame is the seam's business (kinematics.ts).
import type { JointKind, Origin, RobotDescription, V3 } from '../../scenes/urdf/model';
import { type Transform, fromOrigin, identity, mul, rotateLocal, translateLocal } from './chain-math';

/** A joint the chain's caller sets: one entry of the joint vector. */
export interface ChainVariable {
  name: string;
  kind: 'revolute' | 'continuous' | 'prismatic';
  /** Radians or metres; ±Infinity for a continuous joint. */
  lower: number;
  upper: number;
}

/** A moving joint on the path from base to tip. */
interface Moving {
  name: string;
  /** Fixed transform from the previous moving joint's frame (after its motion) to this joint's frame. */
  pre: Transform;
  axis: V3;
  prismatic: boolean;
  /** Index into the joint vector, and the joint's value as multiplier · q[variable] + offset. */
  variable: number;
  multiplier: number;
  offset: number;
}

/** Where a link on the path sits: after moving joint `after` (-1: the base), then `offset`. */
interface LinkPlace {
  link: string;
  after: number;
  offset: Transform;
}

export interface Chain {
  base: string;
  tip: string;
  variables: ChainVariable[];
  moving: Moving[];
  /** From the last moving joint's frame (after its motion) to the tip (and tool offset). */
  tipOffset: Transform;
  links: LinkPlace[];
  /** Straight-line reach from the first moving joint's origin, an upper bound (metres). */
  reach: number;
  /** The first moving joint's origin in the base frame: it never moves. */
  shoulder: V3;
}

export type ChainProblem =
  | { kind: 'unknown_link'; link: string; role: 'base' | 'tip' }
  | { kind: 'not_below'; base: string; tip: string }
  | { kind: 'unsupported_joint'; joint: string; jointKind: JointKind }
  | { kind: 'no_limits'; joint: string }
  | { kind: 'bad_axis'; joint: string }
  | { kind: 'bad_mimic'; joint: string; why: string }
  | { kind: 'no_moving_joints'; base: string; tip: string };

export type ChainResult = { ok: true; chain: Chain } | { ok: false; problem: ChainProblem };

export function describeChainProblem(p: ChainProblem): string {
  switch (p.kind) {
    case 'unknown_link':
      return `the ${p.role} link "${p.link}" is not in the robot description`;
    case 'not_below':
      return `link "${p.tip}" is not below link "${p.base}" in the tree: a chain runs from a link down to one of its descendants`;
    case 'unsupported_joint':
      return `joint "${p.joint}" is ${p.jointKind}: a serial chain takes revolute, continuous, prismatic and fixed joints (a mobile base comes from the robot's config)`;
    case 'no_limits':
      return `joint "${p.joint}" has no <limit>: a revolute or prismatic joint needs lower and upper limits`;
    case 'bad_axis':
      return `joint "${p.joint}" has a zero or non-finite axis`;
    case 'bad_mimic':
      return `joint "${p.joint}": ${p.why}`;
    case 'no_moving_joints':
      return `no joint moves between "${p.base}" and "${p.tip}"`;
  }
}

export interface ChainOptions {
  /** A tool centre point fixed to the tip link, in the tip's frame. */
  tool?: Origin;
}

export function buildChain(robot: RobotDescription, base: string, tip: string, options: ChainOptions = {}): ChainResult {
  const linkNames = new Set(robot.links.map((l) => l.name));
  if (!linkNames.has(base)) return { ok: false, problem: { kind: 'unknown_link', link: base, role: 'base' } };
  if (!linkNames.has(tip)) return { ok: false, problem: { kind: 'unknown_link', link: tip, role: 'tip' } };
  const byChild = new Map(robot.joints.map((j) => [j.child, j]));
  const byName = new Map(robot.joints.map((j) => [j.name, j]));
  const path = [];
  for (let at = tip; at !== base;) {
    const j = byChild.get(at);
    if (!j || path.length > robot.joints.length) return { ok: false, problem: { kind: 'not_below', base, tip } };
    path.push(j);
    at = j.parent;
  }
  path.reverse();

  const variables: ChainVariable[] = [];
  const moving: Moving[] = [];
  const links: LinkPlace[] = [{ link: base, after: -1, offset: identity() }];
  let pending = identity();
  for (const j of path) {
    const origin = fromOrigin(j.origin);
    pending = mul(pending, origin, new Float64Array(12));
    if (j.kind === 'fixed') {
      links.push({ link: j.child, after: moving.length - 1, offset: pending });
      continue;
    }
    if (j.kind !== 'revolute' && j.kind !== 'continuous' && j.kind !== 'prismatic')
      return { ok: false, problem: { kind: 'unsupported_joint', joint: j.name, jointKind: j.kind } };
    const n = Math.hypot(...j.axis);
    if (!(n > 1e-9) || !Number.isFinite(n)) return { ok: false, problem: { kind: 'bad_axis', joint: j.name } };
    const driver = followMimic(j.name, byName);
    if (!driver.ok) return { ok: false, problem: { kind: 'bad_mimic', joint: j.name, why: driver.why } };
    const master = byName.get(driver.master)!;
    let variable = variables.findIndex((v) => v.name === master.name);
    if (variable < 0) {
      const v = variableOf(master);
      if (!v) return { ok: false, problem: { kind: 'no_limits', joint: master.name } };
      variable = variables.push(v) - 1;
    }
    moving.push({
      name: j.name,
      pre: pending,
      axis: [j.axis[0] / n, j.axis[1] / n, j.axis[2] / n],
      prismatic: j.kind === 'prismatic',
      variable,
      multiplier: driver.multiplier,
      offset: driver.offset,
    });
    pending = identity();
    links.push({ link: j.child, after: moving.length - 1, offset: identity() });
  }
  if (!moving.length) return { ok: false, problem: { kind: 'no_moving_joints', base, tip } };
  const tipOffset = options.tool ? mul(pending, fromOrigin(options.tool), new Float64Array(12)) : pending;
  const first = moving[0]!.pre;
  return {
    ok: true,
    chain: {
      base,
      tip,
      variables,
      moving,
      tipOffset,
      links,
      reach: reachOf(moving, variables, tipOffset),
      shoulder: [first[3]!, first[7]!, first[11]!],
    },
  };
}

function variableOf(j: RobotDescription['joints'][number]): ChainVariable | null {
  if (j.kind === 'continuous') return { name: j.name, kind: 'continuous', lower: -Infinity, upper: Infinity };
  if (j.kind !== 'revolute' && j.kind !== 'prismatic') return null;
  if (!j.limit || !Number.isFinite(j.limit.lower) || !Number.isFinite(j.limit.upper) || j.limit.lower > j.limit.upper) return null;
  return { name: j.name, kind: j.kind, lower: j.limit.lower, upper: j.limit.upper };
}

type Driver = { ok: true; master: string; multiplier: number; offset: number } | { ok: false; why: string };

/** The independent joint a (chain of) mimic joint(s) copies, with the composed multiplier and offset. */
function followMimic(name: string, byName: Map<string, RobotDescription['joints'][number]>): Driver {
  let multiplier = 1;
  let offset = 0;
  const seen = new Set<string>();
  for (let at = name; ;) {
    const j = byName.get(at);
    if (!j) return { ok: false, why: `it mimics "${at}", which is not a joint of the robot` };
    if (!j.mimic) {
      if (j.kind !== 'revolute' && j.kind !== 'continuous' && j.kind !== 'prismatic')
        return { ok: false, why: `it mimics "${at}", a ${j.kind} joint` };
      return { ok: true, master: at, multiplier, offset };
    }
    if (seen.has(at)) return { ok: false, why: `its mimic joints form a loop through "${at}"` };
    seen.add(at);
    // value(at) = m · value(next) + o, composed into what is known so far.
    offset += multiplier * j.mimic.offset;
    multiplier *= j.mimic.multiplier;
    at = j.mimic.joint;
  }
}

/** Sum of the rigid segments from the first joint to the tip, plus every prismatic joint's longest travel. */
function reachOf(moving: Moving[], variables: ChainVariable[], tipOffset: Transform): number {
  let reach = Math.hypot(tipOffset[3]!, tipOffset[7]!, tipOffset[11]!);
  for (let k = 0; k < moving.length; k++) {
    const m = moving[k]!;
    if (k > 0) reach += Math.hypot(m.pre[3]!, m.pre[7]!, m.pre[11]!);
    if (m.prismatic) {
      const v = variables[m.variable]!;
      reach += Math.max(Math.abs(m.multiplier * v.lower + m.offset), Math.abs(m.multiplier * v.upper + m.offset));
    }
  }
  return reach;
}

/** The value of moving joint k for joint vector q. */
export function movingValue(m: Moving, q: ArrayLike<number>): number {
  return m.multiplier * q[m.variable]! + m.offset;
}

// Two scratch frames forwardInto alternates between: a solve allocates nothing.
const scratchA = new Float64Array(12);
const scratchB = new Float64Array(12);

/**
 * Forward kinematics into `out` (the tip pose, base frame). When `origins` and
 * `axes` are given they get each moving joint's origin and unit axis in the base
 * frame (3 numbers each), what the Jacobian needs; `frames`, each moving joint's
 * frame after its motion (12 numbers each).
 */
export function forwardInto(
  chain: Chain,
  q: ArrayLike<number>,
  out: Transform,
  origins?: Float64Array,
  axes?: Float64Array,
  frames?: Float64Array,
): Transform {
  const n = chain.moving.length;
  let f = scratchA;
  let spare = scratchB;
  for (let k = 0; k < n; k++) {
    const m = chain.moving[k]!;
    if (k === 0) f.set(m.pre);
    else {
      mul(spare, m.pre, f);
    }
    const ax = m.axis[0];
    const ay = m.axis[1];
    const az = m.axis[2];
    if (origins && axes) {
      origins[k * 3] = f[3]!;
      origins[k * 3 + 1] = f[7]!;
      origins[k * 3 + 2] = f[11]!;
      axes[k * 3] = f[0]! * ax + f[1]! * ay + f[2]! * az;
      axes[k * 3 + 1] = f[4]! * ax + f[5]! * ay + f[6]! * az;
      axes[k * 3 + 2] = f[8]! * ax + f[9]! * ay + f[10]! * az;
    }
    const v = movingValue(m, q);
    if (m.prismatic) translateLocal(f, ax, ay, az, v, f);
    else rotateLocal(f, ax, ay, az, v, f);
    if (frames) frames.set(f, k * 12);
    const t = spare;
    spare = f;
    f = t;
  }
  return mul(spare, chain.tipOffset, out);
}

/** Scratch for forwardInto's frames: one per moving joint. */
export function framesBuffer(chain: Chain): Float64Array {
  return new Float64Array(chain.moving.length * 12);
}

/** The tip pose (with the tool offset) in the base frame. */
export function tipPose(chain: Chain, q: ArrayLike<number>): Transform {
  return forwardInto(chain, q, new Float64Array(12));
}

/** Every link on the path from base to tip, with its frame in the base frame. */
export function linkFrames(chain: Chain, q: ArrayLike<number>): Array<{ link: string; frame: Transform }> {
  const frames = framesBuffer(chain);
  forwardInto(chain, q, new Float64Array(12), undefined, undefined, frames);
  return chain.links.map((l) => ({
    link: l.link,
    frame: l.after < 0 ? l.offset.slice() : mul(frames.subarray(l.after * 12, l.after * 12 + 12), l.offset, new Float64Array(12)),
  }));
}
