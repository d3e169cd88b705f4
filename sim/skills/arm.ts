// Arm motions for skills: joint moves, straight tool paths (IK every step) and
// the fingers. World-frame targets are converted to the arm's mount frame once.
import { type Pose, type Vec3, dist, dot, lerp, poseApply, poseInv, rotate, qConj, round, deg, v3 } from '../math';
import { describeIkFailure } from '../body/chain-ik';
import type { ChainGoal, JointValues, Kinematics, KinematicsFailure, KinematicsResult } from '../body/kinematics';
import { turning } from '../world/robot-body';
import { JointMotion, QUINTIC_PEAK, SampledMotion, ScalarMotion, smooth } from '../body/motion';
import type { SimWorld } from '../world/sim-world';
import type { SkillOptions } from './outcome';

export class MotionFailure extends Error {
  constructor(
    readonly ik: KinematicsFailure | undefined,
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

/** The arm's kinematics (every skill that moves the arm has checked there is one). */
export function kinematicsOf(sim: SimWorld): Kinematics {
  const k = sim.kinematics;
  if (!k) throw new Error('this robot has no arm');
  return k;
}

function mountFrame(sim: SimWorld): MountFrame {
  const mount = sim.bodyLinks.mountPose(sim.body.basePose);
  return { mount, inv: poseInv(mount) };
}

/** IK for a world-frame tool target, nearest the arm's joints now (or `seed`). */
export function solve(sim: SimWorld, t: ToolTarget, seed: JointValues | undefined = sim.body.q): KinematicsResult {
  return solveIn(sim, mountFrame(sim), t, seed);
}

function solveIn(sim: SimWorld, frame: MountFrame, t: ToolTarget, seed: JointValues | undefined): KinematicsResult {
  const local = poseApply(frame.inv, t.position);
  const closing = t.closing ? rotate(qConj(frame.mount.q), t.closing) : undefined;
  const kin = kinematicsOf(sim);
  const target = {
    position: local,
    pitch: t.pitch,
    ...(closing ? { closing } : {}),
    ...(t.roll !== undefined ? { roll: t.roll } : {}),
  };
  if (kin.kind === 'chain' && seed) {
    // A chain's IK answers nearest its seed, which may be another elbow branch:
    // first turn the arm as it is to face the target (the base joint alone), then solve from there.
    const facing = facingSeed(kin, seed, local);
    if (facing) {
      const r = kin.ik(target, facing);
      if (r.ok) return r;
    }
  }
  return kin.ik(
    {
      position: local,
      pitch: t.pitch,
      ...(closing ? { closing } : {}),
      ...(t.roll !== undefined ? { roll: t.roll } : {}),
    },
    seed,
  );
}

/**
 * The joints turned about the first joint so the tool faces `local` as it faces
 * its own point now, when the first joint turns about the vertical through the
 * shoulder (a base yaw); otherwise undefined.
 */
function facingSeed(kin: Kinematics, seed: JointValues, local: Vec3): JointValues | undefined {
  const sh = kin.shoulder;
  const now = kin.tool(seed).p;
  const azimuth = (p: Vec3) => Math.atan2(-(p.z - sh.z), p.x - sh.x);
  if (Math.hypot(now.x - sh.x, now.z - sh.z) < 1e-3 || Math.hypot(local.x - sh.x, local.z - sh.z) < 1e-3) return undefined;
  const turned = seed.slice();
  turned[0] = seed[0]! + 0.5;
  const probe = kin.tool(turned).p;
  if (!baseYaw(kin, seed)) return undefined;
  const sign = Math.sin(azimuth(probe) - azimuth(now)) > 0 ? 1 : -1;
  let d = Math.atan2(Math.sin(azimuth(local) - azimuth(now)), Math.cos(azimuth(local) - azimuth(now))) * sign;
  const [lo, hi] = kin.limits[0]!;
  let v = seed[0]! + d;
  if (v > hi) v -= 2 * Math.PI;
  if (v < lo) v += 2 * Math.PI;
  if (v < lo || v > hi) return undefined;
  d = v - seed[0]!;
  turned[0] = v;
  return turned;
}

/** Does the first joint turn the arm about the vertical through the shoulder (a base yaw), at these joints? */
function baseYaw(kin: Kinematics, q: JointValues): boolean {
  const sh = kin.shoulder;
  const now = kin.tool(q).p;
  const turned = q.slice();
  turned[0] = q[0]! + 0.5;
  const probe = kin.tool(turned).p;
  // A base yaw keeps the tool's height and its distance from the vertical through the shoulder.
  return (
    Math.abs(probe.y - now.y) < 1e-6 && Math.abs(Math.hypot(probe.x - sh.x, probe.z - sh.z) - Math.hypot(now.x - sh.x, now.z - sh.z)) < 1e-6
  );
}

/** Shoulder position in the world (reach is measured from here). */
export function shoulderWorld(sim: SimWorld): Vec3 {
  const mount = sim.bodyLinks.mountPose(sim.body.basePose);
  return poseApply(mount, kinematicsOf(sim).shoulder);
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

/**
 * The pose a chain was asked for, to a tenth of a millimetre, in its base link's
 * frame: what an independent solver can try to reach (the truth audit does).
 */
function goalWords(g: ChainGoal): string {
  const v = (x: readonly number[], d: number): string => `(${x.map((c) => (Math.abs(c) < 0.5 * 10 ** -d ? 0 : c).toFixed(d)).join(', ')})`;
  return ` (the goal in ${g.frame}'s frame: the tool's point ${v(g.position, 4)} m, approaching along ${v(g.approach, 4)}, the fingers closing along ${v(g.closing, 4)})`;
}

/** An IK failure in words whose numbers agree with the failure: beyond reach says what is farther than what. */
export function describeIk(k: KinematicsFailure, what: string): string {
  if (k.arm === 'chain') return `reaching ${what}: ${describeIkFailure(k.failure)}${goalWords(k.goal)}`;
  const f = k.failure;
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

/** Which joints of each arm turn round (yaw and roll of the built-in arm). */
const turns = new WeakMap<Kinematics, boolean[]>();
function turningOf(kin: Kinematics): boolean[] {
  let t = turns.get(kin);
  if (!t) turns.set(kin, (t = turning(kin)));
  return t;
}

/** Keeps the joints that turn round continuous between IK solutions (no half-turn jumps). */
function continuous(q: JointValues, prev: JointValues | undefined, kin: Kinematics): JointValues {
  if (!prev) return q;
  const out = q.slice();
  const limits = kin.limits;
  const wraps = turningOf(kin);
  // Each joint that turns round (the built-in arm's yaw and roll), a turn back then
  // forward; loops over indices rather than array literals (cold code allocates
  // for those every sample).
  for (let i = 0; i < out.length; i++) {
    if (!wraps[i]) continue;
    for (let k = -1; k <= 1; k += 2) {
      const alt = out[i]! + k * 2 * Math.PI;
      const limit = limits[i]!;
      if (alt >= limit[0] && alt <= limit[1] && Math.abs(alt - prev[i]!) < Math.abs(out[i]! - prev[i]!)) out[i] = alt;
    }
  }
  return out;
}

/** A base turn this large (radians) is made on its own before a chain changes its shape. */
const SWING = 0.5;

export async function moveJoints(sim: SimWorld, q: JointValues, opts: SkillOptions): Promise<void> {
  const arm = armConfig(sim);
  const from = sim.body.q!;
  const kin = kinematicsOf(sim);
  const to = continuous(q, from, kin);
  const speed = (arm.maxJointSpeed * Math.PI) / 180;
  if (kin.kind === 'chain' && Math.abs(to[0]! - from[0]!) > SWING && baseYaw(kin, from)) {
    // A long arm swung round with every joint at once sweeps low through what
    // stands about it: turn at the base first, as it is held, then take the new shape.
    const turned = from.slice();
    turned[0] = to[0]!;
    sim.setArmMotion(new JointMotion(from, turned, speed));
    await sim.runUntil(() => !sim.armBusy, opts);
    sim.setArmMotion(new JointMotion(turned, to, speed));
    await sim.runUntil(() => !sim.armBusy, opts);
    return;
  }
  const m = new JointMotion(from, to, speed);
  sim.setArmMotion(m);
  await sim.runUntil(() => !sim.armBusy, opts);
}

export async function movePosture(sim: SimWorld, name: string, opts: SkillOptions): Promise<void> {
  const p = kinematicsOf(sim).postures[name];
  if (!p) throw new Error(`no posture "${name}"`);
  await moveJoints(sim, p, opts);
}

/**
 * Plans a straight tool path from `from` (where the arm is at `seed`); throws
 * MotionFailure if any point is unreachable, or if following it would need the
 * arm to swing round to another solution part-way (a jump no motor makes).
 */
export function planLine(
  sim: SimWorld,
  from: Vec3,
  to: ToolTarget,
  what: string,
  seed: JointValues | undefined = sim.body.q,
): JointValues[] {
  const arm = armConfig(sim);
  const d = dist(from, to.position);
  const duration = Math.max(0.2, (d / arm.maxToolSpeed) * QUINTIC_PEAK);
  const n = Math.max(1, Math.ceil(duration / sim.dt));
  const out: JointValues[] = [];
  const kin = kinematicsOf(sim);
  // Planning does not move the base: every sample is in the same mount frame.
  const frame = mountFrame(sim);
  let prev = seed;
  for (let i = 1; i <= n; i++) {
    const p = lerp(from, to.position, smooth(i / n));
    const r = solveIn(sim, frame, { ...to, position: p }, prev);
    if (!r.ok) throw new MotionFailure(r.failure, describeIk(r.failure, what));
    const q = continuous(r.joints, prev, kin);
    if (prev) {
      const j = worstJump(prev, q);
      if (j.delta > BRANCH_JUMP) {
        throw new MotionFailure(
          undefined,
          `reaching ${what} in a straight line would need the ${kin.jointNames[j.joint]} joint to swing ${round(deg(j.delta), 0)}° at once`,
        );
      }
    }
    out.push(q);
    prev = q;
  }
  return out;
}

function worstJump(a: JointValues, b: JointValues): { joint: number; delta: number } {
  let joint = 0;
  let delta = 0;
  for (let i = 0; i < a.length; i++) {
    const d = Math.abs(b[i]! - a[i]!);
    if (d > delta) {
      joint = i;
      delta = d;
    }
  }
  return { joint, delta };
}

export type ApproachPlan =
  { ok: true; startJoints: JointValues; line: JointValues[] } | { ok: false; message: string; ik: KinematicsFailure | undefined };

/**
 * Joints that put the tool at `start`, and a continuous straight path from there
 * to `end`: on the arm's branch nearest its joints now, else reaching round the
 * other way (the base yaw half a turn off). A straight approach that only works
 * by switching branch part-way is no approach.
 */
export function planApproach(sim: SimWorld, start: ToolTarget, end: ToolTarget, what: string): ApproachPlan {
  const q = sim.body.q!;
  // The built-in arm can reach round the other way (yaw half a turn off); a chain's IK tries several starts itself.
  const seeds = kinematicsOf(sim).kind === 'five_dof' ? [q, [q[0]! + Math.PI, q[1]!, q[2]!, q[3]!, q[4]!]] : [q];
  let first: ApproachPlan | undefined;
  for (const seed of seeds) {
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

export async function followLine(sim: SimWorld, samples: JointValues[], opts: SkillOptions): Promise<void> {
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

/**
 * How the hand is held now, as a tool target keeps it: the built-in arm's pitch
 * and roll from its joints; a chain's pitch from its tool pose, and the world
 * direction its fingers close along.
 */
export function handHold(sim: SimWorld): { pitch: number; roll?: number; closing?: Vec3 } {
  const q = sim.body.q!;
  if (kinematicsOf(sim).kind === 'five_dof') return { pitch: q[1]! + q[2]! + q[3]!, roll: q[4]! };
  const tcp = sim.tcp()!;
  const approach = rotate(tcp.q, v3(0, 1, 0));
  return { pitch: Math.acos(Math.max(-1, Math.min(1, dot(approach, v3(0, 1, 0))))), closing: rotate(tcp.q, v3(0, 0, 1)) };
}

/** The hand's turn about its approach as it is now: the built-in arm's roll, or the direction a chain's fingers close along. */
export function handTurn(sim: SimWorld): { roll: number } | { closing: Vec3 } {
  const { roll, closing } = handHold(sim);
  return roll !== undefined ? { roll } : { closing: closing! };
}
