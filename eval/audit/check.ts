// The independent checker: after every call it compares what the tool said
// with the world (its own reading, truth.ts) and with what the robot knows (its
// belief), and checks invariants and the numbers inside messages. It does not
// use the simulator's perception helpers; it reads Rapier bodies itself.
import { type CallUnderCheck, type Finding, type Skip, type Unjudged } from './check-core';
import { checkAccounted, checkClaims, checkFreshBelief, checkWorldModel } from './check-claims';
import { checkFacts } from './check-facts';
import { checkDistance, checkInvariants, checkLeaks, checkMessage } from './check-world';
import type { V } from './truth';

export {
  BELOW_FLOOR,
  CLASSES,
  type CallUnderCheck,
  type Finding,
  THROWN_SPEED,
  type Unjudged,
  type ViolationClass,
  WORLD_MODEL_SETS,
} from './check-core';
export { checkFreshBelief } from './check-claims';
export { checkMessage } from './check-world';

export function checkCall(c: CallUnderCheck, believedAfter: ReadonlyMap<string, V>, unjudged: Unjudged[] = []): Finding[] {
  const skip: Skip = (cls, reason) => void unjudged.push({ class: cls, reason });
  // A call that threw or failed inside said nothing to judge but its crash; the world is still checked.
  if (c.thrown) return [{ class: 'crashes', detail: `${c.tool} threw: ${c.thrown.split('\n')[0]}` }, ...checkInvariants(c)];
  const text = c.result?.content ?? '';
  if (/internal error/i.test(text)) return [{ class: 'crashes', detail: `${c.tool}: ${text.slice(0, 200)}` }, ...checkInvariants(c)];
  const out: Finding[] = [
    ...checkInvariants(c),
    ...checkClaims(c, skip),
    ...checkAccounted(c, text, skip),
    ...checkMessage(text, Boolean(c.result?.ok)),
  ];
  if (/^(robot_at|battery|hand_empty|holding|robot_has_arm_posture)\(/m.test(text)) {
    out.push(...checkFacts(c, text));
  }
  out.push(...checkLeaks(c, text), ...checkDistance(c, believedAfter), ...checkFreshBelief(c, skip), ...checkWorldModel(c));
  return out;
}
