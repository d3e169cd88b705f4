// The independent checker: after every call it reads everything the tool said
// into claims (check-said*.ts) and judges each against the world (its own
// reading, truth.ts) where the tool speaks for the physics, and against what
// the robot knows (its belief) where the tool answers from it; and it checks
// invariants and the numbers inside messages. It does not use the simulator's
// perception helpers; it reads Rapier bodies itself.
import { type CallUnderCheck, type Finding, type Skip, type Unjudged } from './check-core';
import { checkAccounted, checkClaims, checkFreshBelief } from './check-claims';
import { checkSaid } from './check-said';
import { checkDistance, checkInvariants, checkLeaks, checkMessage } from './check-world';
import type { V } from './truth';

export {
  BELOW_FLOOR,
  CLASSES,
  type AddedNode,
  type CallUnderCheck,
  type Finding,
  type PathVerdict,
  THROWN_SPEED,
  type Unjudged,
  type ViolationClass,
  toolFamily,
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
  out.push(...checkLeaks(c, text), ...checkDistance(c, believedAfter), ...checkFreshBelief(c, skip), ...checkSaid(c, skip));
  return out;
}
