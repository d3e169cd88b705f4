// The fail-closed part of the safety chain: before any motion the robot's
// e-stop must be known, fresh and released (or declared not reported and
// accepted by the person at start), and a battery it reports must be known and
// fresh. Unknown is never read as fine: a robot that has said nothing yet, a
// link that is down, a reading older than the robot's stated maximum age all
// refuse, with a reason that says which.
import type { Robot, SafetyState } from '../../../robot/robot';

export interface StateRefusal {
  check: 'estop' | 'battery';
  code: 'estop' | 'refused';
  reason: string;
}

const s1 = (x: number) => `${Math.round(x * 10) / 10} s`;

/** Reads the robot's safety state; a robot that throws is 'unknown', link down. */
export async function readSafety(robot: Robot): Promise<SafetyState> {
  try {
    return await robot.safety();
  } catch (e) {
    return {
      estop: { state: 'unknown', freshness: 'unknown', detail: `the robot did not answer (${e instanceof Error ? e.message : String(e)})` },
      maxAgeS: 0,
      link: 'down',
    };
  }
}

/** Why `state` does not allow motion, or undefined when it does. */
export function refuseOnState(state: SafetyState, acceptNoEstop: boolean): StateRefusal | undefined {
  const e = state.estop;
  const link = state.link === 'up' ? '' : `; the link to the robot is ${state.link}`;
  if (e.state === 'pressed')
    return { check: 'estop', code: 'estop', reason: 'the emergency stop is pressed; release it before the robot moves' };
  if (e.state === 'not_reported') {
    if (!acceptNoEstop)
      return {
        check: 'estop',
        code: 'refused',
        reason:
          'the robot declares it does not report an e-stop state; motion needs the person to accept that at start (--accept-no-estop)',
      };
  } else if (e.state === 'unknown') {
    return {
      check: 'estop',
      code: 'refused',
      reason: `e-stop state unknown: ${e.detail ?? (e.ageS === undefined ? 'no message received yet' : 'unreadable')}${link}`,
    };
  } else if (e.freshness !== 'fresh') {
    return {
      check: 'estop',
      code: 'refused',
      reason:
        e.freshness === 'stale' && e.ageS !== undefined
          ? `e-stop state stale: last ${s1(e.ageS)} ago, max ${s1(state.maxAgeS)}${link}`
          : `e-stop state unknown: its age is not known${link}`,
    };
  }
  const b = state.battery;
  if (b) {
    if (b.percent === undefined || b.freshness === 'unknown')
      return { check: 'battery', code: 'refused', reason: `battery state unknown: no reading received yet${link}` };
    if (b.freshness === 'stale')
      return {
        check: 'battery',
        code: 'refused',
        reason: `battery state stale: last ${b.ageS !== undefined ? s1(b.ageS) : '?'} ago, max ${s1(state.maxAgeS)}${link}`,
      };
  }
  return undefined;
}

/** The person accepted a robot with no e-stop state: the record that says so, at start. */
export function noEstopAcceptance(robot: Robot): string | undefined {
  if (robot.info.estop !== 'not_reported') return undefined;
  return `${robot.info.name} reports no e-stop state; the person accepted motion without it at start (--accept-no-estop)`;
}
