// A real robot's e-stop and battery as a person should read them: the value when
// it is fresh, "stale (12.4 s old)" when the last reading is older than the
// robot's stated maximum age, "unknown" when there is none. Never an old value
// drawn as if it were current: the robot refuses motion in both cases too.
import type { RobotSafety } from '../../../contract/robot-safety';

export type ReadoutKind = 'fresh' | 'pressed' | 'stale' | 'unknown';

export interface Readout {
  /** What the page prints. */
  text: string;
  kind: ReadoutKind;
  /** The longer story, for the hover text. */
  title: string;
}

/** "4.2 s", "3 min", "2 h". */
export function formatAge(s: number): string {
  if (s < 60) return `${s.toFixed(1)} s`;
  if (s < 3600) return `${Math.floor(s / 60)} min`;
  return `${Math.floor(s / 3600)} h`;
}

function linkNote(r: RobotSafety): string {
  return r.link === 'up' ? '' : `; the link to the robot is ${r.link}`;
}

const REFUSED = 'motion is refused until a fresh reading says it is released';

export function estopReadout(r: RobotSafety): Readout {
  const e = r.estop;
  const detail = e.detail ? ` (${e.detail})` : '';
  if (e.state === 'not_reported')
    return { text: 'not reported', kind: 'unknown', title: `the robot declares it reports no e-stop state${detail}${linkNote(r)}` };
  if (e.freshness === 'stale') {
    const age = e.ageS !== undefined ? formatAge(e.ageS) : 'unknown time';
    const last = e.state === 'unknown' ? '' : `, it said ${e.state}`;
    return {
      text: `stale (${e.ageS !== undefined ? `${formatAge(e.ageS)} old` : 'age unknown'})`,
      kind: 'stale',
      title: `last read ${age} ago${last}, older than the robot's ${r.maxAgeS} s${detail}${linkNote(r)}; ${REFUSED}`,
    };
  }
  if (e.freshness === 'unknown' || e.state === 'unknown')
    return { text: 'unknown', kind: 'unknown', title: `no current reading${detail}${linkNote(r)}; ${REFUSED}` };
  const age = e.ageS !== undefined ? `, read ${formatAge(e.ageS)} ago` : '';
  return e.state === 'pressed'
    ? { text: 'PRESSED', kind: 'pressed', title: `the robot reports its emergency stop pressed${age}${linkNote(r)}` }
    : { text: 'released', kind: 'fresh', title: `the robot reports its emergency stop released${age}${linkNote(r)}` };
}

export function batteryReadout(r: RobotSafety): Readout {
  const b = r.battery;
  if (!b) return { text: 'not reported', kind: 'unknown', title: 'the robot reports no battery' };
  const pct = b.percent !== undefined ? `${Math.round(Math.max(0, Math.min(100, b.percent)))}%` : undefined;
  if (b.freshness === 'stale')
    return {
      text: `stale (${b.ageS !== undefined ? `${formatAge(b.ageS)} old` : 'age unknown'})`,
      kind: 'stale',
      title: `last read ${b.ageS !== undefined ? `${formatAge(b.ageS)} ago` : 'at an unknown time'}${pct ? `: ${pct}` : ''}, older than the robot's ${r.maxAgeS} s${linkNote(r)}; motion is refused until a fresh reading arrives`,
    };
  if (b.freshness === 'unknown' || pct === undefined)
    return { text: 'unknown', kind: 'unknown', title: `no current battery reading${linkNote(r)}; motion is refused until one arrives` };
  return {
    text: pct,
    kind: 'fresh',
    title: `battery ${pct}${b.ageS !== undefined ? `, read ${formatAge(b.ageS)} ago` : ''}${linkNote(r)}`,
  };
}
