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
import type { Outcome } from '../../robot/robot';
import { spell } from '../../robot/rosbridge/graph';
import { CONTROL_PERIOD_MS } from '../../robot/rosbridge/goal-guards';
import { type OpenedRosRobot, RosbridgeForm, rosbridgeSource } from '../../robot/rosbridge/source';
import type { RosbridgeTestServer } from '../support/rosbridge-server';
import { CANCEL_SLACK_MS, CRITICAL, type Obj, type SafetyCase, SLACK_MS, caseArb } from './rosbridge-safety-cases';
import { type Observed, type Seen, notGreen, turningPoints } from './rosbridge-safety-oracle';
import { RecordingProxy, RobotSide } from './rosbridge-safety-wire';

export * from './rosbridge-safety-cases';
export * from './rosbridge-safety-oracle';

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
