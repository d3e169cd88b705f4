// Kinematics of the 5-DoF arm shared by every robot here: base yaw, shoulder,
// elbow and wrist pitch in one vertical plane, then wrist roll. Closed-form IK
// (predictable, fast, and its failures say why), in the arm's mount frame:
// forward +X, up +Y, left -Z. Pitch angles are measured from straight up,
// positive leaning forward; the hand points down at 180°.
import type { ArmConfig } from '../../scenes/schema';
import { type Quat, type Vec3, qAxisAngle, qMul, qYaw, rad, rotate, v3, wrapAngle } from '../math';

/** [yaw, shoulder, elbow, wristPitch, wristRoll] in radians. */
export type Joints = [number, number, number, number, number];
export const JOINT_NAMES = ['yaw', 'shoulder', 'elbow', 'wristPitch', 'wristRoll'] as const;

export interface ArmGeometry {
  shoulderHeight: number;
  upperArm: number;
  forearm: number;
  hand: number;
  limits: Array<[number, number]>; // radians, per joint
}

export function armGeometry(cfg: ArmConfig): ArmGeometry {
  const l = cfg.limits;
  return {
    shoulderHeight: cfg.shoulderHeight,
    upperArm: cfg.upperArm,
    forearm: cfg.forearm,
    hand: cfg.hand,
    limits: [l.yaw, l.shoulder, l.elbow, l.wristPitch, l.wristRoll].map(([a, b]) => [rad(a), rad(b)]),
  };
}

export interface ArmFk {
  shoulder: Vec3;
  elbow: Vec3;
  wrist: Vec3;
  tcp: Vec3;
  /** Tool frame: local +Y is the approach (hand) axis, local +Z the finger closing axis. */
  toolQ: Quat;
  /** Orientations whose local +Y runs along the upper arm, forearm and hand. */
  upperQ: Quat;
  foreQ: Quat;
  yawQ: Quat;
}

const Z = v3(0, 0, 1);
const Y = v3(0, 1, 0);

/** Orientation whose local +Y points at `pitch` from vertical in the yawed arm plane. */
export function planeQ(yaw: number, pitch: number): Quat {
  return qMul(qYaw(yaw), qAxisAngle(Z, -pitch));
}

export function toolQuat(yaw: number, handPitch: number, roll: number): Quat {
  return qMul(planeQ(yaw, handPitch), qAxisAngle(Y, roll));
}

export function forwardKinematics(g: ArmGeometry, q: Joints): ArmFk {
  // Indexed, not destructured: destructuring runs the array iterator, which cold
  // code (a one-shot CLI call) does with an object per element.
  const yaw = q[0];
  const s = q[1];
  const e = q[2];
  const w = q[3];
  const r = q[4];
  const a1 = s;
  const a2 = s + e;
  const a3 = s + e + w;
  const dir = (a: number): Vec3 => {
    // In the arm plane: r = sin a (forward), h = cos a (up); then yaw about +Y.
    const fwd = Math.sin(a);
    return { x: fwd * Math.cos(yaw), y: Math.cos(a), z: -fwd * Math.sin(yaw) };
  };
  const shoulder = v3(0, g.shoulderHeight, 0);
  const elbow = addScaled(shoulder, dir(a1), g.upperArm);
  const wrist = addScaled(elbow, dir(a2), g.forearm);
  const tcp = addScaled(wrist, dir(a3), g.hand);
  return {
    shoulder,
    elbow,
    wrist,
    tcp,
    toolQ: toolQuat(yaw, a3, r),
    upperQ: planeQ(yaw, a1),
    foreQ: planeQ(yaw, a2),
    yawQ: qYaw(yaw),
  };
}

function addScaled(a: Vec3, d: Vec3, s: number): Vec3 {
  return { x: a.x + d.x * s, y: a.y + d.y * s, z: a.z + d.z * s };
}

