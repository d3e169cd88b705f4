// The rosbridge safety fuzzer (test/fuzz/rosbridge-safety.ts), in two parts:
// - the readings, in virtual time: thousands of generated message sequences
//   (missing, renamed, mistyped fields, null/NaN/Inf, stamps of every kind,
//   latched replays, reconnects) fed to the source's own readers; the client
//   may say green only when the oracle does, and must when the oracle is sure;
// - whole cases over the protocol stand-in, ROS 1 and ROS 2: a robot plays a
//   generated timeline through rosbridge while the source connects, calls
//   motion skills, loses its link; the oracle reads what crossed the wire.
// A fixed seed and a small budget here; npm run fuzz (FUZZ_SCALE) sets a larger one.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readBattery, readEstop } from '../../robot/rosbridge/readings';
import { motionRefusal } from '../../robot/rosbridge/safety-state';
import { TopicReader } from '../../robot/rosbridge/topic-reader';
import { type RosbridgeTestServer, startRosbridgeServer } from '../support/rosbridge-server';
import {
  type Json,
  type Observed,
  type SafetyCase,
  type Seen,
  batteryMsg,
  caseArb,
  estopMsg,
  materialise,
  notGreen,
  runCase,
} from './rosbridge-safety';
import { fuzzRuns, fuzzSeed } from './support/budget';

const SEED = fuzzSeed(20260521);

/** What crosses rosbridge's JSON: NaN and ±Inf become null. */
const wire = (v: unknown): unknown =>
  JSON.parse(JSON.stringify(v, (_k, x: unknown) => (typeof x === 'number' && !Number.isFinite(x) ? null : x))) as unknown;

type VEvent =
  | { dt: number; kind: 'stream'; of: 'estop' | 'battery'; msg: Json; every: number; n: number }
  | { dt: number; kind: 'estop'; msg: Json }
  | { dt: number; kind: 'battery'; msg: Json }
  | { dt: number; kind: 'drop'; gap: number }
  | { dt: number; kind: 'query' };

const vEvent: fc.Arbitrary<VEvent> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({
      dt: fc.integer({ min: 0, max: 400 }),
      kind: fc.constant('stream' as const),
      of: fc.constantFrom('estop' as const, 'battery' as const),
      msg: fc.constant<Json>(null),
      every: fc.constantFrom(50, 100, 200),
      n: fc.integer({ min: 2, max: 15 }),
    }),
  },
  { weight: 5, arbitrary: fc.record({ dt: fc.integer({ min: 0, max: 400 }), kind: fc.constant('estop' as const), msg: estopMsg }) },
  { weight: 3, arbitrary: fc.record({ dt: fc.integer({ min: 0, max: 400 }), kind: fc.constant('battery' as const), msg: batteryMsg }) },
  {
    weight: 1,
    arbitrary: fc.record({
      dt: fc.integer({ min: 0, max: 300 }),
      kind: fc.constant('drop' as const),
      gap: fc.integer({ min: 0, max: 500 }),
    }),
  },
  { weight: 4, arbitrary: fc.record({ dt: fc.integer({ min: 0, max: 700 }), kind: fc.constant('query' as const) }) },
);

const GOOD_BATTERY: Json = { header: { stamp: { $stamp: { agoS: 0, shape: 2 } }, frame_id: '' }, percentage: 0.9, power_supply_status: 2 };

