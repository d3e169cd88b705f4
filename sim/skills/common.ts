// Helpers every skill shares: how an object is named in messages, what the arm
// needs before it moves, and how an interrupted motion is reported.
import type { SimWorld } from '../world/sim-world';
import type { SkillInterrupt } from '../world/types';
import { type SkillOutcome, failure } from './outcome';

export function displayName(sim: SimWorld, id: string): string {
  return sim.entities.get(id)?.spec.name ? `${id} (${sim.entities.get(id)!.spec.name})` : id;
}

export function interruptOutcome(sim: SimWorld, e: SkillInterrupt, doing: string): SkillOutcome {
  sim.halt();
  const held = sim.heldId() ? `; it still holds ${sim.heldId()}` : '';
  if (e.reason === 'estop') return failure('estop', `emergency stop pressed while ${doing}: the robot stopped where it was${held}`);
  if (e.reason === 'aborted') return failure('aborted', `stopped while ${doing}${held}`);
  if (e.reason === 'battery_empty') return failure('battery_empty', `the battery ran out while ${doing}${held}`);
  return failure('timeout', `${doing} took too long and was stopped${held}`);
}

/** Fails with a readable reason if the robot cannot use its arm now. */
export function armPreconditions(sim: SimWorld): SkillOutcome | undefined {
  if (!sim.scene.robot.arm) return failure('no_arm', `${sim.scene.robot.title} has no arm`);
  if (sim.estop) return failure('estop', 'the emergency stop is pressed: the arm cannot move until it is released');
  if (sim.battery.percent <= 0) return failure('battery_empty', 'the battery is empty');
  return undefined;
}

/** Partial observability: manipulation needs a fresh look at the object. */
export function observationProblem(sim: SimWorld, id: string): SkillOutcome | undefined {
  if (!sim.scene.scene.perception.partialObservability) return undefined;
  const o = sim.knowledge.get(id);
  const name = displayName(sim, id);
  if (!o) return failure('not_perceived', `${name} has not been perceived yet; perceive the table it is on first`);
  if (o.baseMoves !== sim.body.baseMoves) {
    return failure(
      'stale_observation',
      `${name} was perceived before the robot last moved; its pose is stale, so perceive ${o.support ?? 'it'} again from here`,
    );
  }
  return undefined;
}
