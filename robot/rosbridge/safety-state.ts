// What the rosbridge robot knows about its own safety, with the age of each
// reading: the e-stop (known only from a message received on this connection,
// no older than the mapping's maxAgeS), the battery, and the link. The shape is
// the Robot seam's SafetyState; motionRefusal() is the robot's own check, so a
// motion command never leaves for a robot whose e-stop is not known released.

import type { Freshness, SafetyState } from '../robot';
export type { Freshness, SafetyState };

/** A value read from the robot, when (performance.now() ms) and on which connection. */
export interface Reading<T> {
  value: T;
  at: number;
  epoch: number;
}

export type Link = SafetyState['link'];

const ageOf = (r: Reading<unknown>, now: number) => Math.round((now - r.at) / 100) / 10;

/** Whether a reading is current: from this connection, the link up, and (when `maxAgeS`) young enough. */
export function freshness(r: Reading<unknown> | undefined, o: { epoch: number; link: Link; now: number; maxAgeS?: number }): Freshness {
  if (!r) return 'unknown';
  if (o.link !== 'up' || r.epoch !== o.epoch) return 'stale';
  return o.maxAgeS !== undefined && ageOf(r, o.now) > o.maxAgeS ? 'stale' : 'fresh';
}

/** A reading's age and freshness, as a clause a person reads ("last 7.2 s ago; the link is reconnecting"). */
export function staleness(r: Reading<unknown>, o: { epoch: number; link: Link; now: number; maxAgeS?: number }): string {
  const age = `last received ${ageOf(r, o.now)} s ago`;
  if (o.link !== 'up') return `${age}; the link to rosbridge is ${o.link === 'down' ? 'closed' : 'down (reconnecting)'}`;
  if (r.epoch !== o.epoch) return `${age}, before the connection was re-made; not received since`;
  return `${age}, max ${o.maxAgeS} s`;
}

export interface SafetyInputs {
  /** The e-stop topic, or undefined when the mapping declares the robot has none. */
  estopTopic: string | undefined;
  noEstopWhy?: string | undefined;
  estop: Reading<boolean> | undefined;
  batteryTopic: string | undefined;
  battery: Reading<number | undefined> | undefined;
  maxAgeS: number;
  link: Link;
  epoch: number;
  now: number;
}

export function safetyState(i: SafetyInputs): SafetyState {
  const o = { epoch: i.epoch, link: i.link, now: i.now, maxAgeS: i.maxAgeS };
  let estop: SafetyState['estop'];
  if (i.estopTopic === undefined)
    estop = {
      state: 'not_reported',
      freshness: 'unknown',
      detail: `the mapping declares this robot reports no e-stop state${i.noEstopWhy ? ` (${i.noEstopWhy})` : ''}`,
    };
  else if (!i.estop) estop = { state: 'unknown', freshness: 'unknown', detail: `no message received yet on ${i.estopTopic}` };
  else {
    const f = freshness(i.estop, o);
    const ageS = ageOf(i.estop, i.now);
    estop =
      f === 'fresh'
        ? { state: i.estop.value ? 'pressed' : 'released', ageS, freshness: f }
        : {
            state: 'unknown',
            ageS,
            freshness: f,
            detail: `${staleness(i.estop, o)} (it was ${i.estop.value ? 'pressed' : 'released'})`,
          };
  }
  const battery: SafetyState['battery'] =
    i.batteryTopic === undefined
      ? undefined
      : i.battery
        ? {
            ...(i.battery.value !== undefined ? { percent: i.battery.value } : {}),
            ageS: ageOf(i.battery, i.now),
            freshness: freshness(i.battery, o),
          }
        : { freshness: 'unknown' };
  return { estop, ...(battery ? { battery } : {}), maxAgeS: i.maxAgeS, link: i.link };
}

/**
 * Why a motion command may not be sent now, or undefined when it may: the
 * e-stop known, fresh and released (or declared not reported), and a mapped
 * battery known, fresh and above `criticalPercent`.
 */
export function motionRefusal(s: SafetyState, criticalPercent: number): { code: 'estop' | 'battery_empty'; reason: string } | undefined {
  const e = s.estop;
  if (e.state === 'pressed') return { code: 'estop', reason: 'the emergency stop is pressed' };
  if (e.state === 'unknown')
    return {
      code: 'estop',
      reason: `e-stop state ${e.freshness === 'stale' ? 'stale' : 'unknown'}: ${e.detail ?? 'no message received yet'}`,
    };
  const b = s.battery;
  if (b) {
    if (b.freshness !== 'fresh' || b.percent === undefined)
      return {
        code: 'battery_empty',
        reason:
          b.ageS === undefined
            ? 'battery state unknown: no message received yet'
            : `battery state ${b.freshness === 'fresh' ? 'unknown (no percentage)' : 'stale'}: last ${b.ageS} s ago, max ${s.maxAgeS} s${s.link === 'up' ? '' : `, link ${s.link}`}`,
      };
    if (b.percent <= criticalPercent) return { code: 'battery_empty', reason: `the battery is critical (${b.percent}%)` };
  }
  return undefined;
}
