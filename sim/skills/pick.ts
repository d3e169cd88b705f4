// Pick: every refusal comes from the geometry or the physics of the moment:
// reach from inverse kinematics, blockage from shape casts along the approach,
// weight from the grasp giving way while lifting, containment and stacking from
// the relation rules. Reasons name the objects and the numbers.
import { type Vec3, dist, round, v3 } from '../math';
import type { BeliefEntry } from '../world/belief';
import { Grasp, slipReason } from '../body/grasp';
import { believedGeos } from '../perception/believed';
import { look, recordPlacement } from '../perception/observe';
import { containerOf, isOnTopOf, related } from '../perception/relations';
import type { SimWorld } from '../world/sim-world';
import { SkillInterrupt } from '../world/types';
import { MotionFailure, armConfig, followLine, gripperTo, handHold, moveJoints, moveLine } from './arm';
import { armPreconditions, displayName, interruptOutcome, observationProblem } from './common';
import { approachBlocker, betweenFingers, planGrasp } from './grasp-plan';
import { type SkillOptions, type SkillOutcome, claims, failure, success } from './outcome';
import { noteWhereItIs, settle, told, tracked } from './incidents';

/** A wrapped handle holds by form, not friction: this many times the grip's friction torque. */
const WRAP_TORQUE_FACTOR = 4;

/** Lifts the tool straight up to a height before swinging across the workspace. */
export async function liftTo(sim: SimWorld, y: number, opts: SkillOptions): Promise<void> {
  const tcp = sim.tcp()!;
  if (tcp.p.y >= y - 0.01) return;
  try {
    await moveLine(sim, { position: v3(tcp.p.x, y, tcp.p.z), ...handHold(sim) }, 'the lift', opts);
  } catch (e) {
    if (!(e instanceof MotionFailure)) throw e;
    // Cannot go straight up from here: swing with the joints instead.
  }
}

/** What the robot believes is inside a container. */
export function contentsOf(sim: SimWorld, id: string): string[] {
  if (!sim.entity(id).spec.receptacle) return [];
  const all = believedGeos(sim);
  const me = all.find((g) => g.id === id);
  if (!me) return [];
  return related('inside', me, all, sim.body.basePose)
    .map((g) => g.id)
    .filter((x) => x !== id);
}

function massOf(sim: SimWorld, id: string): number {
  return sim.world.getRigidBody(sim.entity(id).body).mass();
}

/** The fingers closed on nothing: where the object is now against where it was seen, as the robot can tell. */
function missed(sim: SimWorld, id: string, name: string, seen: BeliefEntry | undefined, atStart: Vec3): SkillOutcome {
  // Still where it was seen: the fingers missed it (a rim or a neighbour in the way), it did not go anywhere.
  if (seen && dist(sim.pose(id).p, seen.pose.p) < 0.02) {
    if (!sim.belief.has(id)) sim.belief.set(seen);
    return failure(
      'skill_failure',
      `the fingers came down at ${name} but it was not between them as they closed; it is still where it was seen`,
    );
  }
  // The robot learns that it is not there any more.
  sim.belief.forget(id);
  // It was there as the arm set off: it moved while the fingers came down (they, or something falling, pushed it).
  if (seen && dist(atStart, seen.pose.p) < 0.02)
    return failure(
      'skill_failure',
      `the fingers came down at ${name} but it was not between them as they closed; it moved ${Math.round(dist(sim.pose(id).p, seen.pose.p) * 100)} cm from where it was seen as they came down`,
    );
  return failure('skill_failure', `the fingers found nothing at the place where ${name} was last seen; it is not there any more`);
}