/** Where the wrist would have to be for the hand's pitch, and how far the upper arm and forearm reach. */
export interface WristNeed {
  /** Wrist to shoulder for this target and pitch, metres. */
  wrist: number;
  /** Upper arm + forearm (longest), or their difference (shortest), metres. */
  limit: number;
  /** Hand pitch from straight up, radians (π = pointing down). */
  pitch: number;
}

export type IkFailure =
  | ({ kind: 'out_of_reach'; distance: number; reach: number } & WristNeed)
  | ({ kind: 'too_close'; distance: number } & WristNeed)
  | { kind: 'joint_limit'; joint: (typeof JOINT_NAMES)[number]; value: number };

export type IkResult = { ok: true; joints: Joints } | { ok: false; failure: IkFailure };

export interface IkTarget {
  /** Tool centre point in the arm mount frame. */
  position: Vec3;
  /** Hand pitch from vertical (π = pointing straight down, π/2 = horizontal). */
  pitch: number;
  /** Desired horizontal finger-closing direction (mount frame), for top grasps; any roll otherwise. */
  closing?: Vec3;
  /** Roll to use when no closing direction is given. */
  roll?: number;
}

/** Straight-line reach of the arm from its shoulder. */
export function armReach(g: ArmGeometry): number {
  return g.upperArm + g.forearm + g.hand;
}

function inLimits(g: ArmGeometry, q: Joints): IkFailure | null {
  for (let i = 0; i < 5; i++) {
    const limit = g.limits[i]!;
    const lo = limit[0];
    const hi = limit[1];
    const v = q[i]!;
    if (v < lo - 1e-9 || v > hi + 1e-9) return { kind: 'joint_limit', joint: JOINT_NAMES[i]!, value: v };
  }
  return null;
}

/** Whole turns fitTurn tries, in order. */
const TURNS = [0, 1, -1, 2, -2] as const;

/** Puts an angle into a joint's range by adding turns, when one fits. */
function fitTurn(angle: number, limit: [number, number]): number {
  const lo = limit[0];
  const hi = limit[1];
  for (let i = 0; i < TURNS.length; i++) {
    const v = angle + TURNS[i]! * 2 * Math.PI;
    if (v >= lo - 1e-9 && v <= hi + 1e-9) return v;
  }
  return angle;
}

/**
 * Closed-form IK. `seed` (the joints the arm has now, or the previous sample of a
 * path) picks among equivalent solutions: the base yaw nearer the seed, and for
 * a closing direction the wrist roll nearer the seed's (the fingers are
 * symmetric, so a half turn grips the same; jumping to it would fling what the
 * hand holds).
 */
export function inverseKinematics(g: ArmGeometry, target: IkTarget, seed?: Joints): IkResult {
  const seedYaw = seed?.[0];
  const P = target.position;
  const horiz = Math.hypot(P.x, P.z);
  const toward = horiz < 1e-6 ? (seedYaw ?? 0) : Math.atan2(-P.z, P.x);
  // Two ways to face a point: turn the base joint toward it, or turn it away and
  // reach back over the shoulder (mirrored, so the hand keeps its world pitch).
  // Prefer the one nearer the current yaw: a point just behind the mount would
  // otherwise swing the whole arm round half a turn for a short move.
  const candidates: { yaw: number; reach: number; pitch: number }[] = [
    { yaw: fitTurn(toward, g.limits[0]!), reach: horiz, pitch: target.pitch },
    { yaw: fitTurn(toward + Math.PI, g.limits[0]!), reach: -horiz, pitch: -target.pitch },
  ];
  if (seedYaw !== undefined && horiz >= 1e-6) {
    // What candidates.sort((a, b) => off(a.yaw) - off(b.yaw)) does with two: the
    // second goes first when it compares below the first.
    const off = (y: number): number => Math.abs(wrapAngle(y - seedYaw));
    if (off(candidates[1]!.yaw) - off(candidates[0]!.yaw) < 0) candidates.reverse();
  }
  let first: IkResult | undefined;
  for (let i = 0; i < candidates.length; i++) {
    const c = candidates[i]!;
    const r = solvePlanar(g, target, c.yaw, c.reach, c.pitch, seed?.[4]);
    if (r.ok) return r;
    first ??= r;
    // Out of reach is the same either way round; only limits differ.
    if (r.failure.kind !== 'joint_limit') return r;
  }
  return first!;
}

