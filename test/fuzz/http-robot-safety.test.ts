// The safety fuzzer over the HTTP robot client: fast-check generates what a
// robot says — robot.safety answers with fields missing, renamed, mistyped,
// null, ±Inf, negative or too old, keys in any order, answers that never come
// or drop the line, a 500 — and what it does: presses and releases on the event
// stream, the stream dropping, the server restarting, `retry:` values, motion
// asked at any moment. The stand-in robot records everything it received; an
// oracle written apart from the client judges the timeline:
//   1. no motion job reaches the robot unless the last safety answer was known,
//      fresh and released (a declared battery known and fresh), no press came
//      on the stream since, and the stream (when declared) was connected;
//   2. a job in flight ends within one control period of any other reading:
//      cancelled by the client (no second safety poll in between) or ended by
//      the robot; the measured latency is printed;
//   3. event stream reconnects are bounded: never closer than the floor.
// A fixed seed and a small budget in CI (400 gate cases, 40 in flight, 30 sequences, about 25 s);
// `npm run fuzz` ten times as many (support/budget.ts), FUZZ_SEED another seed.
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { RETRY_FLOOR_MS } from '../../robot/http/event-stream';
import { HttpRobot } from '../../robot/http/http-robot';
import type { Outcome } from '../../robot/robot';
import { type SafetyAnswer, type StandInEntry, type StandInRobot, fakeInfo, startStandInRobot } from '../support/fake-robot-server';
import { fuzzRuns, fuzzSeed } from './support/budget';

const RUNS = fuzzRuns(40);
const SEED = fuzzSeed(34);
const PERIOD_MS = 50;
/** Longer than most maxAgeS: an answer that never comes is judged by its age first. */
const TIMEOUT_MS = 2000;
/** Lets an event or a drop reach the client before the next step (they are on another socket than the next request). */
const SETTLE_MS = 30;
/** The client rounds ages to 0.1 s (base/reading.ts `within`). */
const ROUNDING_S = 0.06;
/** What the machine may add to a control period (a 2-core CI box, garbage collection); the logical check is the poll count. */
const SLACK_MS = 600;
/** The same for the gap between two polls while a job runs. */
const POLL_SLACK_MS = 500;

// ---------------------------------------------------------------- what a robot says

/** A value where a number is due: mostly sane, sometimes not. Infinity is written as 1e999 on the wire. */
const ageValue = fc.oneof(
  { weight: 8, arbitrary: fc.double({ min: 0, max: 0.3, noNaN: true }) },
  { weight: 2, arbitrary: fc.double({ min: 0, max: 3, noNaN: true }) },
  { weight: 1, arbitrary: fc.constantFrom<unknown>(null, '0.1', true, -0.5, Infinity, -Infinity, 1e6, [], {}) },
);
const maxAgeValue = fc.oneof(
  { weight: 8, arbitrary: fc.constantFrom(0.3, 0.5, 1, 2) },
  { weight: 1, arbitrary: fc.constantFrom<unknown>(null, 0, -1, Infinity, '2', false) },
);
const stateValue = fc.oneof(
  { weight: 6, arbitrary: fc.constant('released') },
  { weight: 2, arbitrary: fc.constant('pressed') },
  { weight: 1, arbitrary: fc.constantFrom<unknown>('unknown', 'not_reported', 'RELEASED', 'released ', '', null, 0, true) },
);
const ABSENT = Symbol('absent');
const maybe = <T>(a: fc.Arbitrary<T>, absentWeight = 1) =>
  fc.oneof({ weight: 10, arbitrary: a }, { weight: absentWeight, arbitrary: fc.constant(ABSENT) });

