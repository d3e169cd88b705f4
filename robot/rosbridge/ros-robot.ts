// The Robot seam over rosbridge, as the mapping file declares it: each skill a
// ROS action (feedback → `skill_progress` events, the AbortSignal → cancel, the
// result → an Outcome with a readable reason), a service or a topic; the
// battery from sensor_msgs/BatteryState, the e-stop from a Bool topic, what the
// robot sees from a detection topic. Positions cross frames once (./frames.ts).
// While the connection is down every skill fails at once with the reason.
import type {
  Arm,
  Base,
  BatteryStatus,
  Capability,
  EventSource,
  Outcome,
  Perception,
  Robot,
  SafetyState,
  RobotEvent,
  RobotInfo,
  Rover,
  Speech,
  Vec3Tuple,
} from '../robot';
import { type SkillCall, describeCall, interceptSkills, skillSkeleton } from '../skills';
import { type GoalEnd, type RosConnection, RosbridgeError, dig } from './connection';
import { type RosPoint, fromRos, quaternionYawDeg, toRos, yawQuaternion } from './frames';
import { type Mapping, type MappedSkills, type SkillMapping, kindOf } from './mapping';
import { rosPerception } from './ros-perception';

type Msg = Record<string, unknown>;

/** Replaces "$name" and "$a.b" strings in a message template with the call's values. */
export function fill(template: unknown, values: Msg): unknown {
  if (typeof template === 'string' && template.startsWith('$')) return dig(values, template.slice(1));
  if (Array.isArray(template)) return template.map((t) => fill(t, values));
  if (template && typeof template === 'object') return Object.fromEntries(Object.entries(template).map(([k, v]) => [k, fill(v, values)]));
  return template;
}

/** "{path}" in a text, from a message. */
function say(text: string, msg: unknown): string {
  return text.replace(/\{([\w.]+)\}/g, (_m, p: string) => {
    const v = dig(msg, p);
    return typeof v === 'number' ? String(Math.round(v * 100) / 100) : v === undefined ? '?' : String(v);
  });
}

const round = (x: number) => Math.round(x * 1000) / 1000;

export class RosRobot implements Robot {
  readonly info: RobotInfo;
  readonly perception: Perception;
  readonly arm?: Arm;
  readonly base?: Base;
  readonly rover?: Rover;
  readonly speech?: Speech;
  readonly events: EventSource;
  readonly wait: Robot['wait'];
  private readonly caps: Set<Capability>;
  private readonly skills: MappedSkills;
  private readonly log: RobotEvent[] = [];
  private readonly listeners = new Set<(e: RobotEvent) => void>();
  private readonly t0 = performance.now();
  private held: string | undefined;
  private battery$: Msg | undefined;
  private detections$: Msg | undefined;
  private pose$: RosPoint | undefined;
  private yaw$ = 0;
  private estop: boolean | undefined;
  private level: BatteryStatus['level'] | undefined;
  private readonly unsubscribe: Array<() => void> = [];

