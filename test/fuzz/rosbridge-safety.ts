// The rosbridge safety fuzzer's cases, runner and oracle, shared by the fuzz
// tests (test/fuzz/rosbridge-safety*.test.ts) and scripts/real-rosbridge.sh.
//
// A case is a timeline a robot plays through rosbridge: e-stop and battery
// messages (one at a time or as live streams, latched or not; missing,
// renamed and mistyped fields, null/NaN/Inf, old, zero, future and malformed
// stamps), motion calls (an action, a topic, a service), dropped links,
// outages and rosbridge restarts. The client (the rosbridge robot source)
// connects through a recording WebSocket proxy, which sees exactly what it
// received and sent, and when. The oracle, written apart from the client,
// judges from that record alone:
//   1. no motion command (action goal, motion topic, motion service call)
//      leaves unless the last e-stop (and battery) reading was known, fresh
//      and released;
//   2. a goal in flight is cancelled within one control period of any other
//      reading (plus a scheduling allowance); when the link drops, its cancel
//      is the first thing sent on the next connection;
//   3. a goal the client cancelled ends with a result that says why.
// Cases are plain JSON (numbers JSON cannot carry as {"$n": "NaN"}, stamps
// made at send time as {"$stamp": {"agoS": 61, "shape": 1}}), so they can be
// written to a file and replayed against a real rosbridge.
import fc from 'fast-check';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import WebSocket, { WebSocketServer } from 'ws';
import type { Outcome } from '../../robot/robot';
import { spell } from '../../robot/rosbridge/graph';
import { CONTROL_PERIOD_MS } from '../../robot/rosbridge/ros-robot';
import { type OpenedRosRobot, RosbridgeForm, rosbridgeSource } from '../../robot/rosbridge/source';
import { REPLAY_WINDOW_MS } from '../../robot/rosbridge/topic-reader';
import type { RosbridgeTestServer } from '../support/rosbridge-server';

export type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
type Obj = Record<string, unknown>;

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
const CRITICAL = 5;

// ------------------------------------------------------------------ cases

const nan = (n: 'NaN' | 'Infinity' | '-Infinity'): Json => ({ $n: n });
const stampJ = (agoS: number | 'zero', shape: 1 | 2): Json => ({ $stamp: agoS === 'zero' ? 'zero' : { agoS, shape } });