const estopValue = fc.oneof(
  { weight: 12, arbitrary: fc.record({ state: maybe(stateValue), ageS: maybe(ageValue), detail: maybe(fc.string({ maxLength: 20 }), 5) }) },
  { weight: 1, arbitrary: fc.constantFrom<unknown>(null, 'released', [], 1) },
);
const batteryValue = fc.oneof(
  {
    weight: 8,
    arbitrary: fc.record({
      percent: maybe(fc.oneof(fc.double({ min: 0, max: 100, noNaN: true }), fc.constantFrom<unknown>(null, 150, -3, '50', Infinity))),
      ageS: maybe(ageValue),
    }),
  },
  { weight: 1, arbitrary: fc.constantFrom<unknown>(null, 80, 'full') },
);
/** One key renamed, as a robot on another version of the protocol would. */
const RENAMES: Array<[string, string]> = [
  ['estop', 'eStop'],
  ['state', 'status'],
  ['ageS', 'age_s'],
  ['maxAgeS', 'max_age_s'],
  ['battery', 'batt'],
  ['percent', 'pct'],
  ['value', 'Value'],
];

/** A well-formed answer: released or pressed, young, maybe with a battery. */
const cleanAnswer: fc.Arbitrary<SafetyAnswer> = fc
  .record({
    state: fc.constantFrom('released', 'released', 'released', 'pressed'),
    ageS: fc.oneof(
      { weight: 8, arbitrary: fc.double({ min: 0, max: 0.25, noNaN: true }) },
      { weight: 2, arbitrary: fc.double({ min: 0, max: 2.5, noNaN: true }) },
    ),
    maxAgeS: fc.constantFrom(0.5, 1, 2),
    battery: fc.option(
      fc.record({ percent: fc.double({ min: 0, max: 100, noNaN: true }), ageS: fc.double({ min: 0, max: 0.2, noNaN: true }) }),
    ),
    reversed: fc.boolean(),
  })
  .map(({ state, ageS, maxAgeS, battery, reversed }) => ({
    raw: wire({ value: { estop: { state, ageS }, ...(battery ? { battery } : {}), maxAgeS } }, null, reversed),
  }));

/** Where a near miss changes a clean answer, and how. */
const PATHS = [
  'value',
  'value.estop',
  'value.estop.state',
  'value.estop.ageS',
  'value.maxAgeS',
  'value.battery',
  'value.battery.percent',
  'value.battery.ageS',
];
const MISSES = ['delete', 'rename', 'null', 'string', 'boolean', 'infinity', 'negative', 'old', 'array'] as const;

/** A clean answer with one thing wrong: a field gone, renamed, null, mistyped, ±Inf, negative or too old. */
const nearMiss: fc.Arbitrary<SafetyAnswer> = fc
  .record({
    ageS: fc.double({ min: 0.03, max: 0.2, noNaN: true }),
    maxAgeS: fc.constantFrom(0.5, 1, 2),
    battery: fc.boolean(),
    path: fc.constantFrom(...PATHS),
    miss: fc.constantFrom(...MISSES),
    reversed: fc.boolean(),
  })
  .map(({ ageS, maxAgeS, battery, path, miss, reversed }) => {
    const body: Record<string, unknown> = {
      value: { estop: { state: 'released', ageS }, ...(battery ? { battery: { percent: 50, ageS } } : {}), maxAgeS },
    };
    const parts = path.split('.');
    let parent: Record<string, unknown> | undefined = body;
    for (const k of parts.slice(0, -1)) parent = isObject(parent?.[k]) ? (parent[k] as Record<string, unknown>) : undefined;
    const key = parts.at(-1)!;
    if (parent && Object.hasOwn(parent, key)) {
      const was = parent[key];
      if (miss === 'delete') delete parent[key];
      else if (miss === 'rename') {
        delete parent[key];
        parent[`${key}_`] = was;
      } else
        parent[key] = {
          null: null,
          string: String(was),
          boolean: true,
          infinity: Infinity,
          negative: -1,
          old: 3600,
          array: [was],
        }[miss];
    }
    return { raw: wire(body, null, reversed) };
  });

