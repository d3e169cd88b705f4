// A value read from outside the process (a robot's message, an HTTP answer, a
// queue job, a model's reply) is either known, with when it was measured, or
// unknown, with why. There is no third shape: absent, null, NaN, Inf, a field
// the message does not have, a stamp too old or a replay of an old message is
// `unknown`, so no caller can read a default ("released", "the origin", "0")
// where nothing was received. Parsers return a Reading; only `known` may act.

/** A value known to be true at `at` (performance.now() ms: the stamp's time where the message has one, else arrival). */
export interface Known<T> {
  readonly known: true;
  readonly value: T;
  readonly at: number;
}

/** Nothing usable was read; `why` names the field and the cause ("no field `pressed` in std_msgs/Bool"). */
export interface Unknown {
  readonly known: false;
  readonly why: string;
}

export type Reading<T> = Known<T> | Unknown;

export const known = <T>(value: T, at: number): Known<T> => ({ known: true, value, at });
export const unknown = (why: string): Unknown => ({ known: false, why });

/** Seconds since a known reading, rounded to 0.1 s. */
export function ageS(r: Known<unknown>, now: number): number {
  return Math.round((now - r.at) / 100) / 10;
}

/** A known reading no older than `maxAgeS`, or unknown saying how old it is. */
export function within<T>(r: Reading<T>, now: number, maxAgeS: number, what: string): Reading<T> {
  if (!r.known) return r;
  const a = ageS(r, now);
  return a <= maxAgeS ? r : unknown(`${what} is stale: last measured ${a} s ago, max ${maxAgeS} s`);
}

/** Maps a known value; an unknown stays unknown with its reason. */
export function mapReading<T, U>(r: Reading<T>, f: (v: T) => Reading<U> | U): Reading<U> {
  if (!r.known) return r;
  const out = f(r.value);
  if (out !== null && typeof out === 'object' && 'known' in out && typeof (out as { known: unknown }).known === 'boolean')
    return out as Reading<U>;
  return known(out as U, r.at);
}

/**
 * The value at a dotted path ("pose.pose.position") of a parsed message, or
 * unknown naming the first part that is missing. An own property must exist at
 * every step: a prototype's key (`constructor`, `__proto__`) is not a field.
 */
export function field(msg: unknown, path: string | readonly string[], at: number): Reading<unknown> {
  const parts = typeof path === 'string' ? path.split('.') : path;
  let v: unknown = msg;
  const seen: string[] = [];
  for (const p of parts) {
    if (v === null || typeof v !== 'object' || Array.isArray(v) || !Object.prototype.hasOwnProperty.call(v, p))
      return unknown(`the message has no field \`${[...seen, p].join('.')}\``);
    v = (v as Record<string, unknown>)[p];
    seen.push(p);
  }
  if (v === undefined || v === null) return unknown(`\`${parts.join('.')}\` is ${v === null ? 'null' : 'absent'}`);
  return known(v, at);
}

/** A finite number; null (rosbridge's NaN), NaN, ±Inf, strings and booleans are unknown. */
export function finite(r: Reading<unknown>, what: string): Reading<number> {
  if (!r.known) return r;
  const v = r.value;
  if (typeof v !== 'number') return unknown(`${what} is not a number (${describe(v)})`);
  if (!Number.isFinite(v)) return unknown(`${what} is ${v} (not a finite number)`);
  return known(v, r.at);
}

/** A boolean and nothing else: 0, 1, "false" or an object are unknown, never coerced. */
export function bool(r: Reading<unknown>, what: string): Reading<boolean> {
  if (!r.known) return r;
  return typeof r.value === 'boolean' ? known(r.value, r.at) : unknown(`${what} is not a boolean (${describe(r.value)})`);
}

/** A short description of a value that did not parse, safe to show (no more than 40 characters of it). */
export function describe(v: unknown): string {
  if (v === null) return 'null';
  if (v === undefined) return 'absent';
  if (typeof v === 'string') return `the string ${JSON.stringify(v.length > 40 ? `${v.slice(0, 40)}…` : v)}`;
  if (typeof v === 'number' || typeof v === 'boolean') return `${typeof v} ${String(v)}`;
  return Array.isArray(v) ? 'an array' : `a ${typeof v}`;
}
