// The arm's link poses for the physics step, without allocating. While the arm
// moves, every step sets the next pose of six kinematic links; BodyLinks.linkPoses
// (forward kinematics, then each link into the world) builds some sixty small
// objects for that. This computes the same numbers into one scratch array, with
// the same operations in the same order as sim/math.ts and arm-kinematics.ts, so
// the poses are bit for bit the ones linkPoses returns (a test holds them to it).
import type { Pose } from '../math';
import type { ArmGeometry, Joints } from './arm-kinematics';

/** Slots of the scratch array, 7 floats each: x, y, z, qx, qy, qz, qw. */
export const FRAME = { turret: 0, upper: 7, fore: 14, hand: 21, fingerA: 28, fingerB: 35, tcp: 42 } as const;
export type FrameName = keyof typeof FRAME;
/** The mount in the world (7 floats), and the mount's own rotation on the way there. */
const MOUNT = 49;
const MOUNT_Q = 56;
/** Rotations (4 floats each) of the turret, upper arm, forearm and tool in the mount frame, and a scratch one. */
const YAW_Q = 60;
const UPPER_Q = 64;
const FORE_Q = 68;
const TOOL_Q = 72;
const TMP_Q = 76;
const SIZE = 80;

/** o[oi..] = a * b (x, y, z, w), as qMul. */
function qmul(o: Float64Array, oi: number, a: Float64Array, ai: number, b: Float64Array, bi: number): void {
  const ax = a[ai]!;
  const ay = a[ai + 1]!;
  const az = a[ai + 2]!;
  const aw = a[ai + 3]!;
  const bx = b[bi]!;
  const by = b[bi + 1]!;
  const bz = b[bi + 2]!;
  const bw = b[bi + 3]!;
  const w = aw * bw - ax * bx - ay * by - az * bz;
  const x = aw * bx + ax * bw + ay * bz - az * by;
  const y = aw * by - ax * bz + ay * bw + az * bx;
  const z = aw * bz + ax * by - ay * bx + az * bw;
  o[oi] = x;
  o[oi + 1] = y;
  o[oi + 2] = z;
  o[oi + 3] = w;
}

/** o[oi..] = p + rotate(q, v), as add(p, rotate(q, v)). */
function place(
  o: Float64Array,
  oi: number,
  px: number,
  py: number,
  pz: number,
  q: Float64Array,
  qi: number,
  vx: number,
  vy: number,
  vz: number,
): void {
  const ux = q[qi]!;
  const uy = q[qi + 1]!;
  const uz = q[qi + 2]!;
  const qw = q[qi + 3]!;
  // t = 2 (u × v); v' = v + w t + u × t
  const tx = (uy * vz - uz * vy) * 2;
  const ty = (uz * vx - ux * vz) * 2;
  const tz = (ux * vy - uy * vx) * 2;
  const rx = vx + tx * qw + (uy * tz - uz * ty);
  const ry = vy + ty * qw + (uz * tx - ux * tz);
  const rz = vz + tz * qw + (ux * ty - uy * tx);
  o[oi] = px + rx;
  o[oi + 1] = py + ry;
  o[oi + 2] = pz + rz;
}

/** A link's world pose into o[at..]: the mount's pose applied to its point (mount frame), the mount's rotation times its own. */
function link(o: Float64Array, at: number, px: number, py: number, pz: number, rot: number): void {
  place(o, at, o[MOUNT]!, o[MOUNT + 1]!, o[MOUNT + 2]!, o, MOUNT + 3, px, py, pz);
  qmul(o, at + 3, o, MOUNT + 3, o, rot);
}

/** o[oi..] = the rotation whose local +Y points at `pitch` from vertical in the yawed plane (planeQ), then `roll` about Y when given (toolQuat). */
function planeQ(o: Float64Array, oi: number, yaw: number, pitch: number, roll?: number): void {
  // qYaw(yaw) into TMP_Q, qAxisAngle(Z, -pitch) into oi, their product into oi.
  o[TMP_Q] = 0;
  o[TMP_Q + 1] = Math.sin(yaw / 2);
  o[TMP_Q + 2] = 0;
  o[TMP_Q + 3] = Math.cos(yaw / 2);
  const s = Math.sin(-pitch / 2);
  o[oi] = 0 * s;
  o[oi + 1] = 0 * s;
  o[oi + 2] = 1 * s;
  o[oi + 3] = Math.cos(-pitch / 2);
  qmul(o, oi, o, TMP_Q, o, oi);
  if (roll === undefined) return;
  const r = Math.sin(roll / 2);
  o[TMP_Q] = 0 * r;
  o[TMP_Q + 1] = 1 * r;
  o[TMP_Q + 2] = 0 * r;
  o[TMP_Q + 3] = Math.cos(roll / 2);
  qmul(o, oi, o, oi, o, TMP_Q);
}