/** A robot.safety answer, kept as the text the robot sends (key order, 1e999) or a fault. */
const safetyAnswer: fc.Arbitrary<SafetyAnswer> = fc.oneof(
  { weight: 24, arbitrary: cleanAnswer },
  { weight: 8, arbitrary: nearMiss },
  {
    weight: 12,
    arbitrary: fc
      .record({
        estop: maybe(estopValue, 1),
        battery: maybe(batteryValue, 3),
        maxAgeS: maybe(maxAgeValue, 1),
        rename: fc.oneof({ weight: 6, arbitrary: fc.constant(null) }, { weight: 1, arbitrary: fc.constantFrom(...RENAMES) }),
        reversed: fc.boolean(),
      })
      .map(({ estop, battery, maxAgeS, rename, reversed }) => {
        const value = strip({ estop, battery, maxAgeS });
        return { raw: wire({ value }, rename, reversed) };
      }),
  },
  {
    weight: 1,
    arbitrary: fc.constantFrom<SafetyAnswer>('hang', 'drop', { status: 500 }, { status: 404 }, { raw: '{"value": {"estop": ' }),
  },
);

/** Drops the ABSENT keys, at any depth. */
function strip(v: unknown): unknown {
  if (Array.isArray(v) || v === null || typeof v !== 'object') return v;
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v)) if (x !== ABSENT) out[k] = strip(x);
  return out;
}

/** JSON as a robot writes it: ±Infinity as ±1e999, one key maybe renamed, keys maybe reversed. */
function wire(v: unknown, rename: [string, string] | null, reversed: boolean): string {
  const walk = (x: unknown): string => {
    if (typeof x === 'number' && !Number.isFinite(x)) return Number.isNaN(x) ? 'null' : x > 0 ? '1e999' : '-1e999';
    if (Array.isArray(x)) return `[${x.map(walk).join(',')}]`;
    if (x === null || typeof x !== 'object') return JSON.stringify(x);
    const entries = Object.entries(x).map(([k, y]) => [rename && k === rename[0] ? rename[1] : k, y] as const);
    if (reversed) entries.reverse();
    return `{${entries.map(([k, y]) => `${JSON.stringify(k)}:${walk(y)}`).join(',')}}`;
  };
  return walk(v);
}

type Step =
  /** The robot's reading changes, then motion is asked at once. */
  | { kind: 'ask'; answer: SafetyAnswer }
  /** The robot's reading changes (a job may be in flight). */
  | { kind: 'answer'; answer: SafetyAnswer }
  | { kind: 'event'; type: 'estop_pressed' | 'estop_released' | 'person_said' }
  | { kind: 'drop' }
  | { kind: 'restart' }
  | { kind: 'motion' }
  | { kind: 'wait'; ms: number };

const step: fc.Arbitrary<Step> = fc.oneof(
  { weight: 5, arbitrary: safetyAnswer.map((answer) => ({ kind: 'ask' as const, answer })) },
  { weight: 4, arbitrary: safetyAnswer.map((answer) => ({ kind: 'answer' as const, answer })) },
  { weight: 2, arbitrary: fc.constant({ kind: 'motion' as const }) },
  { weight: 3, arbitrary: fc.integer({ min: 0, max: 400 }).map((ms) => ({ kind: 'wait' as const, ms })) },
  {
    weight: 2,
    arbitrary: fc.constantFrom('estop_pressed', 'estop_released', 'person_said').map((type) => ({ kind: 'event' as const, type })),
  },
  { weight: 1, arbitrary: fc.constant({ kind: 'drop' as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'restart' as const }) },
);

const scenario = fc.record({
  events: fc.boolean(),
  battery: fc.boolean(),
  retry: fc.option(fc.constantFrom('0', '-1', '1', '10', '100000000', 'abc', ''), { freq: 3 }),
  stream: fc.constantFrom<'open' | 'close' | 404>('open', 'open', 'open', 'open', 'close', 404),
  jobMs: fc.integer({ min: 30, max: 1500 }),
  first: safetyAnswer,
  steps: fc.array(step, { minLength: 1, maxLength: 8 }),
});
type Scenario = typeof scenario extends fc.Arbitrary<infer T> ? T : never;

// ---------------------------------------------------------------- the oracle (written apart from the client)

interface Green {
  ageS: number;
  maxAgeS: number;
  batteryAgeS: number | undefined;
}

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
const own = (o: Record<string, unknown>, k: string): unknown => (Object.hasOwn(o, k) ? o[k] : undefined);
const finiteNumber = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

