// An HTTP robot's robot.safety answer, read field by field into Readings: the
// e-stop and the battery are known (with when the robot measured them: the
// request's send time minus the age it reports) or unknown with the field and
// the cause. Absent, null, a number that is not finite, a negative age, an
// unknown state word or a field under another name is unknown, never
// "released" or "fresh". `motionBlock` is the one rule the client applies
// before it posts a motion job and while one runs: the e-stop known, fresh and
// released (a press on the event stream after the reading overrides it), a
// declared battery known and fresh, and the link up.
import { type Known, type Reading, ageS, describe, field, finite, known, unknown, within } from '../../base/reading';
import type { SafetyState } from '../robot';

export type EstopValue = 'released' | 'pressed';

export interface HttpSafetyReading {
  /** 'not_reported': the robot's info declares it has no e-stop state (the safety chain's --accept-no-estop decides). */
  readonly estop: Reading<EstopValue> | 'not_reported';
  /** Present when the robot declares a battery or reports one. */
  readonly battery?: Reading<number>;
  /** The robot's stated maximum age of a reading, s (unknown makes every reading unknown). */
  readonly maxAgeS: Reading<number>;
  /** The robot's own words about its e-stop, when it gave a string. */
  readonly detail?: string;
  /** The answer named a state (released or pressed), whatever its age: the robot has received its state. */
  readonly stated: boolean;
}

export interface Declared {
  /** The robot's info says it reports no e-stop state. */
  readonly noEstop: boolean;
  /** The robot declares the battery capability: a safety answer without a battery is unknown, not "no battery". */
  readonly battery: boolean;
}

/** What the answer could not say: every reading unknown for the same reason. */
export function unreadable(why: string, d: Declared): HttpSafetyReading {
  const u = unknown(why);
  return { estop: d.noEstop ? 'not_reported' : u, ...(d.battery ? { battery: u } : {}), maxAgeS: u, stated: false };
}

const STATES = ['released', 'pressed', 'unknown', 'not_reported'] as const;

/**
 * Reads the body of a robot.safety answer (`{ "value": { estop, battery, maxAgeS } }`)
 * sent at `sentAt` (performance.now() ms): a reading the robot says is `ageS`
 * old was measured no later than `sentAt - ageS`.
 */
export function parseSafety(body: unknown, sentAt: number, d: Declared): HttpSafetyReading {
  const maxAge = positive(finite(field(body, 'value.maxAgeS', sentAt), '`maxAgeS`'), '`maxAgeS`');
  const detailField = field(body, 'value.estop.detail', sentAt);
  const detail = detailField.known && typeof detailField.value === 'string' ? detailField.value.slice(0, 1000) : undefined;
  const said = field(body, 'value.estop.state', sentAt);
  return {
    stated: said.known && (said.value === 'released' || said.value === 'pressed'),
    estop: d.noEstop ? 'not_reported' : estopOf(body, sentAt, maxAge, detail),
    ...batteryOf(body, sentAt, maxAge, d),
    maxAgeS: maxAge,
    ...(detail !== undefined ? { detail } : {}),
  };
}

function estopOf(body: unknown, sentAt: number, maxAge: Reading<number>, detail: string | undefined): Reading<EstopValue> {
  const state = field(body, 'value.estop.state', sentAt);
  if (!state.known) return state;
  const s = state.value;
  if (typeof s !== 'string' || !(STATES as readonly string[]).includes(s))
    return unknown(`\`estop.state\` is not one of ${STATES.join(', ')} (${describe(s)})`);
  if (s === 'unknown') return unknown(`the robot does not know its e-stop state${detail ? ` (${detail})` : ''}`);
  if (s === 'not_reported') return unknown('the robot answered not_reported but its info does not declare estop: not_reported');
  const age = measuredAt(field(body, 'value.estop.ageS', sentAt), sentAt, '`estop.ageS`');
  // A press is a press however old or unstamped: it never reads as less than pressed.
  if (s === 'pressed') return known('pressed', age.known ? age.value : sentAt);
  if (!age.known) return unknown(`the age of the e-stop reading is not known: ${age.why}`);
  if (!maxAge.known) return unknown(`the robot's maximum age of a reading is not known: ${maxAge.why}`);
  return known(s as EstopValue, age.value);
}

