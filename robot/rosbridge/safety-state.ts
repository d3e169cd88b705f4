// What the rosbridge robot knows about its own safety: the e-stop and the
// battery as they stand now (./topic-reader.ts: from this connection, parsed,
// no replay, young enough by stamp and arrival), and the link. The shape is
// the Robot seam's SafetyState; motionRefusal() is the robot's own check, so a
// motion command never leaves, and a goal in flight is cancelled, unless the
// e-stop is known released (and a mapped battery known and above critical).
import type { Freshness, SafetyState } from '../robot';
import type { Battery } from './readings';
import type { Current, Link } from './topic-reader';
export type { Freshness, SafetyState };

export interface SafetyInputs {
  /** The e-stop as it stands, or undefined when the mapping declares the robot has none. */
  estop: Current<boolean> | undefined;
  noEstopWhy?: string | undefined;
  /** The battery as it stands, or undefined when none is mapped. */
  battery: Current<Battery> | undefined;
  maxAgeS: number;
  link: Link;
}

export function safetyState(i: SafetyInputs): SafetyState {
  let estop: SafetyState['estop'];
  const e = i.estop;
  if (!e)
    estop = {
      state: 'not_reported',
      freshness: 'unknown',
      detail: `the mapping declares this robot reports no e-stop state${i.noEstopWhy ? ` (${i.noEstopWhy})` : ''}`,
    };
  else if (e.reading.known)
    estop = { state: e.reading.value ? 'pressed' : 'released', ...(e.ageS !== undefined ? { ageS: e.ageS } : {}), freshness: e.freshness };
  else estop = { state: 'unknown', ...(e.ageS !== undefined ? { ageS: e.ageS } : {}), freshness: e.freshness, detail: e.reading.why };
  const b = i.battery;
  const battery: SafetyState['battery'] = b && {
    ...(b.reading.known ? { percent: Math.round(b.reading.value.percent * 10) / 10 } : {}),
    ...(b.ageS !== undefined ? { ageS: b.ageS } : {}),
    freshness: b.reading.known ? b.freshness : b.freshness === 'fresh' ? 'unknown' : b.freshness,
  };
  return { estop, ...(battery ? { battery } : {}), maxAgeS: i.maxAgeS, link: i.link };
}

export type Refusal = { code: 'estop' | 'battery_empty'; reason: string };

/**
 * Why a motion command may not be sent now (or a goal go on), or undefined
 * when it may: the e-stop known, fresh and released (or declared not
 * reported), and a mapped battery known, fresh and above `criticalPercent`.
 */
export function motionRefusal(i: SafetyInputs, criticalPercent: number): Refusal | undefined {
  const e = i.estop;
  if (e) {
    if (!e.reading.known)
      return { code: 'estop', reason: `e-stop state ${e.freshness === 'stale' ? 'stale' : 'unknown'}: ${e.reading.why}` };
    if (e.reading.value) return { code: 'estop', reason: 'the emergency stop is pressed' };
  }
  const b = i.battery;
  if (b) {
    if (!b.reading.known)
      return { code: 'battery_empty', reason: `battery state ${b.freshness === 'stale' ? 'stale' : 'unknown'}: ${b.reading.why}` };
    if (b.reading.value.percent <= criticalPercent)
      return { code: 'battery_empty', reason: `the battery is critical (${Math.round(b.reading.value.percent * 10) / 10}%)` };
  }
  return undefined;
}
