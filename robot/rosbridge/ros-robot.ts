// The Robot seam over rosbridge, as the mapping file declares it: each skill a
// ROS action (feedback → `skill_progress` events, the AbortSignal → cancel, the
// result → an Outcome with a readable reason), a service or a topic; the
// battery from sensor_msgs/BatteryState, the e-stop from a Bool topic, what the
// robot sees from a detection topic, each parsed strictly and judged by age,
// stamp and replay (./readings.ts, ./topic-reader.ts). Positions cross frames
// once (./frames.ts). While the connection is down every skill fails at once
// with the reason. Motion only on green: no motion command leaves unless the
// e-stop is known released (./safety-state.ts), checked in the same turn as the
// send, and a goal in flight is cancelled within CONTROL_PERIOD_MS
// (./goal-guards.ts) of anything else (pressed, unknown, stale, the link gone),
// its result saying why (./goal-outcomes.ts).
import type { Arm, Base, BatteryStatus, Capability, EventSource, Outcome, Perception, Robot, Rover, Speech } from '../robot';
import { type SkillCall, describeCall, interceptSkills, isMotion, skillSkeleton } from '../skills';
import { EventLog } from './event-log';
import { type GoalEnd, type RosConnection, RosbridgeError, dig } from './connection';
import { GoalGuards } from './goal-guards';
import { goalOutcome, haltedOutcome, judgeResult } from './goal-outcomes';
import { type Mapping, type MappedSkills, type SkillMapping, kindOf } from './mapping';
import { rejectionLine } from './graph';
import { fill, say, skillValues } from './ros-messages';
import { type RosRobotInfo, rosRobotInfo } from './ros-robot-info';
import { rosPerception, whereIs } from './ros-perception';
import {
  type Battery,
  type RosDetection,
  type RosPose,
  readBattery,
  readDetections,
  readEstop,
  readJointStates,
  readPose,
} from './readings';
import { type Refusal, type SafetyInputs, type SafetyState, motionRefusal, safetyState } from './safety-state';
import { type Current, type Link, type ReaderClock, TopicReader } from './topic-reader';
import { type Reading, unknown } from '../../base/reading';

type Msg = Record<string, unknown>;

/** How long a motion command waits for the e-stop to be read again after a reconnect. */
const REREAD_MS = 3000;

export class RosRobot implements Robot {
  readonly info: RosRobotInfo;
  readonly perception: Perception;
  readonly arm?: Arm;
  readonly base?: Base;
  readonly rover?: Rover;
  readonly speech?: Speech;
  readonly events: EventSource;
  readonly wait: Robot['wait'];
  private readonly caps: Set<Capability>;
  private readonly skills: MappedSkills;
  private readonly log = new EventLog();
  private held: string | undefined;
  /** Why what the hand holds is unknown (a goal ended without the robot confirming its state). */
  private heldUnknown: string | undefined;
  /** Pose readings before this time (ms) do not count: the robot's position became unknown then. */
  private poseUnknownSince = -Infinity;
  private readonly estop$: TopicReader<boolean> | undefined;
  private readonly battery$: TopicReader<Battery> | undefined;
  private readonly pose$: TopicReader<RosPose> | undefined;
  private readonly detections$: TopicReader<RosDetection[]> | undefined;
  private readonly joints$: TopicReader<ReadonlyMap<string, number>> | undefined;
  readonly jointStates?: () => Promise<Reading<ReadonlyMap<string, number>>>;
  /** The last known e-stop value: events are changes from it. */
  private estopWas: boolean | undefined;
  private level: BatteryStatus['level'] | undefined;
  /** Goals in flight, each cancelled when the safety state is not green. */
  private readonly guards = new GoalGuards();
  private closed = false;
  /** Errors rosbridge reported about our subscriptions and advertisements, one line each naming the mapping field. */
  readonly problems: string[] = [];
  private readonly fields = new Map<string, string>();
  private readonly unsubscribe: Array<() => void> = [];