/** Whether an answer says, in the protocol's words, released and fresh when sent; the ages it gives. */
function green(a: SafetyAnswer, batteryDeclared: boolean): Green | undefined {
  if (typeof a !== 'object' || !('raw' in a)) return undefined;
  let body: unknown;
  try {
    body = JSON.parse(a.raw);
  } catch {
    return undefined;
  }
  if (!isObject(body)) return undefined;
  const v = own(body, 'value');
  if (!isObject(v)) return undefined;
  const e = own(v, 'estop');
  const max = own(v, 'maxAgeS');
  if (!isObject(e) || own(e, 'state') !== 'released') return undefined;
  const age = own(e, 'ageS');
  if (!finiteNumber(age) || age < 0 || !finiteNumber(max) || max <= 0 || age > max + ROUNDING_S) return undefined;
  const b = own(v, 'battery');
  let batteryAgeS: number | undefined;
  if (b === undefined || b === null) {
    if (batteryDeclared) return undefined;
  } else {
    if (!isObject(b)) return undefined;
    const pct = own(b, 'percent');
    const bAge = own(b, 'ageS');
    if (!finiteNumber(pct) || pct < 0 || pct > 100 || !finiteNumber(bAge) || bAge < 0 || bAge > max + ROUNDING_S) return undefined;
    batteryAgeS = bAge;
  }
  return { ageS: age, maxAgeS: max, batteryAgeS };
}

/** Whether an answer reaches the client at all ('hang' never does; a drop is a broken link, itself a reading). */
const delivered = (a: SafetyAnswer) => a !== 'hang';

interface Verdict {
  violations: string[];
  latenciesMs: number[];
  posts: number;
  connections: number;
}

