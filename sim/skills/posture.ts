// Named arm postures (home, transport, observe). What the arm carries goes with
// it: tilting a box with things inside spills them, tilting an unbalanced tool
// twists it out of the fingers. The skill reports what happened.
import { type Vec3, add, rotate, round, v3 } from '../math';
import { geoObjects } from '../perception/geo';
import { isInside } from '../perception/relations';
import { SkillInterrupt, type SimWorld } from '../world/sim-world';
import { MotionFailure, describeIk, moveJoints, moveLine, movePosture, solve } from './arm';
import { armPreconditions, interruptOutcome } from './common';
import { type SkillOptions, type SkillOutcome, failure, success } from './outcome';

/** Objects inside the container the hand holds, if it holds one. */
export function contentsOfHeld(sim: SimWorld): string[] {
  const held = sim.heldId();
  if (!held || !sim.entity(held).spec.receptacle) return [];
  const all = geoObjects(sim);
  const box = all.find((g) => g.id === held)!;
  return all.filter((g) => g.id !== held && isInside(g, box)).map((g) => g.id);
}

/** Dropped-object events since `since`, as readable incidents. */
export function incidentsSince(sim: SimWorld, since: number): string[] {
  return sim.events
    .since(since)
    .filter((e) => e.type === 'object_dropped')
    .map((e) => (e.type === 'object_dropped' ? `${e.object} dropped: ${e.reason}` : ''));
}

export async function moveArm(sim: SimWorld, posture: string, opts: SkillOptions = {}): Promise<SkillOutcome> {
  const pre = armPreconditions(sim);
  if (pre) return pre;
  const postures = sim.scene.robot.arm!.postures;
  if (!(posture in postures)) {
    return failure('invalid_argument', `no arm posture "${posture}"; the postures are ${Object.keys(postures).join(', ')}`);
  }
  if (sim.body.posture === posture) return success(`the arm is already in the ${posture} posture`);
  const since = sim.events.lastId;
  const carried = contentsOfHeld(sim);
  try {
    await movePosture(sim, posture, opts);
    await sim.idle(0.6, opts);
  } catch (e) {
    if (e instanceof SkillInterrupt) return interruptOutcome(sim, e, `moving the arm to ${posture}`);
    throw e;
  }
  const incidents = incidentsSince(sim, since);
  const still = new Set(contentsOfHeld(sim));
  for (const id of carried) if (!still.has(id)) incidents.push(`${id} fell out of ${sim.heldId() ?? 'the container'}`);
  const held = sim.grasp ? `; holding ${sim.grasp.objectId}` : '';
  return success(`the arm is in the ${posture} posture${held}`, { posture, time: round(sim.time, 2) }, incidents);
}

/** Moves the tool centre point to a world position with the hand tilted from straight down. */
export async function moveTool(sim: SimWorld, position: Vec3, tiltDeg: number, opts: SkillOptions = {}): Promise<SkillOutcome> {
  const pre = armPreconditions(sim);
  if (pre) return pre;
  const pitch = Math.PI - (tiltDeg * Math.PI) / 180;
  const r = solve(sim, { position, pitch, roll: sim.body.q![4] });
  if (!r.ok)
    return failure(
      'out_of_reach',
      describeIk(r.failure, `the pose (${round(position.x, 2)}, ${round(position.y, 2)}, ${round(position.z, 2)})`),
    );
  const since = sim.events.lastId;
  try {
    await moveJoints(sim, r.joints, opts);
  } catch (e) {
    if (e instanceof SkillInterrupt) return interruptOutcome(sim, e, 'moving the arm');
    throw e;
  }
  const tcp = sim.tcp()!.p;
  return success(
    `the gripper is at (${round(tcp.x, 3)}, ${round(tcp.y, 3)}, ${round(tcp.z, 3)})`,
    { position: [round(tcp.x, 3), round(tcp.y, 3), round(tcp.z, 3)] },
    incidentsSince(sim, since),
  );
}

/** A small straight move of the tool in the robot's frame (forward, left, up). */
export async function nudgeTool(sim: SimWorld, forward: number, left: number, up: number, opts: SkillOptions = {}): Promise<SkillOutcome> {
  const pre = armPreconditions(sim);
  if (pre) return pre;
  const tcp = sim.tcp()!.p;
  const d = rotate(sim.body.basePose.q, v3(forward, up, -left));
  const to = add(tcp, d);
  const q = sim.body.q!;
  const since = sim.events.lastId;
  try {
    await moveLine(sim, { position: to, pitch: q[1] + q[2] + q[3], roll: q[4] }, 'that position', opts);
  } catch (e) {
    if (e instanceof SkillInterrupt) return interruptOutcome(sim, e, 'nudging the arm');
    if (e instanceof MotionFailure) return failure('out_of_reach', `cannot move the gripper there: ${e.message}`);
    throw e;
  }
  const p = sim.tcp()!.p;
  return success(
    `moved the gripper by (${forward}, ${left}, ${up}) m to (${round(p.x, 3)}, ${round(p.y, 3)}, ${round(p.z, 3)})`,
    undefined,
    incidentsSince(sim, since),
  );
}
