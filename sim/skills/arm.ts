// Arm motions for skills: joint moves, straight tool paths (IK every step) and
// the fingers. World-frame targets are converted to the arm's mount frame once.
import { type Pose, type Vec3, dist, lerp, poseApply, poseInv, rotate, qConj, round, deg } from '../math';
import { type IkFailure, type IkResult, JOINT_NAMES, type Joints, inverseKinematics, jointsFromDeg } from '../body/arm-kinematics';
import { JointMotion, QUINTIC_PEAK, SampledMotion, ScalarMotion, smooth } from '../body/motion';
import type { SimWorld } from '../world/sim-world';
import type { SkillOptions } from './outcome';

export class MotionFailure extends Error {
  constructor(
    readonly ik: IkFailure | undefined,
    message: string,
  ) {
    super(message);
  }
}

/** A joint change this large from one path sample to the next means the IK switched branch (radians). */
export const BRANCH_JUMP = 0.1;

export interface ToolTarget {
  position: Vec3;
  pitch: number;
  /** Horizontal finger-closing direction in the world, for top grasps. */
  closing?: Vec3;
  roll?: number;
}

export function armConfig(sim: SimWorld) {
  const arm = sim.scene.robot.arm;
  if (!arm) throw new Error('this robot has no arm');
  return arm;
}

/** The arm's mount in the world and its inverse, for the base pose now (a path's samples share them). */
interface MountFrame {
  mount: Pose;
  inv: Pose;
}

function mountFrame(sim: SimWorld): MountFrame {
  const mount = sim.bodyLinks.mountPose(sim.body.basePose);
  return { mount, inv: poseInv(mount) };
}

/** IK for a world-frame tool target, nearest the arm's joints now (or `seed`). */
export function solve(sim: SimWorld, t: ToolTarget, seed: Joints | undefined = sim.body.q): IkResult {
  return solveIn(sim, mountFrame(sim), t, seed);
}

function solveIn(sim: SimWorld, frame: MountFrame, t: ToolTarget, seed: Joints | undefined): IkResult {
  const local = poseApply(frame.inv, t.position);
  const closing = t.closing ? rotate(qConj(frame.mount.q), t.closing) : undefined;
  return inverseKinematics(
    sim.bodyLinks.geometry!,
    {
      position: local,
      pitch: t.pitch,
      ...(closing ? { closing } : {}),
      ...(t.roll !== undefined ? { roll: t.roll } : {}),
    },
    seed,
  );
}

/** Shoulder position in the world (reach is measured from here). */
export function shoulderWorld(sim: SimWorld): Vec3 {
  const mount = sim.bodyLinks.mountPose(sim.body.basePose);
  return poseApply(mount, { x: 0, y: sim.bodyLinks.geometry!.shoulderHeight, z: 0 });
}

/** How the hand is held, in words: pointing down, tilted, horizontal. */
function handWords(pitch: number): string {
  const tilt = round(deg(Math.PI - pitch), 0);
  if (tilt === 0) return 'with the hand pointing down';
  if (tilt === 90) return 'with the hand level';
  return `with the hand tilted ${tilt}° from straight down`;
}

/** Two lengths in words that keep their order: more digits when rounding would make them equal. */
function pairOf(a: number, b: number): [number, number] {
  for (const digits of [2, 3, 4]) if (round(a, digits) !== round(b, digits)) return [round(a, digits), round(b, digits)];
  return [round(a, 4), round(b, 4)];
}

/** An IK failure in words whose numbers agree with the failure: beyond reach says what is farther than what. */
export function describeIk(f: IkFailure, what: string): string {
  switch (f.kind) {
    case 'out_of_reach': {
      if (f.distance > f.reach) {
        const [d, r] = pairOf(f.distance, f.reach);
        return `${what} is ${d} m from the arm's shoulder; the arm reaches ${r} m`;
      }
      // The IK gives up a hair before full stretch: that is the reach it quotes.
      const [w, l] = pairOf(Math.max(f.wrist, f.limit + 1e-4), f.limit);
      return `${what} is ${round(f.distance, 2)} m from the arm's shoulder, but ${handWords(f.pitch)} the wrist would have to be ${w} m from the shoulder, and the upper arm and forearm reach ${l} m`;
    }
    case 'too_close':
      return `${what} is too close to the arm's shoulder (${round(f.distance, 2)} m): ${handWords(f.pitch)} the wrist would have to be ${round(f.wrist, 2)} m from it, nearer than the arm folds (${round(f.limit, 2)} m)`;
    case 'joint_limit':
      return `reaching ${what} would need the ${f.joint} joint at ${round(deg(f.value), 0)}°, past its limit`;
  }
}

/** Keeps yaw continuous between IK solutions (no half-turn jumps). */
function continuous(q: Joints, prev: Joints | undefined, limits: Array<[number, number]>): Joints {
  if (!prev) return q;
  const out: Joints = [q[0], q[1], q[2], q[3], q[4]];
  // Joints 0 and 4 (yaw and roll), a turn back then forward; loops over indices
  // rather than array literals (cold code allocates for those every sample).
  for (let i = 0; i <= 4; i += 4) {
    for (let k = -1; k <= 1; k += 2) {
      const alt = out[i]! + k * 2 * Math.PI;
      const limit = limits[i]!;
      if (alt >= limit[0] && alt <= limit[1] && Math.abs(alt - prev[i]!) < Math.abs(out[i]! - prev[i]!)) out[i] = alt;
    }
  }
  return out;
}