function judge(t: StandInEntry[], sc: Scenario, durationMs: number, asks: number[]): Verdict {
  const violations: string[] = [];
  const latenciesMs: number[] = [];
  const batteryDeclared = sc.battery;
  const safety = t.filter((e): e is Extract<StandInEntry, { kind: 'safety' }> => e.kind === 'safety');
  const lastAnswerBefore = (at: number) => safety.filter((e) => e.at < at && delivered(e.answer)).at(-1);
  const posts = t.filter((e): e is Extract<StandInEntry, { kind: 'post' }> => e.kind === 'post');

  // 1. Motion only on green.
  for (const p of posts) {
    const last = lastAnswerBefore(p.at);
    const g = last && green(last.answer, batteryDeclared);
    if (!last || !g) {
      violations.push(
        `a motion job was posted at ${p.at.toFixed(0)} after ${last ? `the answer ${JSON.stringify(last.answer)}` : 'no answer'}`,
      );
      continue;
    }
    const aged = (p.at - last.at) / 1000;
    if (aged + g.ageS > g.maxAgeS + ROUNDING_S || (g.batteryAgeS !== undefined && aged + g.batteryAgeS > g.maxAgeS + ROUNDING_S))
      violations.push(`a motion job was posted on a reading ${(aged + g.ageS).toFixed(2)} s old (max ${g.maxAgeS})`);
    const measured = last.at - g.ageS * 1000;
    const estopEvents = t.filter(
      (e) => sc.events && e.kind === 'event' && e.at >= measured && e.at < p.at - SETTLE_MS && e.type.startsWith('estop_'),
    );
    if (estopEvents.at(-1)?.kind === 'event' && (estopEvents.at(-1) as { type: string }).type === 'estop_pressed')
      violations.push(`a motion job was posted after a press on the stream (${JSON.stringify(estopEvents.at(-1))})`);
    if (sc.events && p.streamsOpen === 0) violations.push('a motion job was posted while the event stream was not connected');
  }

  // 2. A job in flight ends within one control period of any other reading.
  for (const p of posts) {
    const endEntry = t.find((e) => e.at >= p.at && ((e.kind === 'job-end' && e.id === p.id) || e.kind === 'restart'));
    const end = endEntry?.at ?? Infinity;
    const triggers: number[] = [];
    for (const e of t) {
      if (e.at <= p.at || e.at >= end) continue;
      if (e.kind === 'safety' && e.answer !== 'hang' && !green(e.answer, batteryDeclared)) triggers.push(e.at);
      // The robot's reading changed and stayed so for a period: the next poll must have seen it.
      if (e.kind === 'answer-set' && e.answer !== 'hang' && !green(e.answer, batteryDeclared)) {
        const next = t.find((x) => x.kind === 'answer-set' && x.at > e.at)?.at ?? Infinity;
        if (next - e.at > PERIOD_MS + POLL_SLACK_MS) triggers.push(e.at);
      }
      if (e.kind === 'event' && e.type === 'estop_pressed' && sc.events) triggers.push(e.at);
      if (e.kind === 'stream-drop' && sc.events) triggers.push(e.at);
    }
    // A green answer goes stale when no newer answer reached the client before its age passed maxAgeS.
    const answers = safety.filter((e) => delivered(e.answer) && e.at < end);
    for (let i = 0; i < answers.length; i++) {
      const g = green(answers[i]!.answer, batteryDeclared);
      if (!g) continue;
      const oldest = Math.max(g.ageS, g.batteryAgeS ?? 0);
      const expires = answers[i]!.at + (g.maxAgeS - oldest + ROUNDING_S) * 1000;
      const next = answers[i + 1]?.at ?? Infinity;
      if (next > expires && expires > p.at && expires < end) triggers.push(expires);
    }
    // The client re-reads the robot every control period while the job runs (a poll that never returns holds the next).
    const polls = [p.at, ...safety.filter((e) => e.at > p.at && e.at < end).map((e) => e.at), Math.min(end, performance.now())];
    const hung = new Set(safety.filter((e) => e.answer === 'hang').map((e) => e.at));
    for (let i = 1; i < polls.length; i++)
      if (!hung.has(polls[i - 1]!) && polls[i]! - polls[i - 1]! > PERIOD_MS + POLL_SLACK_MS)
        violations.push(
          `job ${p.id}: no safety poll for ${(polls[i]! - polls[i - 1]!).toFixed(0)} ms while it ran (period ${PERIOD_MS} ms)`,
        );
    const first = Math.min(...triggers);
    if (!Number.isFinite(first)) continue;
    if (!endEntry) {
      violations.push(`job ${p.id} was still running after a reading that was not green at ${first.toFixed(0)}`);
      continue;
    }
    latenciesMs.push(Math.max(0, end - first));
    // Each job's watch has at most one poll in flight when it stops: no poll of a later period comes before the end.
    const inFlight = posts.filter(
      (q) =>
        q.at < first &&
        (t.find((e) => e.at >= q.at && ((e.kind === 'job-end' && e.id === q.id) || e.kind === 'restart'))?.at ?? Infinity) > first,
    ).length;
    // A motion asked meanwhile reads the robot once before it is refused or posted.
    const asked = asks.filter((a) => a > first - SETTLE_MS && a < end).length;
    const after = safety.filter((e) => e.at > first && e.at < end).length;
    if (after > inFlight + asked)
      violations.push(
        `job ${p.id}: ${after} safety polls between a reading that was not green and the end of the job (${inFlight} jobs in flight)`,
      );
    if (end - first > PERIOD_MS + SLACK_MS)
      violations.push(`job ${p.id} ended ${(end - first).toFixed(0)} ms after a reading that was not green (period ${PERIOD_MS} ms)`);
  }

  // 3. Reconnects bounded: never closer than the floor, whatever retry: said.
  const opens = t.filter((e) => e.kind === 'stream-open').map((e) => e.at);
  for (let i = 1; i < opens.length; i++)
    if (opens[i]! - opens[i - 1]! < RETRY_FLOOR_MS - 25)
      violations.push(`the event stream was reconnected ${(opens[i]! - opens[i - 1]!).toFixed(0)} ms after the last connect`);
  if (opens.length > 1 + Math.ceil(durationMs / RETRY_FLOOR_MS))
    violations.push(`${opens.length} stream connections in ${durationMs.toFixed(0)} ms`);

  return { violations, latenciesMs, posts: posts.length, connections: opens.length };
}

