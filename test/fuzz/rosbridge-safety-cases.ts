// The rosbridge safety fuzzer's cases: timelines of e-stop and battery messages,
// motion calls and link faults, as plain JSON (see rosbridge-safety.ts).
import fc from 'fast-check';

export type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
export type Obj = Record<string, unknown>;

export type Step =
  | { at: number; do: 'estop'; msg: Json }
  | { at: number; do: 'estopEvery'; msg: Json; everyMs: number; forMs: number }
  | { at: number; do: 'battery'; msg: Json }
  | { at: number; do: 'batteryEvery'; msg: Json; everyMs: number; forMs: number }
  | { at: number; do: 'call' }
  | { at: number; do: 'drop' }
  | { at: number; do: 'outage'; forMs: number }
  | { at: number; do: 'restart' };

export interface SafetyCase {
  ros: 1 | 2;
  /** How the mapping spells its types (ROS 1 "std_msgs/Bool", ROS 2 "std_msgs/msg/Bool"); either works on either. */
  spelling?: 1 | 2;
  /** The mapping's maxAgeS. */
  maxAgeS: number;
  /** Which motion skill the calls use. */
  skill: 'action' | 'topic' | 'service';
  /** A battery is mapped (sensor_msgs/BatteryState: stamped, a float that may be NaN). */
  battery: boolean;
  /** The e-stop topic is latched (a replay on every subscription). */
  latch: boolean;
  /** When the client connects, ms after the robot starts. */
  openAt: number;
  /** How long the robot's action server takes for a goal it is not asked to cancel. */
  goalMs: number;
  steps: Step[];
}

/** Allowance for scheduling between the client and the recording proxy (both directions of a judgement). */
export const SLACK_MS = 250;
/** Allowance for a cancel beyond one control period. */
export const CANCEL_SLACK_MS = 400;
export const CRITICAL = 5;

// ------------------------------------------------------------------ cases

export const nan = (n: 'NaN' | 'Infinity' | '-Infinity'): Json => ({ $n: n });
export const stampJ = (agoS: number | 'zero', shape: 1 | 2): Json => ({ $stamp: agoS === 'zero' ? 'zero' : { agoS, shape } });

export const stampArb: fc.Arbitrary<Json | undefined> = fc.oneof(
  { weight: 4, arbitrary: fc.constant(undefined) },
  { weight: 6, arbitrary: fc.constantFrom(1 as const, 2 as const).map((shape) => stampJ(0, shape)) },
  { weight: 2, arbitrary: fc.constantFrom(1 as const, 2 as const).map((shape) => stampJ('zero', shape)) },
  {
    weight: 2,
    arbitrary: fc.constantFrom(61, 5, 0.1, -30, -0.1).chain((a) => fc.constantFrom(1 as const, 2 as const).map((s) => stampJ(a, s))),
  },
  {
    weight: 1,
    arbitrary: fc.constantFrom<Json>(
      { secs: 1.5, nsecs: 0 },
      { sec: 10, nsecs: 0 },
      { sec: -1, nanosec: 0 },
      { sec: 10, nanosec: 2e9 },
      null,
      'now',
      { sec: nan('NaN'), nanosec: 0 },
    ),
  },
);

export const withHeader = (msg: Obj, stamp: Json | undefined): Json =>
  (stamp === undefined ? msg : { header: { stamp, frame_id: '' }, ...msg }) as Json;

/** An e-stop message: mostly well formed, else missing, renamed, mistyped, null or NaN, with or without a header. */
export const estopMsg: fc.Arbitrary<Json> = fc.oneof(
  { weight: 10, arbitrary: fc.constant<Json>({ data: false }) },
  { weight: 3, arbitrary: fc.constant<Json>({ data: true }) },
  {
    weight: 3,
    arbitrary: fc.constantFrom<Json>(
      {},
      { pressed: false },
      { Data: false },
      { data: 0 },
      { data: 'false' },
      { data: null },
      { data: nan('NaN') },
      { data: [false] },
      { data: { value: false } },
      null,
      'false',
      false,
    ),
  },
  { weight: 2, arbitrary: fc.tuple(fc.boolean(), stampArb).map(([d, st]) => withHeader({ data: d }, st ?? stampJ(0, 1))) },
);

/** A sensor_msgs/BatteryState: a fraction (or NaN, out of range, mistyped), its status, a stamp of any kind. */
export const batteryMsg: fc.Arbitrary<Json> = fc
  .record({
    percentage: fc.oneof(
      { weight: 8, arbitrary: fc.constantFrom<Json>(0.9, 0.5, 0.06) },
      { weight: 3, arbitrary: fc.constantFrom<Json>(0.04, 0, 1.5, -0.1, 55, nan('NaN'), nan('Infinity'), null, '0.9') },
    ),
    status: fc.oneof(
      { weight: 8, arbitrary: fc.constant<Json>(2) },
      { weight: 1, arbitrary: fc.constantFrom<Json>(null, '2', nan('NaN')) },
    ),
    stamp: stampArb,
    drop: fc.oneof(
      { weight: 12, arbitrary: fc.constant(undefined) },
      { weight: 1, arbitrary: fc.constantFrom('percentage', 'power_supply_status') },
    ),
  })
  .map(({ percentage, status, stamp, drop }) => {
    const msg: Obj = { percentage, power_supply_status: status };
    if (drop) delete msg[drop];
    return withHeader(msg, stamp === undefined ? stampJ(0, 1) : stamp);
  });