function solvePlanar(g: ArmGeometry, target: IkTarget, yaw: number, horiz: number, a3: number, seedRoll?: number): IkResult {
  const P = target.position;
  const wr = horiz - g.hand * Math.sin(a3);
  const wh = P.y - g.shoulderHeight - g.hand * Math.cos(a3);
  const d = Math.hypot(wr, wh);
  const L1 = g.upperArm;
  const L2 = g.forearm;
  const shoulderDist = Math.hypot(horiz, P.y - g.shoulderHeight);
  const pitch = Math.abs(a3);
  if (d > L1 + L2 - 1e-6) {
    return { ok: false, failure: { kind: 'out_of_reach', distance: shoulderDist, reach: armReach(g), wrist: d, limit: L1 + L2, pitch } };
  }
  if (d < Math.abs(L1 - L2) + 1e-6) {
    return { ok: false, failure: { kind: 'too_close', distance: shoulderDist, wrist: d, limit: Math.abs(L1 - L2), pitch } };
  }
  const phi = Math.atan2(wr, wh); // from vertical toward forward
  const beta = Math.acos(clampUnit((L1 * L1 + d * d - L2 * L2) / (2 * L1 * d)));
  const gamma = Math.acos(clampUnit((L1 * L1 + L2 * L2 - d * d) / (2 * L1 * L2)));
  let roll = target.roll ?? 0;
  if (target.closing) {
    // Closing axis of the tool at roll r, expressed in the yawed arm plane, must match `closing`.
    const c = rotate(qYaw(-yaw), target.closing);
    // For a hand pitched by a3, local closing (sin r, 0, cos r) maps through rotZ(-a3).
    // Its horizontal part is (sin r·cos a3, ·, cos r) when the hand points down-ish; solve on z/x.
    const cosA3 = Math.cos(a3);
    roll = Math.abs(cosA3) > 1e-3 ? Math.atan2(c.x / cosA3, c.z) : Math.atan2(c.x, c.z);
    // The fingers are symmetric: a half turn gives the same grasp; keep the smaller roll.
    roll = wrapAngle(roll);
    if (roll > Math.PI / 2) roll -= Math.PI;
    if (roll < -Math.PI / 2) roll += Math.PI;
    if (seedRoll !== undefined) roll = nearestHalfTurn(roll, seedRoll, g.limits[4]!);
  }
  let lastFailure: IkFailure | null = null;
  for (let branch = 0; branch < 2; branch++) {
    const elbowUp = branch === 0;
    const a1 = elbowUp ? phi - beta : phi + beta;
    const q2 = elbowUp ? Math.PI - gamma : -(Math.PI - gamma);
    const a2 = a1 + q2;
    const q3 = a3 - a2;
    const q: Joints = [yaw, a1, q2, fitTurn(q3, g.limits[3]!), fitTurn(roll, g.limits[4]!)];
    const bad = inLimits(g, q);
    if (!bad) return { ok: true, joints: q };
    lastFailure = bad;
  }
  return { ok: false, failure: lastFailure! };
}

/** The roll, or a half turn either way, nearest the seed and within the joint's range. */
function nearestHalfTurn(roll: number, seed: number, limit: [number, number]): number {
  const lo = limit[0];
  const hi = limit[1];
  let best = roll;
  let bestD = Infinity;
  for (let k = -3; k <= 3; k++) {
    const r = roll + k * Math.PI;
    if (r < lo - 1e-9 || r > hi + 1e-9) continue;
    const d = Math.abs(r - seed);
    if (d < bestD - 1e-9) {
      best = r;
      bestD = d;
    }
  }
  return best;
}

function clampUnit(x: number): number {
  return Math.max(-1, Math.min(1, x));
}

export function jointsFromDeg(d: readonly number[]): Joints {
  return [rad(d[0]!), rad(d[1]!), rad(d[2]!), rad(d[3]!), rad(d[4]!)];
}