  constructor(
    private readonly conn: RosConnection,
    private readonly m: Mapping,
  ) {
    this.skills = m.skills as MappedSkills;
    if ('topic' in m.estop) {
      const e = m.estop;
      this.estop$ = new TopicReader(
        e.topic,
        'the e-stop',
        m.maxAgeS,
        (msg, at) => readEstop(msg, e.path, at),
        (v) => (v ? 'pressed' : 'released'),
      );
    }
    if (m.battery)
      this.battery$ = new TopicReader(m.battery.topic, 'the battery', m.maxAgeS, readBattery, (b) => `${Math.round(b.percent * 10) / 10}%`);
    if (m.pose) {
      const p = m.pose;
      this.pose$ = new TopicReader(p.topic, 'the pose', p.maxAgeS ?? m.maxAgeS, (msg, at) => readPose(msg, p.path, at));
    }
    if (m.detections) {
      const d = m.detections;
      this.detections$ = new TopicReader(d.topic, 'the detections', d.maxAgeS ?? m.maxAgeS, (msg, at) => readDetections(msg, d, at));
    }
    if (m.jointStates) {
      const j = m.jointStates;
      const reader = new TopicReader(j.topic, 'the joint states', j.maxAgeS ?? m.maxAgeS, readJointStates);
      this.joints$ = reader;
      // As they stand: unknown when none came, or the last is stale (a robot without the topic mapped has no such reading).
      this.jointStates = async () => reader.current(this.clock()).reading;
    }
    this.info = rosRobotInfo(m, conn.url);
    this.caps = new Set(this.info.capabilities);
    this.events = this.log.source;
    this.perception = rosPerception({
      info: this.info,
      mapping: m,
      detections: () =>
        this.detections$?.current(this.clock()) ?? { reading: unknown('no detections topic is mapped'), freshness: 'unknown' },
      pose: () => this.poseNow(),
      held: () => (this.heldUnknown ? { known: false, why: this.heldUnknown } : { known: true, id: this.held }),
    });
    const s = interceptSkills(skillSkeleton(this.info), (call, signal) => this.skill(call, signal));
    if (this.caps.has('arm'))
      this.arm = { ...s.arm!, graspPose: async () => ({ ok: false, summary: 'grasp poses are not mapped for this robot' }) };
    if (this.caps.has('base')) this.base = s.base!;
    if (this.caps.has('rover')) this.rover = s.rover!;
    if (this.caps.has('speech')) this.speech = s.speech!;
    this.wait = (seconds, signal) => waitFor(seconds, signal);
    this.watch();
  }

  private clock(): ReaderClock {
    return { epoch: this.conn.epoch, link: this.link(), now: performance.now(), wall: Date.now() };
  }

  link(): Link {
    return this.closed ? 'down' : this.conn.isConnected ? 'up' : 'reconnecting';
  }

  /** The pose as it stands; one from before the robot's position became unknown does not count. */
  private poseNow(): Current<RosPose> {
    const c = this.pose$?.current(this.clock()) ?? { reading: unknown('no pose topic is mapped'), freshness: 'unknown' as const };
    if (this.poseUnknownSince > -Infinity && (!c.reading.known || c.reading.at < this.poseUnknownSince))
      return { reading: unknown('it is unknown since a goal ended without confirmation; no pose received since'), freshness: 'unknown' };
    return c;
  }

  private watch(): void {
    const { m, conn } = this;
    const sub = <T>(field: string, topic: string, type: string, reader: TopicReader<T>, after?: () => void) => {
      this.fields.set(topic, field);
      this.unsubscribe.push(
        conn.subscribe(topic, type, (msg) => {
          reader.receive(msg, this.clock());
          after?.();
        }),
      );
    };
    if (m.battery && this.battery$)
      sub('battery', m.battery.topic, m.battery.type, this.battery$, () => {
        this.onBattery();
        this.guards.check();
      });
    if ('topic' in m.estop && this.estop$)
      sub('estop', m.estop.topic, m.estop.type, this.estop$, () => {
        this.onEstop();
        this.guards.check();
      });
    if (m.detections && this.detections$) sub('detections', m.detections.topic, m.detections.type, this.detections$);
    if (m.pose && this.pose$) sub('pose', m.pose.topic, m.pose.type, this.pose$);
    if (m.jointStates && this.joints$) sub('jointStates', m.jointStates.topic, m.jointStates.type, this.joints$);
    if (m.ros === 1)
      for (const [name, sk] of Object.entries(this.skills))
        if (sk && 'action' in sk) {
          for (const t of ['status', 'feedback', 'result']) this.fields.set(`${sk.action}/${t}`, `skills.${name}`);
          conn.prepareActionlib(sk.action, sk.type);
        }
    for (const [name, sk] of Object.entries(this.skills)) if (sk && 'topic' in sk) this.fields.set(sk.topic, `skills.${name}`);
    this.unsubscribe.push(
      conn.onState((up, why) => {
        this.log.post(up ? 'connected' : 'disconnected', up ? 'reconnected to rosbridge' : `lost the connection to rosbridge: ${why}`, {});
        this.guards.check();
      }),
      conn.onStatus((st) => {
        if (st.level !== 'error' && st.level !== 'warning') return;
        const line = rejectionLine(st, this.fields, (f) => this.typeOf(f));
        this.problems.push(line);
        this.log.post('rosbridge_error', line, { level: st.level, ...(st.id ? { id: st.id } : {}) });
      }),
    );
  }

