// The seam through which the simulated arm can be any chain. The skills speak
// to an arm in its mount frame (sim frame: forward +X, up +Y, left -Z) with a
// tool target: a point, the hand's pitch from straight up and, for a top grasp,
// the direction the fingers close along. Two implementations: the built-in
// 5-DoF arm (closed form) and a serial chain cut from a robot description
// (URDF frame, Z up, converted here and only here).
import type { ArmConfig } from '../../scenes/schema';
import type { V3 } from '../../scenes/urdf/model';
import { type Pose, type Quat, type Vec3, dot, length, normalize, qMul, rad, rotate, scale, sub, v3 } from '../math';
import {
  type IkFailure,
  type IkTarget,
  type Joints,
  JOINT_NAMES,
  armGeometry,
  armReach,
  forwardKinematics,
  inverseKinematics,
  planeQ,
} from './arm-kinematics';
import { type Chain, linkFrames, tipPose } from './chain';
import { type ChainIkFailure, chainSolver, describeIkFailure } from './chain-ik';
import { type Transform, quatOf } from './chain-math';

/** The tool pose a chain was asked for, in its base link's frame (URDF: metres, unit axes). */
export interface ChainGoal {
  frame: string;
  position: V3;
  /** The directions the hand approaches along and the fingers close along (either way round: they are symmetric). */
  approach: V3;
  closing: V3;
}

export type KinematicsFailure = { arm: 'five_dof'; failure: IkFailure } | { arm: 'chain'; failure: ChainIkFailure; goal: ChainGoal };

export type KinematicsResult = { ok: true; joints: number[] } | { ok: false; failure: KinematicsFailure; why: string };

/** One value per joint of the arm (radians or metres), in the kinematics' joint order. */
export type JointValues = readonly number[];

export interface Kinematics {
  /** The built-in closed-form arm, or a chain from a robot description. */
  readonly kind: 'five_dof' | 'chain';
  readonly jointNames: readonly string[];
  /** Radians or metres, per joint. */
  readonly limits: ReadonlyArray<readonly [number, number]>;
  /** Straight-line reach from the shoulder (metres). */
  readonly reach: number;
  /** Where reach is measured from, in the mount frame. */
  readonly shoulder: Vec3;
  /** Named postures in joint values (radians or metres). */
  readonly postures: Readonly<Record<string, readonly number[]>>;
  /** The tool pose in the mount frame: local +Y the approach axis, local +Z the finger-closing axis. */
  tool(q: readonly number[]): Pose;
  /** Every link's pose in the mount frame, base first, tool last. */
  links(q: readonly number[]): Array<{ name: string; pose: Pose }>;
  /** Joints that put the tool at the target, nearest `seed`, or why none do. */
  ik(target: IkTarget, seed?: readonly number[]): KinematicsResult;
}

/** The built-in 5-DoF arm behind the seam: the same closed form the skills call today. */
export function fiveDofKinematics(cfg: ArmConfig): Kinematics {
  const g = armGeometry(cfg);
  const postures = Object.fromEntries(Object.entries(cfg.postures).map(([name, d]) => [name, d.map(rad)]));
  const five = (q: readonly number[]): Joints => [q[0]!, q[1]!, q[2]!, q[3]!, q[4]!];
  return {
    kind: 'five_dof',
    jointNames: JOINT_NAMES,
    limits: g.limits,
    reach: armReach(g),
    shoulder: v3(0, g.shoulderHeight, 0),
    postures,
    tool: (q) => {
      const fk = forwardKinematics(g, five(q));
      return { p: fk.tcp, q: fk.toolQ };
    },
    links: (q) => {
      const fk = forwardKinematics(g, five(q));
      return [
        { name: 'turret', pose: { p: v3(), q: fk.yawQ } },
        { name: 'upper', pose: { p: fk.shoulder, q: fk.upperQ } },
        { name: 'fore', pose: { p: fk.elbow, q: fk.foreQ } },
        { name: 'hand', pose: { p: fk.wrist, q: fk.toolQ } },
        { name: 'tool', pose: { p: fk.tcp, q: fk.toolQ } },
      ];
    },
    ik: (target, seed) => {
      const r = inverseKinematics(g, target, seed ? five(seed) : undefined);
      return r.ok
        ? { ok: true, joints: [...r.joints] }
        : { ok: false, failure: { arm: 'five_dof', failure: r.failure }, why: r.failure.kind };
    },
  };
}

/** Which axes of the chain's tip frame (URDF) the hand approaches along and the fingers close along. */
export interface ToolAxes {
  approach: V3;
  closing: V3;
}

/** URDF base (x forward, y left, z up) to the sim mount frame (x forward, y up, z right). */
export const urdfToSim = (v: V3): Vec3 => v3(v[0], v[2], 0 - v[1]);
export const simToUrdf = (v: Vec3): V3 => [v.x, 0 - v.z, v.y];