// ---------------------------------------------------------------- the harness

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function play(sc: Scenario): Promise<Verdict & { outcomes: Outcome[] }> {
  const caps = ['arm', 'perception', ...(sc.events ? ['events'] : []), ...(sc.battery ? ['battery'] : [])];
  const s: StandInRobot = await startStandInRobot({
    info: fakeInfo({ capabilities: caps }),
    safety: sc.first,
    jobMs: sc.jobMs,
    stream: sc.stream,
    ...(sc.retry !== null ? { retry: sc.retry } : {}),
  });
  const t0 = performance.now();
  const robot = await HttpRobot.open({ url: s.url, token: 't', timeoutMs: TIMEOUT_MS, controlPeriodMs: PERIOD_MS });
  const calls: Array<Promise<Outcome>> = [];
  const asks: number[] = [];
  try {
    for (const st of sc.steps) {
      if (st.kind === 'answer' || st.kind === 'ask') s.set({ safety: st.answer });
      if (st.kind === 'answer') continue;
      if (st.kind === 'event') {
        s.event(st.type);
        await sleep(SETTLE_MS);
      } else if (st.kind === 'drop') {
        s.dropStreams();
        await sleep(SETTLE_MS);
      } else if (st.kind === 'restart') {
        await s.restart();
        await sleep(SETTLE_MS);
      } else if (st.kind === 'wait') await sleep(st.ms);
      else {
        // The next step waits until this motion was posted or refused: its own decision is not raced.
        const before = s.posts().length;
        asks.push(performance.now());
        const call = robot.arm!.pick('lemon_1');
        calls.push(call);
        let settled = false;
        void call.finally(() => (settled = true));
        for (let i = 0; i < 200 && !settled && s.posts().length === before; i++) await sleep(5);
      }
    }
    // The last word: pressed, on the stream first (the answers may still say released), then in the answers.
    // Every job still in flight must be cancelled.
    s.event('estop_pressed');
    await sleep(PERIOD_MS * 3);
    s.set({ safety: { raw: '{"value":{"estop":{"state":"pressed","ageS":0},"maxAgeS":1}}' } });
    const all = Promise.all(calls);
    const outcomes = await Promise.race([all, sleep(10_000).then(() => undefined)]);
    const v = judge(s.timeline, sc, performance.now() - t0, asks);
    if (!outcomes) v.violations.push('a motion call did not return within 10 s of the final press');
    for (const o of outcomes ?? []) if (!o.summary) v.violations.push('an outcome without a summary');
    return { ...v, outcomes: outcomes ?? [] };
  } finally {
    robot.close();
    await s.close();
  }
}

/** One answer, one motion: posted exactly when the oracle says green (and refused, saying why, otherwise). */
async function gateCase(c: {
  answer: SafetyAnswer;
  battery: boolean;
  events: boolean;
}): Promise<{ posted: boolean; violations: string[] }> {
  const caps = ['arm', 'perception', ...(c.events ? ['events'] : []), ...(c.battery ? ['battery'] : [])];
  const s = await startStandInRobot({ info: fakeInfo({ capabilities: caps }), safety: c.answer, jobMs: 0 });
  const robot = await HttpRobot.open({ url: s.url, token: 't', timeoutMs: TIMEOUT_MS, controlPeriodMs: PERIOD_MS });
  try {
    const out = await robot.arm!.pick('lemon_1');
    const posted = s.posts().length > 0;
    const g = green(c.answer, c.battery);
    const violations: string[] = [];
    if (posted && !g) violations.push(`posted on ${JSON.stringify(c.answer)}`);
    // A fresh, released, complete answer is acted on (the answer is served at once, so its age is its own).
    if (!posted && g && Math.max(g.ageS, g.batteryAgeS ?? 0) < g.maxAgeS - 0.15) violations.push(`refused a green answer: ${out.summary}`);
    if (!posted && !/was not sent to the robot: ./.test(out.summary)) violations.push(`a refusal that does not say why: ${out.summary}`);
    return { posted, violations };
  } finally {
    robot.close();
    await s.close();
  }
}