  /** Only a change from a known state is an event; a first known state that is pressed is one too. */
  private onEstop(): void {
    const r = this.estop$!.current(this.clock()).reading;
    if (!r.known) return;
    const before = this.estopWas;
    this.estopWas = r.value;
    if (before === r.value || (before === undefined && !r.value)) return;
    this.log.post(
      r.value ? 'estop_pressed' : 'estop_released',
      r.value ? 'emergency stop pressed: the robot cannot move until it is released' : 'emergency stop released',
      {},
    );
  }

  private typeOf(field: string): string | undefined {
    const m = this.m as unknown as Record<string, { type?: string } | undefined>;
    return field.startsWith('skills.') ? this.skills[field.slice(7) as keyof MappedSkills]?.type : m[field]?.type;
  }

  /** Waits (at most `ms`) until every mapped reading has come on this connection and any replay window is over. */
  async ready(ms: number): Promise<void> {
    const readers = [this.estop$, this.battery$, this.pose$, this.detections$, this.joints$];
    for (let t = 0; t < ms && readers.some((r) => r?.pending(this.clock())); t += 25) await new Promise((r) => setTimeout(r, 25));
  }

  /** While the link is up, waits (at most `ms`) until the e-stop and battery are read on this connection. */
  private async reread(ms: number): Promise<void> {
    for (let t = 0; t < ms && [this.estop$, this.battery$].some((r) => r?.pending(this.clock())); t += 25)
      await new Promise((r) => setTimeout(r, 25));
  }

  private safetyInputs(): SafetyInputs {
    const c = this.clock();
    return {
      estop: this.estop$?.current(c),
      noEstopWhy: 'none' in this.m.estop ? this.m.estop.why : undefined,
      battery: this.battery$?.current(c),
      maxAgeS: this.m.maxAgeS,
      link: c.link,
    };
  }

  /** Why no motion may leave (or go on) now, or undefined on green. */
  refusal(): Refusal | undefined {
    return motionRefusal(this.safetyInputs(), this.info.batteryThresholds.critical);
  }

  /** The e-stop, battery and link, each with its age (the Robot seam's SafetyState). */
  async safety(): Promise<SafetyState> {
    return safetyState(this.safetyInputs());
  }

  close(): void {
    this.closed = true;
    this.guards.check();
    this.guards.stop();
    for (const u of this.unsubscribe) u();
    this.log.clear();
  }

  private onBattery(): void {
    const b = this.batteryNow();
    if (b && b.level !== this.level) {
      if (this.level !== undefined)
        this.log.post('battery_threshold', `battery is ${b.level} (${b.percent.toFixed(0)}%)`, { level: b.level, percent: b.percent });
      this.level = b.level;
    }
  }

  private batteryNow(): BatteryStatus | undefined {
    const r = this.battery$?.current(this.clock()).reading;
    if (!r?.known) return undefined;
    const { charging } = r.value;
    const percent = Math.round(r.value.percent * 10) / 10;
    const t = this.info.batteryThresholds;
    const level = percent <= 0 ? 'empty' : percent <= t.critical ? 'critical' : percent <= t.low ? 'low' : 'okay';
    return { percent, level, charging, docked: false };
  }

  async battery(): Promise<BatteryStatus> {
    if (!this.m.battery || !this.battery$) throw new RosbridgeError('this robot has no battery topic in its mapping');
    const c = this.battery$.current(this.clock());
    const b = this.batteryNow();
    if (!c.reading.known || !b)
      throw new RosbridgeError(
        `battery ${c.freshness === 'stale' ? 'reading stale' : 'unknown'}: ${c.reading.known ? 'not readable' : c.reading.why}`,
      );
    return b;
  }

  async time(): Promise<number> {
    return this.log.time();
  }

  has(c: Capability): boolean {
    return this.caps.has(c);
  }

  // ---------------------------------------------------------------- skills