async function runPick(sim: SimWorld, id: string, opts: SkillOptions = {}): Promise<SkillOutcome> {
  const pre = armPreconditions(sim);
  if (pre) return pre;
  const e = sim.entity(id);
  const name = displayName(sim, id);
  if (sim.grasp) {
    return failure(
      'hand_full',
      sim.grasp.objectId === id ? `already holding ${name}` : `the hand is full: it holds ${sim.grasp.objectId}; place it first`,
    );
  }
  if (e.fixed || !e.spec.properties.pickable) {
    return failure(
      'not_pickable',
      e.fixed
        ? `${name} is ${e.spec.category === 'appliance' ? 'an appliance' : 'furniture'} fixed in place; it cannot be picked up`
        : `${name} cannot be picked up`,
    );
  }
  look(sim);
  const obs = observationProblem(sim, id);
  if (obs) return obs;
  // Everything below reads the robot's belief: where it last saw the object, and what it knows lies on or in it.
  const all = believedGeos(sim);
  const me = all.find((g) => g.id === id)!;
  const container = containerOf(me, all);
  if (container) {
    const c = sim.entity(container.id);
    if (c.door && !c.states.open) {
      return failure('inside_closed_receptacle', `${name} is inside ${displayName(sim, container.id)}, which is closed; open it first`);
    }
  }
  const onTop = all.filter((g) => g.id !== id && isOnTopOf(g, me) && !sim.isHeld(g.id));
  if (onTop.length) {
    return failure(
      'blocked',
      `${name} is blocked: ${onTop.map((g) => displayName(sim, g.id)).join(' and ')} ${onTop.length > 1 ? 'are' : 'is'} on top of it`,
    );
  }
  const inside = contentsOf(sim, id);
  if (inside.length && !e.spec.receptacle?.carryLoaded) {
    return failure(
      'blocked',
      `${name} has ${inside.map((x) => displayName(sim, x)).join(' and ')} inside it; take ${inside.length > 1 ? 'them' : 'it'} out first`,
    );
  }
  const planned = planGrasp(sim, id);
  if (!planned.ok) return planned.outcome;
  const plan = planned.plan;
  const blocker = approachBlocker(sim, plan, id);
  if (blocker) return failure('blocked', `${name} is blocked: ${displayName(sim, blocker)} is in the way of the gripper`);
  // Where it is as the arm sets off: a miss after this is the skill's own doing, not a move it could not see.
  const atStart = sim.pose(id).p;
  try {
    const liftY = Math.max(plan.pre.y, sim.tcp()!.p.y);
    await gripperTo(sim, plan.open, opts);
    await liftTo(sim, liftY, opts);
    await moveJoints(sim, plan.preJoints, opts);
    await followLine(sim, plan.down, opts);
    if (!betweenFingers(sim, id)) {
      await moveLine(sim, { position: plan.pre, pitch: plan.pitch, closing: plan.closing }, name, opts);
      // Judged once what the fingers touched has come to rest (told again after settling).
      const seen = sim.belief.get(id);
      return told(sim, (s) => missed(s, id, name, seen, atStart));
    }
    if (sim.rng.chance(sim.noise.skillFailureRate)) {
      // An injected fumble reads like a real one; only the trace (data) says it was injected.
      await moveLine(sim, { position: plan.pre, pitch: plan.pitch, closing: plan.closing }, name, opts);
      return failure('skill_failure', `the fingers closed too early and missed ${name}; it is still where it was`, { injected: true });
    }
    await gripperTo(sim, plan.width + 0.002, opts);
    const tcp = sim.tcp()!;
    sim.attachGrasp(
      Grasp.close(
        id,
        e.body,
        tcp,
        sim.pose(id),
        { payloadKg: armConfig(sim).payloadKg, gripTorqueNm: armConfig(sim).gripTorqueNm * (e.spec.grasp?.wrap ? WRAP_TORQUE_FACTOR : 1) },
        plan.width,
      ),
    );
    await moveLine(sim, { position: plan.lift, pitch: plan.pitch, closing: plan.closing }, name, opts);
    await sim.idle(0.3, opts);
    if (!sim.grasp) {
      const slip = sim.lastSlip;
      await gripperTo(sim, plan.open, opts);
      const total = massOf(sim, id) + inside.reduce((m, x) => m + massOf(sim, x), 0);
      const payload = armConfig(sim).payloadKg;
      // Over the payload, the weight is the cause whichever way it gave way.
      const heavy = total > payload;
      const detail = heavy
        ? `${inside.length ? 'with what is in it, ' : ''}it weighs ${total.toFixed(2)} kg and the arm lifts at most ${payload} kg`
        : slip
          ? slipReason(slip)
          : 'it slipped from the fingers';
      await settle(sim);
      return told(sim, (s) =>
        failure(heavy ? 'too_heavy' : 'slipped', `could not lift ${name}: ${detail}; it is ${noteWhereItIs(s, id, { fromHand: true })}`, {
          massKg: round(total, 3),
          payloadKg: armConfig(sim).payloadKg,
        }),
      );
    }
    recordPlacement(sim, id);
    return success(`picked up ${name}`, {
      object: id,
      heightLifted: round(sim.aabb(id).min.y - me.box.min.y, 3),
      ...claims({ kind: 'held', object: id }),
    });
  } catch (err) {
    if (err instanceof SkillInterrupt) return interruptOutcome(sim, err, `picking ${name}`);
    if (err instanceof MotionFailure) {
      sim.halt();
      const held = sim.heldId() ? `; it still holds ${sim.heldId()}` : '';
      return failure('out_of_reach', `cannot pick ${name}: ${err.message}${held}`);
    }
    throw err;
  }
}

/** pick, answering for everything that happened while it ran (see incidents.ts). */
export const pick = tracked(runPick, (_sim: SimWorld, id: string) => [id]);