  constructor(
    private readonly conn: RosConnection,
    private readonly m: Mapping,
  ) {
    this.skills = m.skills as MappedSkills;
    const names = Object.keys(this.skills);
    const caps: Capability[] = ['perception', 'events'];
    if (names.some((n) => n.startsWith('arm.'))) caps.push('arm');
    if (names.some((n) => n.startsWith('base.'))) caps.push('base');
    if (names.some((n) => n.startsWith('rover.'))) caps.push('rover');
    if (names.some((n) => n.startsWith('speech.'))) caps.push('speech');
    if (m.battery) caps.push('battery');
    this.caps = new Set(caps);
    const ws = m.workspace && [fromRos(xyz(m.workspace.min)), fromRos(xyz(m.workspace.max))];
    this.info = {
      id: m.robot.id,
      name: m.robot.name,
      kind: m.robot.kind,
      description: m.robot.description,
      capabilities: caps,
      scene: { id: `rosbridge:${conn.url}`, title: `${m.robot.name} over rosbridge`, notes: [], userInfo: [], toolSet: 'flat' },
      ...(caps.includes('arm') ? { arm: { reachM: 1, payloadKg: 1, gripperOpeningM: 0.1, postures: m.robot.postures } } : {}),
      places: m.places.map((p) => ({ id: p.id, kind: 'place', title: p.title, position: fromRos(p), yaw: p.yawDeg, serves: [] })),
      referencePositions: m.referencePositions.map((r) => ({ id: r.id, position: fromRos(xyz(r.position)), description: r.description })),
      batteryThresholds: { low: m.battery?.low ?? 20, critical: m.battery?.critical ?? 5 },
      ...(ws
        ? {
            workspace: {
              min: ws[0]!.map((v, i) => Math.min(v, ws[1]![i]!)) as Vec3Tuple,
              max: ws[0]!.map((v, i) => Math.max(v, ws[1]![i]!)) as Vec3Tuple,
            },
          }
        : {}),
    };
    this.events = {
      since: async (id) => this.log.filter((e) => e.id > id),
      lastId: async () => this.log.at(-1)?.id ?? 0,
      subscribe: (l) => {
        this.listeners.add(l);
        return () => this.listeners.delete(l);
      },
    };
    this.perception = rosPerception({
      info: this.info,
      mapping: m,
      detections: () => this.detections$,
      pose: () => this.pose$,
      yawDeg: () => this.yaw$,
      held: () => this.held,
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

  private watch(): void {
    const { m, conn } = this;
    if (m.battery) this.unsubscribe.push(conn.subscribe(m.battery.topic, m.battery.type, (msg) => this.onBattery(msg)));
    if (m.estop) {
      const e = m.estop;
      this.unsubscribe.push(
        conn.subscribe(e.topic, e.type, (msg) => {
          const on = Boolean(dig(msg, e.path));
          if (on !== this.estop)
            this.post(
              on ? 'estop_pressed' : 'estop_released',
              on ? 'emergency stop pressed: the robot cannot move until it is released' : 'emergency stop released',
              {},
            );
          this.estop = on;
        }),
      );
    }
    if (m.detections) this.unsubscribe.push(conn.subscribe(m.detections.topic, m.detections.type, (msg) => (this.detections$ = msg)));
    if (m.pose) {
      const p = m.pose;
      this.unsubscribe.push(
        conn.subscribe(p.topic, p.type, (msg) => {
          const pose = dig(msg, p.path) as
            { position?: RosPoint; orientation?: { x: number; y: number; z: number; w: number } } | undefined;
          if (pose?.position) this.pose$ = pose.position;
          if (pose?.orientation) this.yaw$ = quaternionYawDeg(pose.orientation);
        }),
      );
    }
    this.unsubscribe.push(
      conn.onState((up, why) =>
        this.post(up ? 'connected' : 'disconnected', up ? 'reconnected to rosbridge' : `lost the connection to rosbridge: ${why}`, {}),
      ),
    );
  }

  close(): void {
    for (const u of this.unsubscribe) u();
    this.listeners.clear();
  }

  private post(type: string, text: string, data: Msg): void {
    const e: RobotEvent = { id: (this.log.at(-1)?.id ?? 0) + 1, time: round((performance.now() - this.t0) / 1000), type, text, data };
    this.log.push(e);
    if (this.log.length > 2000) this.log.splice(0, this.log.length - 2000);
    for (const l of [...this.listeners]) l(e);
  }

  private onBattery(msg: Msg): void {
    this.battery$ = msg;
    const b = this.batteryNow();
    if (b && b.level !== this.level) {
      if (this.level !== undefined)
        this.post('battery_threshold', `battery is ${b.level} (${b.percent.toFixed(0)}%)`, { level: b.level, percent: b.percent });
      this.level = b.level;
    }
  }

  private batteryNow(): BatteryStatus | undefined {
    const msg = this.battery$;
    if (!msg) return undefined;
    // sensor_msgs/BatteryState: percentage 0…1 (NaN when unknown); power_supply_status 1 = charging.
    const raw = Number(msg['percentage']);
    const percent = round(Number.isFinite(raw) ? (raw <= 1 ? raw * 100 : raw) : 0);
    const t = this.info.batteryThresholds;
    const level = percent <= 0 ? 'empty' : percent <= t.critical ? 'critical' : percent <= t.low ? 'low' : 'okay';
    return { percent, level, charging: msg['power_supply_status'] === 1, docked: false };
  }

  async battery(): Promise<BatteryStatus> {
    if (!this.m.battery) throw new RosbridgeError('this robot has no battery topic in its mapping');
    const b = this.batteryNow();
    if (!b)
      throw new RosbridgeError(
        `no BatteryState has arrived on ${this.m.battery.topic} yet${this.conn.isConnected ? '' : ' (not connected to rosbridge)'}`,
      );
    return b;
  }

  /** Fail closed until the rosbridge safety state is wired in: the e-stop is unknown, so no motion is sent. */
  async safety(): Promise<SafetyState> {
    return {
      estop: { state: 'unknown', freshness: 'unknown', detail: 'this rosbridge robot does not track its e-stop state yet' },
      maxAgeS: 2,
      link: this.conn.isConnected ? 'up' : 'down',
    };
  }

  async time(): Promise<number> {
    return round((performance.now() - this.t0) / 1000);
  }

  has(c: Capability): boolean {
    return this.caps.has(c);
  }

  // ---------------------------------------------------------------- skills

  private values(call: SkillCall): Msg | Outcome {
    const v: Msg = { ...call.args, frame: this.m.frame };
    const stamped = (p: Vec3Tuple, yawDeg = 0) => ({
      header: { frame_id: this.m.frame },
      pose: { position: toRos(p), orientation: yawQuaternion(yawDeg) },
    });
    if (call.skill === 'base.navigate' || call.skill === 'base.approach') {
      const name = call.skill === 'base.navigate' ? call.args.place : call.args.target;
      const place = this.m.places.find((p) => p.id === name);
      if (!place)
        return {
          ok: false,
          code: 'invalid_argument',
          summary: `no place "${name}" in the mapping; places: ${this.m.places.map((p) => p.id).join(', ') || 'none'}`,
        };
      v['pose'] = stamped(fromRos(place), place.yawDeg);
    }
    if (call.skill === 'arm.place') {
      const t = call.args.target;
      if (t.kind === 'point') {
        v['point'] = toRos(t.position);
        v['pose'] = stamped(t.position);
        v['target'] = t.label ?? '';
      } else v['target'] = t.id;
    }
    if (call.skill === 'arm.moveTool') {
      v['point'] = toRos(call.args.pose.position);
      v['pose'] = stamped(call.args.pose.position);
      v['tiltDeg'] = call.args.pose.tiltDeg;
    }
    return v;
  }

  private async skill(call: SkillCall, signal?: AbortSignal): Promise<Outcome> {
    const what = describeCall(call);
    const map = this.skills[call.skill];
    if (!map)
      return {
        ok: false,
        code: 'unsupported',
        summary: `${call.skill} is not mapped for ${this.info.name}; add skills["${call.skill}"] to the mapping file`,
      };
    const values = this.values(call);
    if ('ok' in values) return values as Outcome;
    if (signal?.aborted) return { ok: false, code: 'aborted', summary: `${what} was not sent: the call was stopped` };
    try {
      const out = await this.run(call, map, values, what, signal);
      if (out.ok && call.skill === 'arm.pick') this.held = call.args.object;
      if (out.ok && (call.skill === 'arm.place' || call.skill === 'arm.handover')) this.held = undefined;
      return out;
    } catch (e) {
      if (e instanceof RosbridgeError) return { ok: false, code: 'skill_failure', summary: e.message };
      throw e;
    }
  }

  private async run(call: SkillCall, map: SkillMapping, values: Msg, what: string, signal?: AbortSignal): Promise<Outcome> {
    const kind = kindOf(map);
    if ('topic' in map) {
      this.conn.publish(map.topic, map.type, fill(map.msg, values) as Msg);
      return { ok: true, summary: `${what}: published on ${map.topic}` };
    }
    if ('service' in map) {
      const r = await this.conn.callService(map.service, map.type, fill(map.request, values) as Msg, map.timeoutS * 1000);
      return this.judge(map, r, what, map.service);
    }
    if (kind !== 'action' || !('action' in map)) throw new RosbridgeError(`the mapping of ${call.skill} is incomplete`);
    const end: GoalEnd = await this.conn.sendGoal(this.m.ros, map.action, map.type, fill(map.goal, values) as Msg, {
      timeoutMs: map.timeoutS * 1000,
      ...(signal ? { signal } : {}),
      onFeedback: (fb) => {
        const f = map.feedback;
        const fraction = f?.fraction ? Number(dig(fb, f.fraction)) : undefined;
        const text = f?.text ? say(f.text, fb) : `${call.skill} is running`;
        this.post('skill_progress', text, {
          skill: call.skill,
          ...(fraction !== undefined && Number.isFinite(fraction) ? { fraction: Math.min(1, Math.max(0, fraction)) } : {}),
        });
      },
    });
    switch (end.status) {
      case 'succeeded':
        return this.judge(map, end.values, what, map.action);
      case 'cancelled':
        return { ok: false, code: 'aborted', summary: `${what} was cancelled on the robot (${map.action})` };
      case 'timeout':
        return { ok: false, code: 'timeout', summary: `${what} took longer than ${map.timeoutS} s and was cancelled` };
      case 'dropped':
        return {
          ok: false,
          code: 'skill_failure',
          summary: `the connection to rosbridge dropped while ${what} was running; the robot may have stopped part-way or still be moving: check its state before relying on it`,
        };
      case 'failed': {
        const reason = map.result?.reason ? dig(end.values, map.result.reason) : undefined;
        const status =
          end.code === 6
            ? 'aborted by the robot'
            : end.code === 4 && this.m.ros === 1
              ? 'aborted by the robot'
              : `ended with status ${end.code}`;
        return { ok: false, code: 'skill_failure', summary: `${what} ${status} (${map.action})${reason ? `: ${String(reason)}` : ''}` };
      }
    }
  }

  /** A result message → Outcome, by the mapping's success condition. */
  private judge(map: SkillMapping, values: unknown, what: string, where: string): Outcome {
    const r = 'result' in map ? map.result : undefined;
    let ok = true;
    if (r?.success) {
      const v = dig(values, r.success.path);
      ok = r.success.equals !== undefined ? v === r.success.equals : Boolean(v);
    }
    if (ok) return { ok: true, summary: r?.summary ? say(r.summary, values) : `${what} done (${where})` };
    const reason = r?.reason ? dig(values, r.reason) : undefined;
    return { ok: false, code: 'skill_failure', summary: `${what} failed on the robot (${where})${reason ? `: ${String(reason)}` : ''}` };
  }
}

function xyz(p: [number, number, number]): RosPoint {
  return { x: p[0], y: p[1], z: p[2] };
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