function batteryOf(body: unknown, sentAt: number, maxAge: Reading<number>, d: Declared): { battery?: Reading<number> } {
  const b = field(body, 'value.battery', sentAt);
  if (!b.known) return d.battery ? { battery: unknown(`the battery is not reported: ${b.why}`) } : {};
  const pct = finite(field(body, 'value.battery.percent', sentAt), '`battery.percent`');
  if (!pct.known) return { battery: pct };
  if (pct.value < 0 || pct.value > 100) return { battery: unknown(`\`battery.percent\` is ${pct.value} (not 0-100)`) };
  const age = measuredAt(field(body, 'value.battery.ageS', sentAt), sentAt, '`battery.ageS`');
  if (!age.known) return { battery: unknown(`the age of the battery reading is not known: ${age.why}`) };
  if (!maxAge.known) return { battery: unknown(`the robot's maximum age of a reading is not known: ${maxAge.why}`) };
  return { battery: known(pct.value, age.value) };
}

/** When a reading `ageS` old at `sentAt` was measured; a negative or non-finite age is unknown. */
function measuredAt(r: Reading<unknown>, sentAt: number, what: string): Reading<number> {
  const a = finite(r, what);
  if (!a.known) return a;
  if (a.value < 0) return unknown(`${what} is ${a.value} (negative)`);
  return known(sentAt - a.value * 1000, sentAt);
}

function positive(r: Reading<number>, what: string): Reading<number> {
  if (!r.known || r.value > 0) return r;
  return unknown(`${what} is ${r.value} (not above 0)`);
}

/** The link as the client sees it: 'up', the event stream 'reconnecting', or the robot 'down' (not reachable). */
export type Link = SafetyState['link'];

/** A press seen on the event stream after a reading was measured: the reading no longer says "released". */
export function withPress(r: Reading<EstopValue>, pressedAt: number | undefined): Reading<EstopValue> {
  if (!r.known || pressedAt === undefined || pressedAt < r.at) return r;
  return known('pressed', pressedAt);
}

/**
 * Why motion may not start or go on, or undefined when the e-stop is known,
 * fresh and released (or declared not reported), a declared battery is known
 * and fresh, and the link is up. `pressed` tells the caller which outcome code fits.
 */
export function motionBlock(
  s: HttpSafetyReading,
  o: { now: number; link: Link; linkWhy?: string; pressedAt?: number | undefined },
): { why: string; pressed: boolean } | undefined {
  if (s.estop !== 'not_reported') {
    const e = withPress(s.estop, o.pressedAt);
    if (e.known && e.value === 'pressed') return { why: 'the emergency stop is pressed', pressed: true };
  }
  if (o.link !== 'up') return { why: `the link to the robot is ${o.link}${o.linkWhy ? ` (${o.linkWhy})` : ''}`, pressed: false };
  if (s.estop !== 'not_reported') {
    if (!s.estop.known) return { why: `e-stop state unknown: ${s.estop.why}`, pressed: false };
    const max = s.maxAgeS as Known<number>; // known whenever the e-stop is (estopOf)
    const f = within(s.estop, o.now, max.value, 'the e-stop reading');
    if (!f.known) return { why: f.why, pressed: false };
  }
  if (s.battery) {
    if (!s.battery.known) return { why: `battery state unknown: ${s.battery.why}`, pressed: false };
    const max = s.maxAgeS as Known<number>;
    const f = within(s.battery, o.now, max.value, 'the battery reading');
    if (!f.known) return { why: f.why, pressed: false };
  }
  return undefined;
}

/** The Robot seam's SafetyState of a reading: a known value keeps its age (fresh or stale); unknown says why. */
export function toSafetyState(
  s: HttpSafetyReading,
  o: { now: number; link: Link; pressedAt?: number | undefined; noEstopDetail?: string },
): SafetyState {
  const maxAgeS = s.maxAgeS.known ? s.maxAgeS.value : 0;
  const fresh = (r: Known<unknown>) => (ageS(r, o.now) <= maxAgeS ? ('fresh' as const) : ('stale' as const));
  let estop: SafetyState['estop'];
  if (s.estop === 'not_reported')
    estop = { state: 'not_reported', freshness: 'unknown', ...(o.noEstopDetail ? { detail: o.noEstopDetail } : {}) };
  else {
    const e = withPress(s.estop, o.pressedAt);
    estop = e.known
      ? {
          state: e.value,
          ageS: Math.max(0, (o.now - e.at) / 1000),
          freshness: fresh(e),
          ...(e !== s.estop ? { detail: 'pressed (reported on the event stream)' } : s.detail ? { detail: s.detail } : {}),
        }
      : { state: 'unknown', freshness: 'unknown', detail: e.why };
  }
  const b = s.battery;
  return {
    estop,
    ...(b
      ? {
          battery: b.known
            ? { percent: b.value, ageS: Math.max(0, (o.now - b.at) / 1000), freshness: fresh(b) }
            : { freshness: 'unknown' as const },
        }
      : {}),
    maxAgeS,
    link: o.link,
  };
}
