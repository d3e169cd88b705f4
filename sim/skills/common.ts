// Helpers every skill shares: how an object is named in messages, what the arm
// needs before it moves, and how an interrupted motion is reported.
import type { SimWorld } from '../world/sim-world';
import type { SkillInterrupt } from '../world/types';
import { isStale } from '../perception/believed';
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

/**
 * The robot acts on what it believes: an object it has not perceived cannot be
 * a target, and a wrist camera's observation made before the base moved no
 * longer says where it is (paper 003 §5). Furniture is known a priori.
 */
export function observationProblem(sim: SimWorld, id: string): SkillOutcome | undefined {
  if (sim.entity(id).fixed || sim.isHeld(id)) return undefined;
  const o = sim.belief.get(id);
  const name = displayName(sim, id);
  const partial = sim.scene.scene.perception.partialObservability;
  if (!o) {
    return failure(
      'not_perceived',
      partial
        ? `${name} has not been perceived yet; perceive the table it is on first`
        : `${name} has not been seen from where the robot has been; go where it is and look`,
    );
  }
  if (o.place.kind === 'handed') return failure('invalid_argument', `${name} was handed to ${o.place.person}; the robot no longer has it`);
  if (isStale(sim, id)) {
    const where = o.place.kind === 'on' || o.place.kind === 'in' ? o.place.id : o.at;
    const again = o.at && o.at !== sim.body.at ? `go back to ${o.at} and perceive it there again` : `perceive ${where ?? 'it'} again`;
    return failure(
      'stale_observation',
      `${name} was perceived${o.at ? ` at ${o.at}` : ''} before the robot last moved, so its pose is stale; ${again}`,
    );
  }
  return undefined;
}