/** A serial chain behind the seam: its base link is the arm's mount. */
export function chainKinematics(chain: Chain, axes: ToolAxes, postures: Record<string, readonly number[]> = {}): Kinematics {
  const solver = chainSolver(chain);
  const app = unit(axes.approach);
  const cl = unit(orthogonal(axes.closing, app));
  const third = cross3(app, cl);
  const poseOf = (t: Transform): Pose => {
    // Tool frame in sim terms: +Y along the approach axis, +Z along the closing axis.
    const R = (c: V3): Vec3 =>
      urdfToSim([
        t[0]! * c[0] + t[1]! * c[1] + t[2]! * c[2],
        t[4]! * c[0] + t[5]! * c[1] + t[6]! * c[2],
        t[8]! * c[0] + t[9]! * c[1] + t[10]! * c[2],
      ]);
    return { p: urdfToSim([t[3]!, t[7]!, t[11]!]), q: quatFromAxes(R(third), R(app), R(cl)) };
  };
  return {
    kind: 'chain',
    jointNames: chain.variables.map((v) => v.name),
    limits: chain.variables.map((v) => [v.lower, v.upper] as const),
    reach: chain.reach,
    shoulder: urdfToSim(chain.shoulder),
    postures,
    tool: (q) => poseOf(tipPose(chain, q)),
    links: (q) =>
      linkFrames(chain, q).map((l) => ({
        name: l.link,
        pose: { p: urdfToSim([l.frame[3]!, l.frame[7]!, l.frame[11]!]), q: urdfQuatToSim(quatOf(l.frame)) },
      })),
    ik: (target, seed) => {
      // The fingers are symmetric: closing along -c grips the same; try the other way when the first has no answer.
      let first: KinematicsResult | undefined;
      for (const flip of [1, -1]) {
        const want = toolFrame(target, urdfToSim(chain.shoulder), flip);
        // R_tip maps the tip's (approach, closing, third) onto the wanted (a, c, a × c), all in URDF terms.
        const a = simToUrdf(want.approach);
        const c = simToUrdf(want.closing);
        const b = cross3(a, c);
        const m = [0, 1, 2].map((r) => [0, 1, 2].map((k) => a[r]! * app[k]! + c[r]! * cl[k]! + b[r]! * third[k]!));
        const position = simToUrdf(target.position);
        const r = solver.solve({ position, orientation: quatOfRows(m) }, seed ? { seed } : {});
        if (r.ok) return { ok: true, joints: Array.from(r.joints) };
        const goal = { frame: chain.base, position, approach: a, closing: c };
        first ??= { ok: false, failure: { arm: 'chain', failure: r.failure, goal }, why: describeIkFailure(r.failure) };
        if (r.failure.kind === 'out_of_reach') break;
      }
      return first!;
    },
  };
}

/** The tool's approach and closing axes (mount frame) a 5-DoF-style target asks for. */
export function toolFrame(t: IkTarget, shoulder: Vec3, flip = 1): { approach: Vec3; closing: Vec3 } {
  const d = sub(t.position, shoulder);
  const yaw = Math.hypot(d.x, d.z) < 1e-6 ? 0 : Math.atan2(-d.z, d.x);
  const plane = planeQ(yaw, t.pitch);
  const approach = rotate(plane, v3(0, 1, 0));
  let closing = t.closing ? orthogonalVec(t.closing, approach) : null;
  if (!closing) closing = rotate(qMul(plane, { x: 0, y: Math.sin((t.roll ?? 0) / 2), z: 0, w: Math.cos((t.roll ?? 0) / 2) }), v3(0, 0, 1));
  return { approach, closing: scale(closing, flip) };
}

function orthogonalVec(v: Vec3, n: Vec3): Vec3 | null {
  const o = sub(v, scale(n, dot(v, n)));
  return length(o) > 1e-6 ? normalize(o) : null;
}

const unit = (v: V3): V3 => {
  const n = Math.hypot(...v);
  return [v[0] / n, v[1] / n, v[2] / n];
};
const orthogonal = (v: V3, n: V3): V3 => {
  const d = v[0] * n[0] + v[1] * n[1] + v[2] * n[2];
  return [v[0] - d * n[0], v[1] - d * n[1], v[2] - d * n[2]];
};
const cross3 = (a: V3, b: V3): V3 => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];

/** The rotation whose columns are the given axes (right-handed, orthonormal), as a quaternion. */
function quatFromAxes(x: Vec3, y: Vec3, z: Vec3): Quat {
  const [qx, qy, qz, qw] = quatOfRows([
    [x.x, y.x, z.x],
    [x.y, y.y, z.y],
    [x.z, y.z, z.z],
  ]);
  return { x: qx, y: qy, z: qz, w: qw };
}

function quatOfRows(m: number[][]): [number, number, number, number] {
  const t = new Float64Array(12);
  for (let r = 0; r < 3; r++) for (let c = 0; c < 3; c++) t[r * 4 + c] = m[r]![c]!;
  return quatOf(t);
}

/** A URDF-frame rotation as a sim-frame one: conjugated by the frame change (a quarter turn about X). */
export function urdfQuatToSim(q: [number, number, number, number]): Quat {
  const v = urdfToSim([q[0], q[1], q[2]]);
  return { x: v.x, y: v.y, z: v.z, w: q[3] };
}