const stampArb: fc.Arbitrary<Json | undefined> = fc.oneof(
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

const withHeader = (msg: Obj, stamp: Json | undefined): Json =>
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

const at = fc.integer({ min: 0, max: 2600 });

const stepArb = (battery: boolean): fc.Arbitrary<Step> =>
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

// ------------------------------------------------------------------ the oracle

export interface Seen {
  /** performance.now() at the proxy */
  t: number;
  /** Date.now() at the proxy */
  wall: number;
  conn: number;
  msg: unknown;
}

/** What the client received and when, and its connections: all the oracle reads. */
export interface Observed {
  estop: Seen[];
  battery?: Seen[];
  conns: Array<{ id: number; open: number; close?: number }>;
  maxAgeS: number;
  critical: number;
}

const own = (o: unknown, k: string): o is Obj => o !== null && typeof o === 'object' && !Array.isArray(o) && Object.hasOwn(o, k);

/** A header stamp in ms of wall time, 0 for none or zero, or 'bad'. Written apart from the client's. */
function stampMs(msg: unknown): number | 'bad' {
  if (!own(msg, 'header')) return 0;
  const h = msg['header'];
  if (!own(h, 'stamp')) return 'bad';
  const s = h['stamp'];
  if (s === null || typeof s !== 'object' || Array.isArray(s)) return 'bad';
  const keys = Object.keys(s).sort().join(' ');
  const r = s as Obj;
  const [a, b] =
    keys === 'nsecs secs' ? [r['secs'], r['nsecs']] : keys === 'nanosec sec' ? [r['sec'], r['nanosec']] : [undefined, undefined];
  if (!Number.isInteger(a) || !Number.isInteger(b) || (a as number) < 0 || (b as number) < 0 || (b as number) >= 1e9) return 'bad';
  return (a as number) * 1000 + (b as number) / 1e6;
}

/**
 * Why the reading `list` gives at time `t` (wall `wall`) on connection `conn`
 * is not known, fresh and acceptable (`ok` judges the value), or undefined
 * when it is. `slack` widens every time bound: positive is lenient.
 */
function readingProblem(
  list: Seen[],
  t: number,
  wall: number,
  conn: number,
  maxAgeS: number,
  slack: number,
  ok: (m: unknown) => string | undefined,
): string | undefined {
  const mine = list.filter((d) => d.conn === conn && d.t <= t);
  const last = mine.at(-1);
  if (!last) return 'nothing received on this connection';
  const bad = ok(last.msg);
  if (bad) return bad;
  const max = maxAgeS * 1000 + slack;
  const st = stampMs(last.msg);
  if (st === 'bad') return 'a malformed stamp';
  if (st && st - last.wall > max) return 'stamped in the future';
  const young = st > 0 && last.wall - st <= max;
  if (!young && last.t - mine[0]!.t < REPLAY_WINDOW_MS - slack) return 'only a possible replay so far';
  if (t - last.t > max) return `received ${Math.round(t - last.t)} ms ago`;
  if (st && wall - st > max) return `stamped ${Math.round(wall - st)} ms ago`;
  return undefined;
}

const released = (m: unknown) => (own(m, 'data') && m['data'] === false ? undefined : `e-stop not released: ${JSON.stringify(m)}`);
const charged = (critical: number) => (m: unknown) => {
  const p = own(m, 'percentage') ? m['percentage'] : undefined;
  const s = own(m, 'power_supply_status') ? m['power_supply_status'] : undefined;
  if (typeof p !== 'number' || !Number.isFinite(p) || p < 0 || p > 1) return `battery unreadable: ${JSON.stringify(m)}`;
  if (typeof s !== 'number' || !Number.isFinite(s)) return 'battery status unreadable';
  return p * 100 > critical ? undefined : `battery critical (${p})`;
};

/** Why motion may not go at `t` on `conn`, or undefined when the last readings were known, fresh and released. */
export function notGreen(o: Observed, t: number, wall: number, conn: number, slack: number): string | undefined {
  const c = o.conns.find((x) => x.id === conn);
  if (!c || c.open > t || (c.close !== undefined && c.close <= t)) return 'the link is down';
  const e = readingProblem(o.estop, t, wall, conn, o.maxAgeS, slack, released);
  if (e) return `e-stop: ${e}`;
  if (o.battery) {
    const b = readingProblem(o.battery, t, wall, conn, o.maxAgeS, slack, charged(o.critical));
    if (b) return `battery: ${b}`;
  }
  return undefined;
}

/** The moments after `from` on `conn` at which the state may turn: deliveries, ages running out (plus `slack`), the link closing. */
function turningPoints(o: Observed, from: number, conn: number, slack: number): number[] {
  const max = o.maxAgeS * 1000 + slack;
  const pts: number[] = [];
  for (const d of [...o.estop, ...(o.battery ?? [])]) {
    if (d.conn !== conn) continue;
    if (d.t > from) pts.push(d.t);
    pts.push(d.t + max + 1);
    const st = stampMs(d.msg);
    if (typeof st === 'number' && st > 0) pts.push(d.t + (st - d.wall) + max + 1);
  }
  const c = o.conns.find((x) => x.id === conn);
  if (c?.close !== undefined) pts.push(c.close);
  return pts.filter((p) => p > from).sort((a, b) => a - b);
}

// ------------------------------------------------------------------ the proxy

interface Wire {
  t: number;
  wall: number;
  conn: number;
  dir: 'up' | 'down';
  msg: Obj;
}

/** A WebSocket proxy to rosbridge that records every message both ways, and can drop or refuse the link. */
class RecordingProxy {
  readonly wire: Wire[] = [];
  readonly conns: Array<{ id: number; open: number; close?: number }> = [];
  private refusing = false;
  private readonly pairs = new Set<{ down: WebSocket; up: WebSocket }>();

  private constructor(
    private readonly wss: WebSocketServer,
    readonly upstream: string,
  ) {
    let n = 0;
    wss.on('connection', (down) => {
      if (this.refusing) return void down.terminate();
      const id = ++n;
      const rec = { id, open: performance.now() } as { id: number; open: number; close?: number };
      this.conns.push(rec);
      const up = new WebSocket(upstream);
      const pair = { down, up };
      this.pairs.add(pair);
      const queue: string[] = [];
      const close = () => {
        if (rec.close === undefined) rec.close = performance.now();
        this.pairs.delete(pair);
        down.terminate();
        up.terminate();
      };
      const log = (dir: 'up' | 'down', raw: string) => {
        try {
          this.wire.push({ t: performance.now(), wall: Date.now(), conn: id, dir, msg: JSON.parse(raw) as Obj });
        } catch {
          this.wire.push({ t: performance.now(), wall: Date.now(), conn: id, dir, msg: { unparsed: raw } });
        }
      };
      down.on('message', (raw) => {
        const text = String(raw);
        if (rec.close !== undefined) return;
        log('up', text);
        if (up.readyState === WebSocket.OPEN) up.send(text);
        else queue.push(text);
      });
      up.on('open', () => {
        for (const q of queue.splice(0)) up.send(q);
      });
      up.on('message', (raw) => {
        const text = String(raw);
        if (rec.close !== undefined) return;
        log('down', text);
        down.send(text);
      });
      for (const s of [down, up]) {
        s.on('close', close);
        s.on('error', close);
      }
    });
  }

  static async start(upstream: string): Promise<RecordingProxy> {
    const wss = new WebSocketServer({ host: '127.0.0.1', port: 0 });
    await new Promise<void>((r) => wss.once('listening', () => r()));
    return new RecordingProxy(wss, upstream);
  }

  get url(): string {
    const a = this.wss.address() as { port: number };
    return `ws://127.0.0.1:${a.port}`;
  }

  drop(): void {
    for (const p of [...this.pairs]) {
      p.down.terminate();
      p.up.terminate();
    }
  }

  refuse(on: boolean): void {
    this.refusing = on;
  }

  async close(): Promise<void> {
    this.drop();
    await new Promise<void>((r) => this.wss.close(() => r()));
  }
}

// ------------------------------------------------------------------ the robot side

/**
 * The robot: a rosbridge client that publishes its e-stop and battery, and
 * serves a ROS 1 actionlib action. When rosbridge restarts it connects again
 * and advertises and subscribes anew, as a robot's nodes do.
 */
class RobotSide {
  private readonly timers: Array<ReturnType<typeof setInterval>> = [];
  private readonly handlers = new Map<string, (m: Obj) => void>();
  /** Advertisements and subscriptions, made again on each connection. */
  private readonly setup: unknown[] = [];
  private closing = false;

  private constructor(
    private ws: WebSocket,
    readonly url: string,
    readonly ros: 1 | 2,
  ) {
    this.attach();
  }

  private attach(): void {
    this.ws.on('message', (raw) => {
      const m = JSON.parse(String(raw)) as Obj;
      if (m['op'] === 'publish') this.handlers.get(String(m['topic']))?.((m['msg'] as Obj) ?? {});
    });
    this.ws.on('error', () => undefined);
    this.ws.on('close', () => {
      if (this.closing) return;
      const again = setTimeout(() => {
        this.ws = new WebSocket(this.url);
        this.ws.on('open', () => {
          for (const m of this.setup) this.ws.send(pythonJson(m));
        });
        this.attach();
      }, 100);
      this.timers.push(again);
    });
  }

  static async connect(url: string, ros: 1 | 2): Promise<RobotSide> {
    const ws = new WebSocket(url);
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('error', reject);
    });
    return new RobotSide(ws, url, ros);
  }

  send(m: unknown): void {
    if (this.ws.readyState === WebSocket.OPEN) this.ws.send(pythonJson(m));
  }

  private keep(m: unknown): void {
    this.setup.push(m);
    this.send(m);
  }

  advertise(topic: string, type: string, latch: boolean): void {
    this.keep({ op: 'advertise', id: `adv:${topic}`, topic, type: spell(type, this.ros, 'msg'), latch, queue_size: 10 });
  }

  publish(topic: string, msg: Json): void {
    this.send({ op: 'publish', topic, msg: materialise(msg, this.ros) });
  }

  every(topic: string, msg: Json, ms: number, forMs: number): void {
    this.publish(topic, msg);
    const t = setInterval(() => this.publish(topic, msg), ms);
    this.timers.push(t);
    this.timers.push(setTimeout(() => clearInterval(t), forMs));
  }

  /** A ROS 1 actionlib server: a goal runs `goalMs`, or ends PREEMPTED when cancelled. */
  actionlib(action: string, type: string, goalMs: number): void {
    const base = spell(type, 1, 'action').replace(/Action$/, '');
    const header = { seq: 0, stamp: { secs: 0, nsecs: 0 }, frame_id: '' };
    const active = new Map<string, ReturnType<typeof setTimeout>>();
    this.advertise(`${action}/status`, 'actionlib_msgs/GoalStatusArray', false);
    this.advertise(`${action}/feedback`, `${base}ActionFeedback`, false);
    this.advertise(`${action}/result`, `${base}ActionResult`, false);
    const status = (id: string, s: number) => ({ goal_id: { id, stamp: { secs: 0, nsecs: 0 } }, status: s, text: '' });
    const end = (id: string, s: number) => {
      clearTimeout(active.get(id));
      active.delete(id);
      this.send({ op: 'publish', topic: `${action}/result`, msg: { header, status: status(id, s), result: {} } });
    };
    this.timers.push(
      setInterval(
        () =>
          this.send({
            op: 'publish',
            topic: `${action}/status`,
            msg: { header, status_list: [...active.keys()].map((id) => status(id, 1)) },
          }),
        200,
      ),
    );
    this.handlers.set(`${action}/goal`, (m) => {
      const id = String((m['goal_id'] as Obj | undefined)?.['id'] ?? '');
      active.set(
        id,
        setTimeout(() => end(id, 3), goalMs),
      );
    });
    this.handlers.set(`${action}/cancel`, (m) => {
      const id = String(m['id'] ?? '');
      for (const g of [...active.keys()]) if (id === '' || id === g) end(g, 2);
    });
    this.keep({ op: 'subscribe', id: `sub:${action}/goal`, topic: `${action}/goal`, type: `${base}ActionGoal` });
    this.keep({ op: 'subscribe', id: `sub:${action}/cancel`, topic: `${action}/cancel`, type: 'actionlib_msgs/GoalID' });
  }

  close(): void {
    this.closing = true;
    for (const t of this.timers) clearTimeout(t);
    this.ws.terminate();
  }
}