export const at = fc.integer({ min: 0, max: 2600 });

export const stepArb = (battery: boolean): fc.Arbitrary<Step> =>
  fc.oneof(
    { weight: 3, arbitrary: fc.record({ at, do: fc.constant('estop' as const), msg: estopMsg }) },
    {
      weight: 3,
      arbitrary: fc.record({
        at,
        do: fc.constant('estopEvery' as const),
        msg: estopMsg,
        everyMs: fc.constantFrom(50, 100, 150),
        forMs: fc.integer({ min: 200, max: 2500 }),
      }),
    },
    ...(battery
      ? [
          { weight: 2, arbitrary: fc.record({ at, do: fc.constant('battery' as const), msg: batteryMsg }) },
          {
            weight: 2,
            arbitrary: fc.record({
              at,
              do: fc.constant('batteryEvery' as const),
              msg: batteryMsg,
              everyMs: fc.constantFrom(50, 100),
              forMs: fc.integer({ min: 200, max: 2500 }),
            }),
          },
        ]
      : []),
    { weight: 3, arbitrary: fc.record({ at, do: fc.constant('call' as const) }) },
    { weight: 1, arbitrary: fc.record({ at, do: fc.constant('drop' as const) }) },
    { weight: 1, arbitrary: fc.record({ at, do: fc.constant('outage' as const), forMs: fc.integer({ min: 100, max: 800 }) }) },
    { weight: 1, arbitrary: fc.record({ at, do: fc.constant('restart' as const) }) },
  );

/**
 * A case: a live, released e-stop (and a full battery) for most of the run, so
 * that calls often find green, overlaid with what the generator picks.
 */
export function caseArb(o: { ros?: 1 | 2; skills?: SafetyCase['skill'][] } = {}): fc.Arbitrary<SafetyCase> {
  return fc
    .record({
      ros: o.ros ? fc.constant(o.ros) : fc.constantFrom(1 as const, 2 as const),
      spelling: fc.constantFrom(1 as const, 2 as const),
      maxAgeS: fc.constantFrom(0.4, 0.6, 0.8),
      skill: fc.constantFrom(...(o.skills ?? (['action', 'action', 'topic', 'service'] as const))),
      battery: fc.boolean(),
      latch: fc.boolean(),
      openAt: fc.integer({ min: 0, max: 600 }),
      goalMs: fc.integer({ min: 300, max: 2500 }),
      base: fc.integer({ min: 1200, max: 3000 }),
      baseEstop: fc.oneof({ weight: 7, arbitrary: fc.constant<Json>({ data: false }) }, { weight: 3, arbitrary: estopMsg }),
      baseBattery: fc.option(batteryMsg, { freq: 3, nil: undefined }),
    })
    .chain((c) =>
      fc.array(stepArb(c.battery), { minLength: 1, maxLength: 7 }).map((extra): SafetyCase => {
        const steps: Step[] = [
          { at: 0, do: 'estopEvery', msg: c.baseEstop, everyMs: 100, forMs: c.base },
          ...(c.battery
            ? [
                {
                  at: 0,
                  do: 'batteryEvery',
                  msg: c.baseBattery ?? { header: { stamp: stampJ(0, c.ros), frame_id: '' }, percentage: 0.9, power_supply_status: 2 },
                  everyMs: 100,
                  forMs: c.base,
                } as Step,
              ]
            : []),
          ...extra,
        ];
        if (!steps.some((s) => s.do === 'call')) steps.push({ at: c.openAt + 900, do: 'call' });
        steps.sort((a, b) => a.at - b.at);
        return {
          ros: c.ros,
          spelling: c.spelling,
          maxAgeS: c.maxAgeS,
          skill: c.skill,
          battery: c.battery,
          latch: c.latch,
          openAt: c.openAt,
          goalMs: c.goalMs,
          steps,
        };
      }),
    );
}

/** The case's values as sent: {"$n"} as numbers, {"$stamp"} as a ROS time now. */
export function materialise(v: Json, ros: 1 | 2, now = Date.now()): unknown {
  if (Array.isArray(v)) return v.map((x) => materialise(x, ros, now));
  if (v && typeof v === 'object') {
    if ('$n' in v && Object.keys(v).length === 1) return Number(v['$n']);
    if ('$stamp' in v && Object.keys(v).length === 1) {
      const s = v['$stamp'];
      const shape = s === 'zero' ? ros : ((s as { shape: 1 | 2 }).shape ?? ros);
      const ms = s === 'zero' ? 0 : now - (s as { agoS: number }).agoS * 1000;
      const sec = Math.floor(ms / 1000);
      const ns = Math.round((ms - sec * 1000) * 1e6);
      return shape === 1 ? { secs: sec, nsecs: ns } : { sec, nanosec: ns };
    }
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, materialise(x, ros, now)]));
  }
  return v;
}

/** JSON text as Python writes it: NaN and ±Infinity as bare tokens (rosbridge reads them; JSON.stringify cannot). */
export function pythonJson(v: unknown): string {
  const marks: string[] = [];
  const text = JSON.stringify(v, (_k, x: unknown) => {
    if (typeof x === 'number' && !Number.isFinite(x)) {
      marks.push(Number.isNaN(x) ? 'NaN' : x > 0 ? 'Infinity' : '-Infinity');
      return `\u0000${marks.length - 1}\u0000`;
    }
    return x;
  });
  return text.replace(/"\u0000(\d+)\u0000"/g, (_m, i: string) => marks[Number(i)]!);
}