  private async skill(call: SkillCall, signal?: AbortSignal): Promise<Outcome> {
    const what = describeCall(call);
    const map = this.skills[call.skill];
    if (!map)
      return {
        ok: false,
        code: 'unsupported',
        summary: `${call.skill} is not mapped for ${this.info.name}; add skills["${call.skill}"] to the mapping file`,
      };
    const values = await skillValues(call, this.m, { position: (id) => whereIs(this.perception, id) });
    if ('ok' in values) return values as Outcome;
    if (signal?.aborted) return { ok: false, code: 'aborted', summary: `${what} was not sent: the call was stopped` };
    const motion = isMotion(call.skill);
    if (motion) {
      // The robot's own check, whatever runs above it: no motion unless the e-stop is known released.
      // Just after a reconnect the e-stop and battery are read again first (bounded).
      await this.reread(REREAD_MS);
      const no = this.refusal();
      if (no) return { ok: false, code: no.code, summary: `${what} was not sent: ${no.reason}` };
    }
    try {
      const out = await this.run(call, map, values, what, motion, signal);
      if (out.ok && call.skill === 'arm.pick') ((this.held = call.args.object), (this.heldUnknown = undefined));
      if (out.ok && (call.skill === 'arm.place' || call.skill === 'arm.handover'))
        ((this.held = undefined), (this.heldUnknown = undefined));
      return out;
    } catch (e) {
      if (e instanceof RosbridgeError) return { ok: false, code: 'skill_failure', summary: e.message };
      throw e;
    }
  }

  private async run(
    call: SkillCall,
    map: SkillMapping,
    values: Msg,
    what: string,
    motion: boolean,
    signal?: AbortSignal,
  ): Promise<Outcome> {
    const kind = kindOf(map);
    // Asked again in the same turn as the send (the awaits above may have let the state turn).
    const no = motion ? this.refusal() : undefined;
    if ('topic' in map) {
      if (no) return { ok: false, code: no.code, summary: `${what} was not sent: ${no.reason}` };
      this.conn.publish(map.topic, map.type, fill(map.msg, values) as Msg);
      return { ok: true, summary: `${what}: published on ${map.topic}` };
    }
    if ('service' in map) {
      if (no) return { ok: false, code: no.code, summary: `${what} was not sent: ${no.reason}` };
      const r = await this.conn.callService(map.service, map.type, fill(map.request, values) as Msg, map.timeoutS * 1000);
      return judgeResult(map, r, what, map.service);
    }
    if (kind !== 'action' || !('action' in map)) throw new RosbridgeError(`the mapping of ${call.skill} is incomplete`);
    // The goal is cancelled when the caller stops it, or when the safety state turns from green (`halted`).
    const stop = new AbortController();
    let halted: Refusal | undefined;
    const onAbort = () => stop.abort();
    signal?.addEventListener('abort', onAbort, { once: true });
    if (signal?.aborted) stop.abort();
    const unguard = motion
      ? this.guards.add(() => {
          if (halted || stop.signal.aborted) return;
          halted = this.refusal();
          if (halted) stop.abort();
        })
      : () => undefined;
    let end: GoalEnd;
    try {
      end = await this.conn.sendGoal(this.m.ros, map.action, map.type, fill(map.goal, values) as Msg, {
        timeoutMs: map.timeoutS * 1000,
        signal: stop.signal,
        ...(motion
          ? {
              mayStart: () => {
                halted ??= this.refusal();
                return halted?.reason;
              },
            }
          : {}),
        onFeedback: (fb) => {
          const f = map.feedback;
          const fraction = f?.fraction ? Number(dig(fb, f.fraction)) : undefined;
          const text = f?.text ? say(f.text, fb) : `${call.skill} is running`;
          this.log.post('skill_progress', text, {
            skill: call.skill,
            ...(fraction !== undefined && Number.isFinite(fraction) ? { fraction: Math.min(1, Math.max(0, fraction)) } : {}),
          });
        },
      });
    } finally {
      unguard();
      signal?.removeEventListener('abort', onAbort);
    }
    if (halted && end.status !== 'succeeded' && end.status !== 'dropped' && end.status !== 'no_server')
      return haltedOutcome(end, halted, what, map.action, (w) => this.unknownState(w));
    return goalOutcome(end, map, what, this.m.ros, (w) => this.unknownState(w));
  }

  /** After a goal ended without the robot confirming its state: position and held object are unknown until observed again. */
  private unknownState(what: string): void {
    this.heldUnknown = `${what} ended without the robot confirming its state`;
    this.poseUnknownSince = performance.now();
  }
}

/** Robot time is wall time here: waiting is a timer that the signal ends. */
function waitFor(seconds: number, signal?: AbortSignal): Promise<Outcome> {
  return new Promise((resolve) => {
    const t = setTimeout(() => resolve({ ok: true, summary: `waited ${seconds} s` }), Math.max(0, seconds) * 1000);
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(t);
        resolve({ ok: false, code: 'aborted', summary: 'the wait was stopped' });
      },
      { once: true },
    );
  });
}