/**
 * Fills `out` with every link's world pose (FRAME slots) for a base pose,
 * mount, joints and finger opening: what linkPoses(...).links holds.
 */
export function linkFrames(
  out: Float64Array,
  g: ArmGeometry,
  arm: { hand: number; fingerLength: number },
  fingerThickness: number,
  basePose: Pose,
  mount: Pose,
  q: Joints,
  opening: number,
): void {
  if (out.length < SIZE) throw new Error(`linkFrames: scratch of ${out.length} floats, ${SIZE} needed`);
  // Indexed, not destructured (destructuring allocates in cold code).
  const yaw = q[0];
  const s = q[1];
  const e = q[2];
  const w = q[3];
  const r = q[4];
  const a1 = s;
  const a2 = s + e;
  const a3 = s + e + w;
  // Forward kinematics (arm-kinematics.ts): points along the arm in the mount frame.
  const cy = Math.cos(yaw);
  const sy = Math.sin(yaw);
  const f1 = Math.sin(a1);
  const ex = 0 + f1 * cy * g.upperArm;
  const ey = g.shoulderHeight + Math.cos(a1) * g.upperArm;
  const ez = 0 + -f1 * sy * g.upperArm;
  const f2 = Math.sin(a2);
  const wx = ex + f2 * cy * g.forearm;
  const wy = ey + Math.cos(a2) * g.forearm;
  const wz = ez + -f2 * sy * g.forearm;
  const f3 = Math.sin(a3);
  const tx = wx + f3 * cy * g.hand;
  const ty = wy + Math.cos(a3) * g.hand;
  const tz = wz + -f3 * sy * g.hand;
  planeQ(out, TOOL_Q, yaw, a3, r);
  planeQ(out, UPPER_Q, yaw, a1);
  planeQ(out, FORE_Q, yaw, a2);
  out[YAW_Q] = 0;
  out[YAW_Q + 1] = Math.sin(yaw / 2);
  out[YAW_Q + 2] = 0;
  out[YAW_Q + 3] = Math.cos(yaw / 2);

  // The mount in the world (poseMul(basePose, mount)).
  out[TMP_Q] = basePose.q.x;
  out[TMP_Q + 1] = basePose.q.y;
  out[TMP_Q + 2] = basePose.q.z;
  out[TMP_Q + 3] = basePose.q.w;
  place(out, MOUNT, basePose.p.x, basePose.p.y, basePose.p.z, out, TMP_Q, mount.p.x, mount.p.y, mount.p.z);
  out[MOUNT_Q] = mount.q.x;
  out[MOUNT_Q + 1] = mount.q.y;
  out[MOUNT_Q + 2] = mount.q.z;
  out[MOUNT_Q + 3] = mount.q.w;
  qmul(out, MOUNT + 3, out, TMP_Q, out, MOUNT_Q);
  link(out, FRAME.turret, 0, 0, 0, YAW_Q);
  link(out, FRAME.upper, 0, g.shoulderHeight, 0, UPPER_Q);
  link(out, FRAME.fore, ex, ey, ez, FORE_Q);
  link(out, FRAME.hand, wx, wy, wz, TOOL_Q);
  link(out, FRAME.tcp, tx, ty, tz, TOOL_Q);
  fingerFrames(out, arm, fingerThickness, opening);
}

/**
 * The fingers' world poses (FRAME slots) for an opening, from the hand's pose in
 * `out`: the end of linkFrames, alone for a step where only the fingers move.
 */
export function fingerFrames(
  out: Float64Array,
  arm: { hand: number; fingerLength: number },
  fingerThickness: number,
  opening: number,
): void {
  // Fingers span from 75% of their length behind the TCP to 25% past it.
  const fingerCentre = arm.hand - arm.fingerLength * 0.25;
  const side = opening / 2 + fingerThickness / 2;
  const h = FRAME.hand;
  const hx = out[h]!;
  const hy = out[h + 1]!;
  const hz = out[h + 2]!;
  place(out, FRAME.fingerA, hx, hy, hz, out, h + 3, 0, fingerCentre, side);
  place(out, FRAME.fingerB, hx, hy, hz, out, h + 3, 0, fingerCentre, -side);
  for (let k = 3; k < 7; k++) {
    out[FRAME.fingerA + k] = out[h + k]!;
    out[FRAME.fingerB + k] = out[h + k]!;
  }
}

/** Scratch for linkFrames. */
export function frameScratch(): Float64Array {
  return new Float64Array(SIZE);
}

/** One frame as a Pose (a new object). */
export function frameAt(frames: Float64Array, name: FrameName): Pose {
  const i = FRAME[name];
  return {
    p: { x: frames[i]!, y: frames[i + 1]!, z: frames[i + 2]! },
    q: { x: frames[i + 3]!, y: frames[i + 4]!, z: frames[i + 5]!, w: frames[i + 6]! },
  };
}