export async function moveJoints(sim: SimWorld, q: Joints, opts: SkillOptions): Promise<void> {
  const arm = armConfig(sim);
  const from = sim.body.q!;
  const to = continuous(q, from, sim.bodyLinks.geometry!.limits);
  const m = new JointMotion(from, to, (arm.maxJointSpeed * Math.PI) / 180);
  sim.setArmMotion(m);
  await sim.runUntil(() => !sim.armBusy, opts);
}

export async function movePosture(sim: SimWorld, name: string, opts: SkillOptions): Promise<void> {
  const arm = armConfig(sim);
  const p = arm.postures[name];
  if (!p) throw new Error(`no posture "${name}"`);
  await moveJoints(sim, jointsFromDeg(p), opts);
}

/**
 * Plans a straight tool path from `from` (where the arm is at `seed`); throws
 * MotionFailure if any point is unreachable, or if following it would need the
 * arm to swing round to another solution part-way (a jump no motor makes).
 */
export function planLine(sim: SimWorld, from: Vec3, to: ToolTarget, what: string, seed: Joints | undefined = sim.body.q): Joints[] {
  const arm = armConfig(sim);
  const d = dist(from, to.position);
  const duration = Math.max(0.2, (d / arm.maxToolSpeed) * QUINTIC_PEAK);
  const n = Math.max(1, Math.ceil(duration / sim.dt));
  const out: Joints[] = [];
  // Planning does not move the base: every sample is in the same mount frame.
  const frame = mountFrame(sim);
  let prev = seed;
  for (let i = 1; i <= n; i++) {
    const p = lerp(from, to.position, smooth(i / n));
    const r = solveIn(sim, frame, { ...to, position: p }, prev);
    if (!r.ok) throw new MotionFailure(r.failure, describeIk(r.failure, what));
    const q = continuous(r.joints, prev, sim.bodyLinks.geometry!.limits);
    if (prev) {
      const j = worstJump(prev, q);
      if (j.delta > BRANCH_JUMP) {
        throw new MotionFailure(
          undefined,
          `reaching ${what} in a straight line would need the ${JOINT_NAMES[j.joint]} joint to swing ${round(deg(j.delta), 0)}° at once`,
        );
      }
    }
    out.push(q);
    prev = q;
  }
  return out;
}

function worstJump(a: Joints, b: Joints): { joint: number; delta: number } {
  let joint = 0;
  let delta = 0;
  for (let i = 0; i < 5; i++) {
    const d = Math.abs(b[i]! - a[i]!);
    if (d > delta) {
      joint = i;
      delta = d;
    }
  }
  return { joint, delta };
}

export type ApproachPlan = { ok: true; startJoints: Joints; line: Joints[] } | { ok: false; message: string; ik: IkFailure | undefined };

/**
 * Joints that put the tool at `start`, and a continuous straight path from there
 * to `end`: on the arm's branch nearest its joints now, else reaching round the
 * other way (the base yaw half a turn off). A straight approach that only works
 * by switching branch part-way is no approach.
 */
export function planApproach(sim: SimWorld, start: ToolTarget, end: ToolTarget, what: string): ApproachPlan {
  const q = sim.body.q!;
  const mirrored = [q[0] + Math.PI, q[1], q[2], q[3], q[4]] as Joints;
  let first: ApproachPlan | undefined;
  for (const seed of [q, mirrored]) {
    const s = solve(sim, start, seed);
    if (!s.ok) {
      first ??= { ok: false, message: describeIk(s.failure, what), ik: s.failure };
      continue;
    }
    try {
      return { ok: true, startJoints: s.joints, line: planLine(sim, start.position, end, what, s.joints) };
    } catch (e) {
      if (!(e instanceof MotionFailure)) throw e;
      first ??= { ok: false, message: e.message, ik: e.ik };
    }
  }
  return first!;
}

export async function followLine(sim: SimWorld, samples: Joints[], opts: SkillOptions): Promise<void> {
  const m = new SampledMotion(samples);
  sim.setArmMotion(m);
  await sim.runUntil(() => !sim.armBusy, opts);
}

export async function moveLine(sim: SimWorld, to: ToolTarget, what: string, opts: SkillOptions): Promise<void> {
  const from = sim.tcp()!.p;
  await followLine(sim, planLine(sim, from, to, what), opts);
}

export async function gripperTo(sim: SimWorld, width: number, opts: SkillOptions): Promise<void> {
  const arm = armConfig(sim);
  const w = Math.max(0, Math.min(arm.gripperMaxOpening, width));
  if (Math.abs(w - sim.body.opening) < 1e-4) return;
  const m = new ScalarMotion(sim.body.opening, w, 0.2);
  sim.setGripperMotion(m);
  await sim.runUntil(() => m.done, opts);
}

/** Hand pitch angles to try, from straight down to tilted. */
export const TOP_PITCHES = [Math.PI, (5 * Math.PI) / 6, (3 * Math.PI) / 4, (2 * Math.PI) / 3];