// ------------------------------------------------------------------ the runner

export interface Target {
  url: string;
  ros: 1 | 2;
  /** The protocol stand-in, when the target is one: its ROS 2 actions and services are served through it. */
  standIn?: RosbridgeTestServer;
}

export interface CaseReport {
  violations: string[];
  /** Motion commands that left, calls refused before sending, goals cancelled by the client, and how long after the state turned each cancel came (ms). */
  figures: { motions: number; refused: number; cancels: number; latencies: number[]; openFailed?: string };
  outcomes: Outcome[];
}

const dir = mkdtempSync(path.join(tmpdir(), 'sb-fuzz-rosbridge-'));
let seq = 0;

function mappingFor(c: SafetyCase, ns: string): string {
  const file = path.join(dir, `${ns.slice(1)}.json`);
  const sp = c.spelling ?? c.ros;
  const navigate =
    c.ros === 1
      ? {
          action: `${ns}/move_base`,
          type: spell('move_base_msgs/MoveBaseAction', sp, 'action'),
          goal: { target_pose: '$pose' },
          timeoutS: 30,
        }
      : { action: `${ns}/navigate`, type: 'nav2_msgs/action/NavigateToPose', goal: { pose: '$pose' }, timeoutS: 30 };
  writeFileSync(
    file,
    JSON.stringify({
      format: 'skillbridge-rosbridge/1',
      ros: c.ros,
      robot: { id: 'fuzz', name: 'Fuzzed robot', kind: 'mobile_manipulator' },
      places: [{ id: 'dock', x: 1, y: 0 }],
      estop: { topic: `${ns}/estop`, type: spell('std_msgs/Bool', sp, 'msg'), path: 'data' },
      ...(c.battery ? { battery: { topic: `${ns}/battery`, type: spell('sensor_msgs/BatteryState', sp, 'msg'), critical: CRITICAL } } : {}),
      maxAgeS: c.maxAgeS,
      skills: {
        'base.navigate': navigate,
        'base.approach': { topic: `${ns}/goal_pose`, type: spell('geometry_msgs/PoseStamped', sp, 'msg'), msg: '$pose' },
        'arm.perceive': { service: `${ns}/look`, type: spell('std_srvs/Trigger', sp, 'srv') },
      },
    }),
  );
  return file;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Plays one case against a rosbridge server and judges it. */
export async function runCase(c: SafetyCase, target: Target): Promise<CaseReport> {
  const ns = `/fz${process.pid}_${++seq}`;
  const file = mappingFor(c, ns);
  const proxy = await RecordingProxy.start(target.url);
  const robot = await RobotSide.connect(target.url, c.ros);
  const timers: Array<ReturnType<typeof setTimeout>> = [];
  const calls: Array<Promise<Outcome>> = [];
  let opened: OpenedRosRobot | undefined;
  let openFailed: string | undefined;
  const estop = `${ns}/estop`;
  const battery = `${ns}/battery`;
  try {
    robot.advertise(estop, 'std_msgs/Bool', c.latch);
    if (c.battery) robot.advertise(battery, 'sensor_msgs/BatteryState', false);
    if (c.ros === 1) robot.actionlib(`${ns}/move_base`, 'move_base_msgs/MoveBaseAction', c.goalMs);
    else
      target.standIn?.actions.set(
        `${ns}/navigate`,
        (g) =>
          new Promise((resolve) => {
            const t = setTimeout(() => resolve({ status: 4, values: {} }), c.goalMs);
            g.signal.addEventListener('abort', () => (clearTimeout(t), resolve({ status: 5, values: {} })));
          }),
      );
    target.standIn?.services.set(`${ns}/look`, () => ({ success: true, message: 'looked' }));
    const t0 = performance.now();
    const when = (ms: number, f: () => void) => timers.push(setTimeout(f, Math.max(0, ms - (performance.now() - t0))));
    const opening = (async () => {
      await sleep(c.openAt);
      try {
        opened = (await rosbridgeSource.open(
          RosbridgeForm.parse({ kind: 'rosbridge', url: proxy.url, mapping: file, firstMessagesMs: 1500, connectTimeoutMs: 4000 }),
        )) as OpenedRosRobot;
      } catch (e) {
        openFailed = (e as Error).message.split('\n').slice(0, 2).join(' ');
      }
    })();
    for (const s of c.steps) {
      switch (s.do) {
        case 'estop':
          when(s.at, () => robot.publish(estop, s.msg));
          break;
        case 'estopEvery':
          when(s.at, () => robot.every(estop, s.msg, s.everyMs, s.forMs));
          break;
        case 'battery':
          if (c.battery) when(s.at, () => robot.publish(battery, s.msg));
          break;
        case 'batteryEvery':
          if (c.battery) when(s.at, () => robot.every(battery, s.msg, s.everyMs, s.forMs));
          break;
        case 'drop':
          when(s.at, () => proxy.drop());
          break;
        case 'outage':
          when(s.at, () => {
            proxy.refuse(true);
            proxy.drop();
            timers.push(setTimeout(() => proxy.refuse(false), s.forMs));
          });
          break;
        case 'restart':
          when(s.at, () => (target.standIn ? target.standIn.restart() : proxy.drop()));
          break;
        case 'call':
          when(s.at, () =>
            calls.push(
              opening.then(async (): Promise<Outcome> => {
                const r = opened?.robot;
                if (!r) return { ok: false, code: 'skill_failure', summary: 'not opened' };
                if (c.skill === 'action') return r.base!.navigate('dock');
                if (c.skill === 'topic') return r.base!.approach('dock');
                return r.arm!.perceive();
              }),
            ),
          );
          break;
      }
    }
    const last = Math.max(...c.steps.map((s) => s.at + ('forMs' in s ? s.forMs : 0)), c.openAt);
    await sleep(last + 300);
    await opening;
    // Every call ends: a result, a cancel confirmed, a drop, or the 5 s grace.
    const outcomes = await Promise.all(calls);
    if (process.env['FUZZ_DEBUG'])
      for (const x of proxy.wire)
        if (x.dir === 'up' || !String(x.msg['topic'] ?? '').match(/estop|battery|status/))
          console.log(Math.round(x.t - t0), x.conn, x.dir, JSON.stringify(x.msg).slice(0, 150));
    if (process.env['FUZZ_DEBUG'])
      console.log(JSON.stringify(proxy.conns.map((k) => ({ ...k, open: k.open - t0, close: (k.close ?? 0) - t0 }))), outcomes);
    return judge(c, ns, proxy, outcomes, openFailed);
  } finally {
    for (const t of timers) clearTimeout(t);
    await opened?.close();
    robot.close();
    await proxy.close();
    target.standIn?.actions.delete(`${ns}/navigate`);
    target.standIn?.services.delete(`${ns}/look`);
  }
}

function judge(c: SafetyCase, ns: string, proxy: RecordingProxy, outcomes: Outcome[], openFailed: string | undefined): CaseReport {
  const violations: string[] = [];
  const w = proxy.wire;
  const deliveries = (topic: string): Seen[] =>
    w
      .filter((x) => x.dir === 'down' && x.msg['op'] === 'publish' && x.msg['topic'] === topic)
      .map((x) => ({ t: x.t, wall: x.wall, conn: x.conn, msg: x.msg['msg'] }));
  const o: Observed = {
    estop: deliveries(`${ns}/estop`),
    ...(c.battery ? { battery: deliveries(`${ns}/battery`) } : {}),
    conns: proxy.conns,
    maxAgeS: c.maxAgeS,
    critical: CRITICAL,
  };
  const action = c.ros === 1 ? `${ns}/move_base` : `${ns}/navigate`;
  const isMotion = (m: Obj) =>
    (m['op'] === 'send_action_goal' && m['action'] === action) ||
    (m['op'] === 'publish' && (m['topic'] === `${action}/goal` || m['topic'] === `${ns}/goal_pose`)) ||
    (m['op'] === 'call_service' && m['service'] === `${ns}/look`);
  const goalId = (m: Obj): string | undefined =>
    m['op'] === 'send_action_goal'
      ? String(m['id'])
      : m['topic'] === `${action}/goal`
        ? String(((m['msg'] as Obj)['goal_id'] as Obj)['id'])
        : undefined;
  const isCancel = (m: Obj, id: string) =>
    (m['op'] === 'cancel_action_goal' && m['id'] === id) ||
    (m['op'] === 'publish' && m['topic'] === `${action}/cancel` && (m['msg'] as Obj)['id'] === id);
  const isEnd = (m: Obj, id: string) =>
    (m['op'] === 'action_result' && m['id'] === id) ||
    (m['op'] === 'publish' &&
      m['topic'] === `${action}/result` &&
      ((m['msg'] as Obj)['status'] as Obj)['goal_id'] !== undefined &&
      (((m['msg'] as Obj)['status'] as Obj)['goal_id'] as Obj)['id'] === id);

  const motions = w.filter((x) => x.dir === 'up' && isMotion(x.msg));
  // 1. Motion only on green.
  for (const m of motions) {
    const why = notGreen(o, m.t, m.wall, m.conn, SLACK_MS);
    if (why) violations.push(`a motion command left while ${why}: ${JSON.stringify(m.msg).slice(0, 160)}`);
  }
  // 2. A goal in flight is cancelled within one control period of any other reading.
  const latencies: number[] = [];
  let cancels = 0;
  for (const g of motions) {
    const id = goalId(g.msg);
    if (id === undefined) continue;
    const end = w.find((x) => x.dir === 'down' && x.conn === g.conn && x.t > g.t && isEnd(x.msg, id));
    const conn = proxy.conns.find((x) => x.id === g.conn)!;
    const until = Math.min(end?.t ?? Infinity, conn.close ?? Infinity);
    const turnedAt = (slack: number) =>
      turningPoints(o, g.t, g.conn, slack).find((p) => p <= until && notGreen(o, p, g.wall + (p - g.t), g.conn, slack) !== undefined);
    // Judged leniently (a cancel is owed only once the state surely turned); the figure is from when it first did.
    const turned = turnedAt(SLACK_MS);
    const exactly = turnedAt(0) ?? turned;
    const cancel = w.find((x) => x.dir === 'up' && x.t > g.t && isCancel(x.msg, id));
    if (cancel) cancels++;
    if (turned === undefined) continue;
    if (conn.close !== undefined && turned >= conn.close && (end === undefined || end.t > conn.close)) {
      // The link went: its cancel must come first on the next connection (with the other goals' cancels).
      const next = proxy.conns.find((x) => x.open > conn.close!);
      if (!next) continue;
      const ups = w.filter((x) => x.dir === 'up' && x.conn === next.id);
      const lead = ups.findIndex(
        (x) => x.msg['op'] !== 'advertise' && x.msg['op'] !== 'cancel_action_goal' && x.msg['topic'] !== `${action}/cancel`,
      );
      const first = lead < 0 ? ups : ups.slice(0, lead);
      if (ups.length && !first.some((x) => isCancel(x.msg, id)))
        violations.push(
          `goal ${id}: after the link dropped, the next connection began with ${JSON.stringify(ups[lead < 0 ? 0 : lead]!.msg).slice(0, 120)}, not its cancel`,
        );
      continue;
    }
    const deadline = turned + CONTROL_PERIOD_MS + CANCEL_SLACK_MS;
    if (cancel && cancel.t <= deadline) latencies.push(Math.round(cancel.t - (exactly ?? turned)));
    else if (!end || end.t > deadline)
      violations.push(
        `goal ${id}: the state turned (${notGreen(o, turned, g.wall + (turned - g.t), g.conn, SLACK_MS)}) at +${Math.round(turned - g.t)} ms, and ${cancel ? `its cancel came ${Math.round(cancel.t - turned)} ms later` : 'no cancel came'}`,
      );
  }
  // 3. A goal the client cancelled says why.
  for (const out of outcomes)
    if (!out.ok && !out.summary) violations.push(`a failed call says nothing: ${JSON.stringify(out)}`);
    else if (!out.ok && /was cancelled/.test(out.summary) && !['estop', 'battery_empty'].includes(out.code))
      violations.push(`a goal cancelled by the client does not say it was for safety: ${JSON.stringify(out)}`);
  return {
    violations,
    figures: {
      motions: motions.length,
      refused: outcomes.filter((x) => !x.ok && /was not sent/.test(x.summary)).length,
      cancels,
      latencies,
      ...(openFailed ? { openFailed } : {}),
    },
    outcomes,
  };
}

// ------------------------------------------------------------------ export

/** Writes `count` cases for ROS `ros` (fixed `seed`) to `file`, for scripts/real-rosbridge.sh. */
export function exportCases(file: string, count: number, seed: number, ros: 1 | 2 = 1): SafetyCase[] {
  const cases = fc.sample(caseArb({ ros, skills: ['action', 'action', 'topic'] }), { seed, numRuns: count });
  writeFileSync(file, `${JSON.stringify({ format: 'skillbridge-rosbridge-safety-cases/1', seed, ros, cases }, null, 1)}\n`);
  return cases;
}

export function readCases(file: string): SafetyCase[] {
  const data = JSON.parse(readFileSync(file, 'utf8')) as { format?: string; cases?: SafetyCase[] };
  if (data.format !== 'skillbridge-rosbridge-safety-cases/1' || !Array.isArray(data.cases))
    throw new Error(`${file}: not a file of rosbridge safety cases (format skillbridge-rosbridge-safety-cases/1)`);
  return data.cases;
}

// `npx tsx test/fuzz/rosbridge-safety.ts export FILE [COUNT] [SEED]`
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const [cmd, file, count, seed] = process.argv.slice(2);
  if (cmd !== 'export' || !file) {
    process.stderr.write('usage: npx tsx test/fuzz/rosbridge-safety.ts export FILE [COUNT] [SEED]\n');
    process.exit(2);
  }
  const cases = exportCases(file, Number(count ?? 40), Number(seed ?? 20260521));
  process.stdout.write(`wrote ${cases.length} cases to ${file}\n`);
}