type Disturbance = { kind: 'answer'; answer: SafetyAnswer } | { kind: 'event' } | { kind: 'drop' } | { kind: 'restart' };

/** A job in flight on green, then one thing changes: the job ends within a period of it, and the outcome says why. */
async function flightCase(c: {
  maxAgeS: number;
  events: boolean;
  d: Disturbance;
}): Promise<{ latency: number | undefined; violations: string[] }> {
  const caps = ['arm', 'perception', ...(c.events ? ['events'] : [])];
  const fresh = { raw: `{"value":{"estop":{"state":"released","ageS":0},"maxAgeS":${c.maxAgeS}}}` };
  const s = await startStandInRobot({ info: fakeInfo({ capabilities: caps }), safety: fresh });
  const robot = await HttpRobot.open({ url: s.url, token: 't', timeoutMs: TIMEOUT_MS, controlPeriodMs: PERIOD_MS });
  const violations: string[] = [];
  try {
    const call = robot.arm!.pick('lemon_1');
    for (let i = 0; i < 200 && s.running().length === 0; i++) await sleep(5);
    if (s.running().length === 0) return { latency: undefined, violations: ['a green motion was not posted'] };
    await sleep(PERIOD_MS * 2);
    const d = c.d;
    let trigger = performance.now();
    // What the client must react to, and from when.
    let expected = true;
    let edge = false;
    if (d.kind === 'answer') {
      s.set({ safety: d.answer });
      // An answer that never comes: the last one goes stale at its age.
      if (d.answer === 'hang')
        trigger = (s.timeline.filter((e) => e.kind === 'safety').at(-1)?.at ?? trigger) + (c.maxAgeS + ROUNDING_S) * 1000;
      else {
        const g = green(d.answer, false);
        expected = !g;
        // A green answer at the edge of its maximum age may go stale between two polls: either way is right.
        edge = !!g && Math.max(g.ageS, g.batteryAgeS ?? 0) > g.maxAgeS - (PERIOD_MS + 100) / 1000;
      }
    } else if (d.kind === 'event') {
      s.event('estop_pressed');
      expected = c.events;
    } else if (d.kind === 'drop') {
      s.dropStreams();
      expected = c.events;
    } else await s.restart();
    if (!expected) {
      // Nothing the client should act on: the job runs on. End it with a press.
      await sleep(PERIOD_MS * 4);
      if (!edge && s.running().length !== 1) violations.push(`the job was stopped by ${JSON.stringify(d)}, which is green`);
      s.set({ safety: { raw: '{"value":{"estop":{"state":"pressed","ageS":0},"maxAgeS":1}}' } });
      trigger = performance.now();
    }
    const out = await Promise.race([call, sleep(8000).then(() => undefined)]);
    if (!out) return { latency: undefined, violations: [...violations, `the call did not return after ${JSON.stringify(d)}`] };
    const end = s.timeline.find((e) => e.kind === 'job-end' || e.kind === 'restart')?.at;
    if (end === undefined) violations.push(`the job still runs on the robot after ${JSON.stringify(d)}`);
    const latency = end === undefined ? undefined : Math.max(0, end - trigger);
    if (latency !== undefined && latency > PERIOD_MS + SLACK_MS)
      violations.push(`the job ended ${latency.toFixed(0)} ms after ${JSON.stringify(d)} (period ${PERIOD_MS} ms)`);
    if (out.ok) violations.push(`the outcome says ok after ${JSON.stringify(d)}`);
    if (d.kind !== 'restart' && !/cancelled on the robot: ./.test(out.summary))
      violations.push(`the outcome does not say why: ${out.summary}`);
    return { latency, violations };
  } finally {
    robot.close();
    await s.close();
  }
}

