// Perceive: point the camera at the workspace and record what is there. On a
// robot whose camera sits on the wrist (Mobipick) that means the observe
// posture, and whatever the hand holds tilts with it: an open box spills, an
// unbalanced tool twists out (paper 003, Experiment 3). The physics decides.
import { round } from '../math';
import { observe } from '../perception/observe';
import { describePlace } from '../world/place';
import { SkillInterrupt, type SimWorld } from '../world/sim-world';
import { interruptOutcome } from './common';
import { type SkillOptions, type SkillOutcome, failure, success } from './outcome';
import { moveArm } from './posture';
import { tracked } from './incidents';

async function runPerceive(sim: SimWorld, opts: SkillOptions = {}): Promise<SkillOutcome> {
  if (sim.estop && sim.scene.robot.camera.mount === 'wrist') {
    return failure('estop', 'the emergency stop is pressed: the arm cannot move to look');
  }
  const arm = sim.scene.robot.arm;
  if (sim.scene.robot.camera.mount === 'wrist' && arm && 'observe' in arm.postures) {
    const moved = await moveArm(sim, 'observe', opts);
    if (!moved.ok) return moved;
  }
  try {
    await sim.idle(0.3, opts);
  } catch (e) {
    if (e instanceof SkillInterrupt) return interruptOutcome(sim, e, 'looking');
    throw e;
  }
  const r = observe(sim);
  const where = sim.body.at ? `at ${sim.body.at}` : 'here';
  // Each where the robot saw it: on or in something, on the floor, resting on the robot itself.
  const seen = r.observed.map((o) => {
    const p = sim.belief.get(o.id)?.place;
    return o.support ? `${o.id} ${o.relation} ${o.support}` : p ? `${o.id} ${describePlace(p)}` : o.id;
  });
  const removed = r.removed.length ? `; no longer seen: ${r.removed.join(', ')}` : '';
  return success(`perceived ${where}: ${seen.length ? seen.join(', ') : 'no objects'}${removed}`, {
    location: sim.body.at ?? null,
    observed: r.observed.map((o) => ({ id: o.id, support: o.support ?? null, relation: o.relation ?? null })),
    removed: r.removed,
    time: round(sim.time, 2),
  });
}

/** perceive, answering for everything that happened while it ran (see incidents.ts). */
export const perceive = tracked(runPerceive, () => []);
