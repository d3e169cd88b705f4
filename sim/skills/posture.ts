// Named arm postures (home, transport, observe). What the arm carries goes with
// it: tilting a box with things inside spills them, tilting an unbalanced tool
// twists it out of the fingers. The skill reports what happened.
import { round } from '../math';
import { SkillInterrupt, type SimWorld } from '../world/sim-world';
import { movePosture } from './arm';
import { armPreconditions, interruptOutcome } from './manipulation';
import { type SkillOptions, type SkillOutcome, failure, success } from './outcome';

/** Dropped-object events since `since`, as readable incidents. */
export function incidentsSince(sim: SimWorld, since: number): string[] {
  return sim.events
    .since(since)
    .filter((e) => e.type === 'object_dropped')
    .map((e) => (e.type === 'object_dropped' ? `${e.object} dropped: ${e.reason}` : ''));
}

/** Objects that left a held container while it moved (they fell out). */
export function spilledFrom(sim: SimWorld, container: string, before: ReadonlySet<string>, isInsideNow: (id: string) => boolean): string[] {
  return [...before].filter((id) => id !== container && !isInsideNow(id));
}

export async function moveArm(sim: SimWorld, posture: string, opts: SkillOptions = {}): Promise<SkillOutcome> {
  const pre = armPreconditions(sim);
  if (pre) return pre;
  const postures = sim.scene.robot.arm!.postures;
  if (!(posture in postures)) {
    return failure('invalid_argument', `no arm posture "${posture}"; the postures are ${Object.keys(postures).join(', ')}`);
  }
  if (sim.robot.posture === posture) return success(`the arm is already in the ${posture} posture`);
  const since = sim.events.lastId;
  try {
    await movePosture(sim, posture, opts);
    await sim.idle(0.4, opts);
  } catch (e) {
    if (e instanceof SkillInterrupt) return interruptOutcome(sim, e, `moving the arm to ${posture}`);
    throw e;
  }
  const incidents = incidentsSince(sim, since);
  const held = sim.grasp ? `; holding ${sim.grasp.objectId}` : '';
  return success(`the arm is in the ${posture} posture${held}`, { posture, time: round(sim.time, 2) }, incidents);
}