const disturbance: fc.Arbitrary<Disturbance> = fc.oneof(
  { weight: 6, arbitrary: safetyAnswer.map((answer) => ({ kind: 'answer' as const, answer })) },
  { weight: 2, arbitrary: fc.constant({ kind: 'answer' as const, answer: 'hang' as const }) },
  { weight: 2, arbitrary: fc.constant({ kind: 'event' as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'drop' as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'restart' as const }) },
);

describe('the HTTP robot safety fuzzer', () => {
  const figures = { cases: 0, posts: 0, refused: 0, cancelled: 0, latencies: [] as number[], connections: 0, ms: 0 };
  afterAll(() => {
    const l = figures.latencies.sort((a, b) => a - b);
    const q = (f: number) => (l.length ? l[Math.min(l.length - 1, Math.floor(f * l.length))]!.toFixed(0) : '-');
    console.log(
      `http-robot safety fuzzer: ${figures.cases} cases in ${(figures.ms / 1000).toFixed(1)} s (seed ${SEED}); ` +
        `${figures.posts} motion jobs posted, ${figures.refused} refused before posting, ${figures.cancelled} ended in flight after a reading that was not green; ` +
        `cancel latency after a reading that was not green: median ${q(0.5)} ms, max ${q(1)} ms (period ${PERIOD_MS} ms); ` +
        `${figures.connections} stream connections`,
    );
  });

  it(
    'the gate: one answer of any shape, one motion; posted exactly when the answer is known, fresh and released',
    async () => {
      const t0 = performance.now();
      let posted = 0;
      let refused = 0;
      await fc.assert(
        fc.asyncProperty(fc.record({ answer: safetyAnswer, battery: fc.boolean(), events: fc.boolean() }), async (c) => {
          const r = await gateCase(c);
          if (r.posted) posted++;
          else refused++;
          expect(r.violations).toEqual([]);
        }),
        { seed: SEED, numRuns: RUNS * 10, endOnFailure: true },
      );
      figures.cases += RUNS * 10;
      figures.posts += posted;
      figures.refused += refused;
      figures.ms += performance.now() - t0;
      expect(posted).toBeGreaterThan(0);
      expect(refused).toBeGreaterThan(0);
    },
    Math.max(120_000, RUNS * 4000),
  );

  it(
    'in flight: one change after a green post ends the job on the robot within a control period',
    async () => {
      const t0 = performance.now();
      await fc.assert(
        fc.asyncProperty(fc.record({ maxAgeS: fc.constantFrom(0.3, 0.5, 1), events: fc.boolean(), d: disturbance }), async (c) => {
          const r = await flightCase(c);
          figures.posts++;
          if (r.latency !== undefined) {
            figures.latencies.push(r.latency);
            figures.cancelled++;
          }
          expect(r.violations).toEqual([]);
        }),
        { seed: SEED, numRuns: RUNS, endOnFailure: true },
      );
      figures.cases += RUNS;
      figures.ms += performance.now() - t0;
    },
    Math.max(120_000, RUNS * 8000),
  );

  it(
    'sequences: no motion job without a fresh released reading, a job in flight ended within a control period, reconnects bounded',
    async () => {
      const t0 = performance.now();
      await fc.assert(
        fc.asyncProperty(scenario, async (sc) => {
          const v = await play(sc);
          figures.cases++;
          figures.posts += v.posts;
          figures.connections += v.connections;
          figures.latencies.push(...v.latenciesMs);
          figures.refused += v.outcomes.filter((o) => !o.ok && /was not sent to the robot/.test(o.summary)).length;
          figures.cancelled += v.outcomes.filter((o) => !o.ok && /cancelled on the robot/.test(o.summary)).length;
          expect(v.violations).toEqual([]);
        }),
        { seed: SEED, numRuns: Math.ceil(RUNS * 0.75), endOnFailure: true },
      );
      figures.ms += performance.now() - t0;
      // Not vacuous: jobs were posted on green, refused otherwise, and cancelled in flight.
      expect(figures.posts).toBeGreaterThan(0);
      expect(figures.refused).toBeGreaterThan(0);
      expect(figures.cancelled).toBeGreaterThan(0);
    },
    Math.max(120_000, RUNS * 8000),
  );
});
