// RAIDER's recovery (paper 001 §3.5, Fig. 7): from the issue, a plan of the
// robot's actions — ask, say, move_to, pick, place, slice, open, close, turnon,
// turnoff — and the goal it must reach in the physics. The oracle plays these
// plans; Recov_Plan checks the goal on the final world (§4.3), whoever planned.
import type { PlanStep } from '../../core/case';
import type { RaiderAction, RecoveryGoal } from './gold';

/** The free table the paper's recovery prompt names: always there to put things down. */
export const FREE_TABLE = 'free_table';

export function actionStep(action: RaiderAction, target: string): PlanStep {
  return { tool: action, args: { object: target } };
}

export function goalOf(action: RaiderAction, target: string, held: string | null): RecoveryGoal {
  switch (action) {
    case 'pick':
      return { kind: 'holding', object: target };
    case 'place':
      return { kind: 'placed', object: held ?? '', dest: target };
    case 'open':
    case 'close':
      return { kind: 'state', object: target, state: 'open', value: action === 'open' };
    case 'turnon':
    case 'turnoff':
      return { kind: 'state', object: target, state: 'on', value: action === 'turnon' };
    case 'slice':
      return { kind: 'state', object: target, state: 'sliced', value: true };
  }
}

export const move = (location: string): PlanStep => ({ tool: 'move_to', args: { location } });
export const say = (statement: string): PlanStep => ({ tool: 'say', args: { statement } });
export const ask = (question: string): PlanStep => ({ tool: 'ask', args: { question } });

/** Puts the held object on the free table and comes back (the hand is needed). */
export function freeHand(held: string, back: string): PlanStep[] {
  return [move(FREE_TABLE), { tool: 'place', args: { object: FREE_TABLE } }, move(back)];
}

/** Takes each object out of the way to the free table, coming back each time. */
export function clearAway(objects: readonly string[], back: string): PlanStep[] {
  return objects.flatMap((b) => [{ tool: 'pick', args: { object: b } }, ...freeHand(b, back)]);
}
