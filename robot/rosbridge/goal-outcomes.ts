// What a goal's end means, as an Outcome with a readable reason: a result judged
// by the mapping's success condition, each way an action can end, and a goal the
// safety state stopped. Apart from the seam (./ros-robot.ts), which sends the
// goals and keeps what an unconfirmed end leaves unknown.
import type { Outcome } from '../robot';
import { GOAL_GRACE_MS, type GoalEnd, SERVER_WAIT_MS, dig } from './connection';
import type { SkillMapping } from './mapping';
import { say } from './ros-messages';
import type { Refusal } from './safety-state';

const GRACE_S = GOAL_GRACE_MS / 1000;
const UNKNOWN_AFTER = "the robot's state is now unknown: its position, arm posture and held object count as unknown until observed again";

/** A skill mapped to a ROS action. */
type ActionMapping = Extract<SkillMapping, { action: string }>;
/** Marks the robot's position and held object unknown after a goal ended without the robot confirming its state. */
type UnknownState = (what: string) => void;

/** How an action's goal ended (one the safety state did not stop) → Outcome. */
export function goalOutcome(end: GoalEnd, map: ActionMapping, what: string, ros: 1 | 2, unknownState: UnknownState): Outcome {
  switch (end.status) {
    case 'succeeded':
      return judgeResult(map, end.values, what, map.action);
    case 'refused':
      return { ok: false, code: 'aborted', summary: `${what} was not sent: ${end.why}` };
    case 'cancelled':
      return { ok: false, code: 'aborted', summary: `${what} was cancelled on the robot (${map.action})` };
    case 'timeout':
      unknownState(what);
      return {
        ok: false,
        code: 'timeout',
        summary: `${what} took longer than ${map.timeoutS} s and was cancelled${end.confirmed ? '' : `; the robot did not confirm the cancel within ${GRACE_S} s`}; ${UNKNOWN_AFTER}`,
      };
    case 'unconfirmed':
      unknownState(what);
      return {
        ok: false,
        code: 'aborted',
        summary: `${what} was cancelled, but the robot did not confirm it stopped within ${GRACE_S} s; ${UNKNOWN_AFTER}`,
      };
    case 'no_server':
      return {
        ok: false,
        code: 'skill_failure',
        summary: `${what} was not sent: no action server answers on ${map.action} (no message on ${map.action}/status within ${SERVER_WAIT_MS / 1000} s)`,
      };
    case 'dropped':
      unknownState(what);
      return {
        ok: false,
        code: 'skill_failure',
        summary: `the connection to rosbridge dropped while ${what} was running; its cancel is sent first when the link is back, but the robot may have stopped part-way or still be moving; ${UNKNOWN_AFTER}`,
      };
    case 'failed': {
      const reason = map.result?.reason ? dig(end.values, map.result.reason) : undefined;
      const status =
        end.code === 6 ? 'aborted by the robot' : end.code === 4 && ros === 1 ? 'aborted by the robot' : `ended with status ${end.code}`;
      return { ok: false, code: 'skill_failure', summary: `${what} ${status} (${map.action})${reason ? `: ${String(reason)}` : ''}` };
    }
  }
}

/** A goal the safety state stopped (not sent, or cancelled): the result says why. */
export function haltedOutcome(end: GoalEnd, why: Refusal, what: string, action: string, unknownState: UnknownState): Outcome {
  const fail = (summary: string): Outcome => ({ ok: false, code: why.code, summary });
  switch (end.status) {
    case 'refused':
      return fail(`${what} was not sent: ${why.reason}`);
    case 'cancelled':
      return fail(`${what} was cancelled: ${why.reason}; the robot confirmed the cancel (${action})`);
    case 'failed':
      return fail(`${what} was cancelled: ${why.reason}; the robot ended it with status ${end.code} (${action})`);
    default:
      unknownState(what);
      return fail(`${what} was cancelled: ${why.reason}; the robot did not confirm it stopped within ${GRACE_S} s; ${UNKNOWN_AFTER}`);
  }
}

/** A result message → Outcome, by the mapping's success condition. */
export function judgeResult(map: SkillMapping, values: unknown, what: string, where: string): Outcome {
  const r = 'result' in map ? map.result : undefined;
  let ok = true;
  if (r?.success) {
    const v = dig(values, r.success.path);
    ok = r.success.equals !== undefined ? v === r.success.equals : Boolean(v);
  }
  if (ok) return { ok: true, summary: r?.summary ? say(r.summary, values) : `${what} done (${where})` };
  const reason = r?.reason ? dig(values, r.reason) : undefined;
  return { ok: false, code: 'skill_failure', summary: `${what} failed on the robot (${where})${reason ? `: ${String(reason)}` : ''}` };
}