describe('the rosbridge readings against the oracle, in virtual time', () => {
  it('green only when the last e-stop and battery were known, fresh and released; green whenever they surely were', () => {
    let greens = 0;
    let queries = 0;
    fc.assert(
      fc.property(
        fc.constantFrom(1 as const, 2 as const),
        fc.constantFrom(0.4, 0.6, 2),
        fc.boolean(),
        fc.array(vEvent, { minLength: 1, maxLength: 40 }),
        (ros, maxAgeS, battery, given) => {
          // Events at their times; a stream's messages run beside what follows, every `every` ms.
          const timed: Array<{ at: number; e: VEvent }> = [];
          let cursor = 0;
          for (const e of given) {
            cursor += e.dt;
            if (e.kind !== 'stream') timed.push({ at: cursor, e });
            else
              for (let i = 0; i < e.n; i++)
                timed.push({ at: cursor + i * e.every, e: { dt: 0, kind: e.of, msg: e.of === 'estop' ? { data: false } : GOOD_BATTERY } });
          }
          timed.sort((a, b) => a.at - b.at);
          const events = timed.map((x, i) => ({ ...x.e, dt: x.at - (timed[i - 1]?.at ?? 0) }));
          const WALL0 = 1_760_000_000_000;
          const estop = new TopicReader('/estop', 'the e-stop', maxAgeS, (m, at) => readEstop(m, 'data', at));
          const bat = battery ? new TopicReader('/battery', 'the battery', maxAgeS, readBattery) : undefined;
          const o: Observed = {
            estop: [],
            ...(battery ? { battery: [] as Seen[] } : {}),
            conns: [{ id: 1, open: 0 }],
            maxAgeS,
            critical: 5,
          };
          let t = 0;
          let conn = 1;
          let upAt = 0;
          for (const e of events) {
            t += e.dt;
            const wall = WALL0 + t;
            const up = t >= upAt;
            if (up && o.conns.at(-1)!.id !== conn) o.conns.push({ id: conn, open: upAt });
            const clock = { epoch: conn, link: up ? ('up' as const) : ('reconnecting' as const), now: t, wall };
            if (e.kind === 'drop') {
              if (!up) continue;
              o.conns.at(-1)!.close = t;
              conn++;
              upAt = t + e.gap + 1;
            } else if (e.kind === 'estop' || e.kind === 'battery') {
              if (!up || (e.kind === 'battery' && !bat)) continue;
              const msg = wire(materialise(e.msg, ros, wall));
              (e.kind === 'estop' ? o.estop : o.battery!).push({ t, wall, conn, msg });
              if (e.kind === 'estop') estop.receive(msg, clock);
              else bat?.receive(msg, clock);
            } else {
              queries++;
              const refusal = motionRefusal({ estop: estop.current(clock), battery: bat?.current(clock), maxAgeS, link: clock.link }, 5);
              const lenient = notGreen(o, t, wall, up ? conn : -1, 1);
              const strict = notGreen(o, t, wall, up ? conn : -1, -1);
              if (!refusal) greens++;
              if (!refusal && lenient) throw new Error(`the client said green where the oracle says: ${lenient}`);
              if (refusal && !strict) throw new Error(`the client refused (${refusal.reason}) where the oracle is sure of green`);
            }
          }
        },
      ),
      { seed: SEED, numRuns: fuzzRuns(3000) },
    );
    console.log(`rosbridge readings: ${queries} decisions checked, ${greens} green`);
    expect(greens).toBeGreaterThan(0);
  });
});

describe('the rosbridge safety fuzzer over the protocol stand-in', () => {
  const servers: Partial<Record<1 | 2, RosbridgeTestServer>> = {};
  beforeAll(async () => {
    servers[1] = await startRosbridgeServer({ ros: 1 });
    servers[2] = await startRosbridgeServer({ ros: 2 });
  });
  afterAll(async () => {
    await servers[1]?.close();
    await servers[2]?.close();
  });

  it(
    'no motion unless the last safety reading was known, fresh and released; a goal in flight is cancelled within one control period',
    async () => {
      const totals = { cases: 0, motions: 0, refused: 0, cancels: 0, latencies: [] as number[], notConnected: new Set<string>() };
      const t0 = performance.now();
      await fc.assert(
        // Two cases at a time: they mostly wait.
        fc.asyncProperty(fc.array(caseArb(), { minLength: 2, maxLength: 2 }), async (cases: SafetyCase[]) => {
          const reports = await Promise.all(
            cases.map((c) => runCase(c, { url: servers[c.ros]!.url, ros: c.ros, standIn: servers[c.ros]! })),
          );
          for (const [i, r] of reports.entries()) {
            totals.cases++;
            totals.motions += r.figures.motions;
            totals.refused += r.figures.refused;
            totals.cancels += r.figures.cancels;
            totals.latencies.push(...r.figures.latencies);
            if (r.figures.openFailed) totals.notConnected.add(r.figures.openFailed.replace(/\d+/g, 'N'));
            if (r.violations.length) throw new Error(`${r.violations.join('\n')}\ncase: ${JSON.stringify(cases[i])}`);
          }
        }),
        { seed: SEED, numRuns: fuzzRuns(6), endOnFailure: true },
      );
      const max = totals.latencies.length ? Math.max(...totals.latencies) : 0;
      console.log(
        `rosbridge safety fuzzer: ${totals.cases} cases in ${Math.round((performance.now() - t0) / 100) / 10} s; ${totals.motions} motion commands sent, ${totals.refused} calls refused, ${totals.cancels} goals cancelled (longest after the state turned: ${max} ms); did not connect: ${[...totals.notConnected].join('; ') || 'none'}`,
      );
      expect(totals.cases).toBeGreaterThan(0);
    },
    60_000 + fuzzRuns(6) * 16_000,
  );
});
