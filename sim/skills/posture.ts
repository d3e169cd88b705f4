// Named arm postures (home, transport, observe) and small tool moves. What the
// arm carries goes with it: the physics decides whether a tilted box keeps its
// contents or an unbalanced tool twists out of the fingers, and the skill
// reports what happened (incidents.ts).
import { type Vec3, add, rotate, round, v3 } from '../math';
import { SkillInterrupt, type SimWorld } from '../world/sim-world';
import { MotionFailure, describeIk, handHold, handTurn, moveJoints, moveLine, movePosture, solve } from './arm';
import { armPreconditions, interruptOutcome } from './common';
import { type SkillOptions, type SkillOutcome, claims, failure, success } from './outcome';
import { tracked } from './incidents';

async function runMoveArm(sim: SimWorld, posture: string, opts: SkillOptions = {}): Promise<SkillOutcome> {
  const pre = armPreconditions(sim);
  if (pre) return pre;
  const postures = sim.scene.robot.arm!.postures;
  if (!(posture in postures)) {
    return failure('invalid_argument', `no arm posture "${posture}"; the postures are ${Object.keys(postures).join(', ')}`);
  }
  if (sim.body.posture === posture) return success(`the arm is already in the ${posture} posture`, claims({ kind: 'posture', posture }));
  try {
    await movePosture(sim, posture, opts);
    await sim.idle(0.6, opts);
  } catch (e) {
    if (e instanceof SkillInterrupt) return interruptOutcome(sim, e, `moving the arm to ${posture}`);
    throw e;
  }
  const held = sim.grasp ? `; holding ${sim.grasp.objectId}` : '';
  return success(`the arm is in the ${posture} posture${held}`, {
    posture,
    time: round(sim.time, 2),
    ...claims({ kind: 'posture', posture }),
  });
}

/** Moves the tool centre point to a world position with the hand tilted from straight down. */
async function runMoveTool(sim: SimWorld, position: Vec3, tiltDeg: number, opts: SkillOptions = {}): Promise<SkillOutcome> {
  const pre = armPreconditions(sim);
  if (pre) return pre;
  const pitch = Math.PI - (tiltDeg * Math.PI) / 180;
  const r = solve(sim, { position, pitch, ...handTurn(sim) });
  if (!r.ok)
    return failure(
      'out_of_reach',
      describeIk(r.failure, `the pose (${round(position.x, 2)}, ${round(position.y, 2)}, ${round(position.z, 2)})`),
    );
  try {
    await moveJoints(sim, r.joints, opts);
  } catch (e) {
    if (e instanceof SkillInterrupt) return interruptOutcome(sim, e, 'moving the arm');
    throw e;
  }
  const tcp = sim.tcp()!.p;
  const at: [number, number, number] = [round(tcp.x, 3), round(tcp.y, 3), round(tcp.z, 3)];
  return success(`the gripper is at (${at.join(', ')})`, { position: at, ...claims({ kind: 'tool', position: at }) });
}

/** A small straight move of the tool in the robot's frame (forward, left, up). */
async function runNudgeTool(sim: SimWorld, forward: number, left: number, up: number, opts: SkillOptions = {}): Promise<SkillOutcome> {
  const pre = armPreconditions(sim);
  if (pre) return pre;
  const tcp = sim.tcp()!.p;
  const d = rotate(sim.body.basePose.q, v3(forward, up, -left));
  const to = add(tcp, d);
  try {
    await moveLine(sim, { position: to, ...handHold(sim) }, 'that position', opts);
  } catch (e) {
    if (e instanceof SkillInterrupt) return interruptOutcome(sim, e, 'nudging the arm');
    if (e instanceof MotionFailure) return failure('out_of_reach', `cannot move the gripper there: ${e.message}`);
    throw e;
  }
  const p = sim.tcp()!.p;
  const at: [number, number, number] = [round(p.x, 3), round(p.y, 3), round(p.z, 3)];
  return success(`moved the gripper by (${forward}, ${left}, ${up}) m to (${at.join(', ')})`, claims({ kind: 'tool', position: at }));
}

/** moveArm, answering for everything that happened while it ran (see incidents.ts). */
export const moveArm = tracked(runMoveArm, () => []);

/** moveTool, answering for everything that happened while it ran (see incidents.ts). */
export const moveTool = tracked(runMoveTool, () => []);

/** nudgeTool, answering for everything that happened while it ran (see incidents.ts). */
export const nudgeTool = tracked(runNudgeTool, () => []);

/** One small move of a gesture: forward, left, up (metres, the robot's frame). */
export type Nudge = readonly [number, number, number];

/**
 * Several small tool moves as one gesture (a wave): the first that fails ends it.
 * Answered for once, from before the first move to after the last: a sentence per
 * move would say where things were mid-gesture ("it is now resting on the hand")
 * and how far each move pushed them, none of it true as the gesture ends.
 */
export const nudgeGesture = tracked(
  async (sim: SimWorld, moves: readonly Nudge[], opts: SkillOptions = {}): Promise<SkillOutcome> => {
    let last: SkillOutcome = success('the gripper did not move');
    for (const [forward, left, up] of moves) {
      last = await runNudgeTool(sim, forward, left, up, opts);
      if (!last.ok) return last;
    }
    return last;
  },
  () => [],
);
