// The Robot seam over the robot HTTP API (skillbridge-robot/1), so every tool,
// workflow, host and evaluation runs on any robot that speaks it. Queries are one
// request each; a skill is a job, long-polled until it ends, and the call's
// AbortSignal cancels it on the robot. Motion only on green: a motion job is
// posted only when a robot.safety answer read just before says the e-stop is
// known, fresh and released (and a declared battery known and fresh) with the
// link up, and while it runs the client reads the robot's safety every control
// period; a press on the event stream, a reading that is not green, the stream
// dropping or the robot restarting cancels the job on the robot at once, and the
// Outcome says why (the jobs: ./skill-jobs.ts; the watch: ./motion-watch.ts).
// Faults keep the seam's contract: a query throws a RobotConnectionError naming
// the cause, a skill returns a failed Outcome that says whether it may have run
// part-way.
import { z } from 'zod';
import type {
  CameraApi,
  Arm,
  Base,
  BatteryStatus,
  Capability,
  EventSource,
  PeoplePerception,
  Perception,
  Robot,
  RobotEvent,
  RobotInfo,
  Rover,
  SafetyState,
  Speech,
  WorldModelApi,
  WorldModelNode,
} from '../robot';
import { type Reading, known, unknown } from '../../base/reading';
import { interceptSkills, skillSkeleton } from '../skills';
import { RobotConnectionError, Wire } from './client';
import { SseClient } from './event-stream';
import { InfoResponse, QUERIES, type QueryName } from './protocol';
import { SafetyMonitor } from './safety-monitor';
import { SkillJobs } from './skill-jobs';

/** How long the first answer about the world waits for the robot's first state (as rosbridge's start-up does). */
const FIRST_STATE_WAIT_S = 3;
/** How often a motion job in flight is judged against the robot's safety, ms: each period asks for a new reading. */
export const CONTROL_PERIOD_MS = 200;

export interface HttpRobotOptions {
  url: string;
  token: string;
  timeoutMs?: number;
  /** The longest a skill may run (waits and questions: their own seconds), before the grace. Default 300 s. */
  skillTimeoutS?: number;
  /** How often a motion job in flight re-reads the robot's safety, ms (default CONTROL_PERIOD_MS). */
  controlPeriodMs?: number;
}

type Info = z.infer<typeof InfoResponse>['info'];

function toInfo(i: Info): RobotInfo {
  return {
    ...i,
    places: i.places.map((p) => ({ ...p, title: p.title })),
    referencePositions: i.referencePositions.map((r) => ({ ...r, description: r.description })),
  } as RobotInfo;
}

function toNode(n: z.infer<(typeof QUERIES)['worldModel.addNode']['value']>): WorldModelNode {
  return { ...n, parent: n.parent, relation: n.relation, position: n.position };
}

export class HttpRobot implements Robot {
  readonly info: RobotInfo;
  readonly perception: Perception;
  readonly arm?: Arm;
  readonly base?: Base;
  readonly rover?: Rover;
  readonly speech?: Speech;
  readonly people?: PeoplePerception;
  readonly events: EventSource;
  readonly worldModel?: WorldModelApi;
  readonly camera?: CameraApi;
  private readonly caps: Set<Capability>;
  private readonly listeners = new Set<(e: RobotEvent) => void>();
  private sse: SseClient | undefined;
  private readonly monitor: SafetyMonitor;
  private readonly jobs: SkillJobs;
  private stateSeen: Promise<void> | undefined;

  static async open(o: HttpRobotOptions): Promise<HttpRobot> {
    const wire = new Wire({ url: o.url, token: o.token, timeoutMs: o.timeoutMs ?? 10_000 });
    const { value } = await wire.call('GET', '/v1/info', undefined, InfoResponse);
    return new HttpRobot(wire, value, o.skillTimeoutS ?? 300, o.controlPeriodMs ?? CONTROL_PERIOD_MS);
  }

  private constructor(
    private readonly wire: Wire,
    hello: InfoResponse,
    skillTimeoutS: number,
    controlPeriodMs: number,
  ) {
    this.info = toInfo(hello.info);
    this.caps = new Set(hello.info.capabilities);
    this.monitor = new SafetyMonitor(
      wire,
      { noEstop: this.info.estop === 'not_reported', battery: this.caps.has('battery') },
      () => this.sse,
    );
    this.jobs = new SkillJobs(wire, this.monitor, skillTimeoutS, controlPeriodMs, () => this.stream());
    const relations = hello.relations;
    const q = <N extends QueryName>(name: N, args: Record<string, unknown> = {}) => this.query(name, args);
    this.perception = {
      resolve: (name, opts = {}) => q('perception.resolve', { name, ...opts }),
      detect: () => q('perception.detect'),
      distanceTo: (id) => q('perception.distanceTo', { id }),
      distanceBetween: (a, b) => q('perception.distanceBetween', { a, b }),
      objectState: (id) => q('perception.objectState', { id }),
      objectProperties: (id) => q('perception.objectProperties', { id }),
      holding: async () => (await q('perception.holding')) ?? undefined,
      related: (relation, id) => q('perception.related', { relation, id }),
      relations: () => relations,
      snapshot: () => q('perception.snapshot'),
      pose: async (id) => (await q('perception.pose', { id })) ?? undefined,
      referencePoint: async (name) => (await q('perception.referencePoint', { name })) ?? undefined,
      basePose: () => q('perception.basePose'),
    };
    if (this.caps.has('people'))
      this.people = {
        around: () => q('people.around'),
        recognize: () => q('people.recognize'),
        distanceTo: (person) => q('people.distanceTo', { person }),
        handsFree: (person) => q('people.handsFree', { person }),
        gazeAtRobot: (person) => q('people.gazeAtRobot', { person }),
        freePath: (target) => q('people.freePath', { target }),
      };
    if (this.caps.has('camera'))
      this.camera = { picture: (o = {}) => q('camera.picture', o.width !== undefined ? { width: o.width } : {}) };
    if (this.caps.has('world_model'))
      this.worldModel = {
        nodes: async () => (await q('worldModel.nodes')).map(toNode),
        node: async (id) => {
          const n = await q('worldModel.node', { id });
          return n ? toNode(n) : undefined;
        },
        addNode: async (node) => toNode(await q('worldModel.addNode', { ...node })),
        setAttribute: async (id, key, value) => toNode(await q('worldModel.setAttribute', { id, key, value })),
      };
    this.events = {
      since: (lastId) => q('events.since', { lastId }),
      lastId: () => q('events.lastId'),
      subscribe: (l) => {
        this.listeners.add(l);
        void this.stream();
        return () => this.listeners.delete(l);
      },
    };
    // The skills: every group the robot declares, each call a job (interceptSkills builds the methods from SkillCalls).
    const skills = interceptSkills(skillSkeleton(this.info), (call, signal) => this.jobs.run(call, signal));
    if (this.caps.has('arm')) this.arm = { ...skills.arm!, graspPose: (object) => q('arm.graspPose', { object }) };
    if (this.caps.has('base')) this.base = skills.base!;
    if (this.caps.has('rover')) this.rover = skills.rover!;
    if (this.caps.has('speech')) this.speech = skills.speech!;
    this.wait = skills.wait;
  }

  readonly wait: Robot['wait'];

  /**
   * The event stream, opened on the first subscriber, safety read or motion, and
   * kept open: a press on it, or its dropping, stops a motion job in flight.
   * Resolves once it has connected or failed once (bounded by the request timeout).
   */
  private async stream(): Promise<void> {
    if (!this.caps.has('events')) return;
    if (!this.sse) {
      this.sse = new SseClient({
        url: this.wire.opts.url,
        token: this.wire.opts.token,
        connectTimeoutMs: this.wire.opts.timeoutMs,
        onEvent: (e) => {
          if (e.type === 'estop_pressed' || e.type === 'estop_released') this.monitor.streamSaid(e.type);
          this.fan(e);
        },
        onState: () => this.monitor.linkChanged(),
        onRestart: () => this.monitor.restarted(),
      });
      this.sse.start(-1);
    }
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([this.sse.firstAttempt, new Promise((r) => (timer = setTimeout(r, this.wire.opts.timeoutMs)))]);
    clearTimeout(timer);
  }

  private fan(e: RobotEvent): void {
    for (const l of [...this.listeners]) l(e);
  }

  /**
   * One query's answer as a Reading: known (when it was asked) when it is the
   * protocol's shape, unknown naming the first wrong field otherwise. The
   * schemas have no defaults: a field absent, null, NaN or ±Inf where a value
   * is due does not parse. A robot that cannot be reached throws.
   */
  private async read<N extends QueryName>(
    name: N,
    args: Record<string, unknown>,
  ): Promise<Reading<z.output<(typeof QUERIES)[N]['value']>>> {
    if (!name.startsWith('events.')) await this.firstState();
    const schema = z.object({ value: QUERIES[name].value });
    const sentAt = performance.now();
    try {
      const { value } = await this.wire.call('POST', `/v1/query/${name}`, args, schema);
      return known(value.value as z.output<(typeof QUERIES)[N]['value']>, sentAt);
    } catch (e) {
      if (e instanceof RobotConnectionError && e.kind === 'protocol') return unknown(e.message);
      throw e;
    }
  }

  /** A query's value; an answer that did not parse throws, naming the field. */
  private async query<N extends QueryName>(name: N, args: Record<string, unknown>): Promise<z.output<(typeof QUERIES)[N]['value']>> {
    const r = await this.read(name, args);
    if (!r.known) throw new RobotConnectionError(r.why, 'protocol');
    return r.value;
  }

  /**
   * Before the first answer about the world: the robot has reported its state
   * (its e-stop is known). Until then it may not have seen anything yet, so its
   * answers could say "none" for what it has not received: wait (bounded, like
   * rosbridge's start-up) and then say "not received yet" instead.
   */
  private firstState(): Promise<void> {
    this.stateSeen ??= (async () => {
      const until = performance.now() + FIRST_STATE_WAIT_S * 1000;
      for (;;) {
        const r = await this.monitor.read(this.wire.opts.timeoutMs);
        // Declared without an e-stop, or a robot that cannot be asked: nothing more to wait for.
        // A link that is down: the query itself says so.
        if (r.estop === 'not_reported' || r.stated || this.monitor.link().link === 'down' || this.monitor.unanswered) return;
        if (performance.now() >= until) {
          this.stateSeen = undefined; // ask again next time
          throw new RobotConnectionError(
            `not received yet: the robot has reported no state in ${FIRST_STATE_WAIT_S} s (${r.estop.known ? 'e-stop unknown' : r.estop.why}); its answers about the world are not trusted until it does`,
            'protocol',
          );
        }
        await new Promise((r) => setTimeout(r, 100));
      }
    })();
    return this.stateSeen;
  }

  async battery(): Promise<BatteryStatus> {
    const b = await this.query('robot.battery', {});
    if (b.percent < 0 || b.percent > 100)
      throw new RobotConnectionError(
        `the robot answered robot.battery outside the protocol: percent is ${b.percent} (not 0-100)`,
        'protocol',
      );
    return b;
  }

  /**
   * Read from the robot at each call (robot.safety): each reading with its age
   * (the robot's plus the time the answer took); what the robot did not say,
   * said in a form outside the protocol, or said too long ago is unknown or
   * stale, never a default. A robot that declares no e-stop says 'not_reported'.
   */
  async safety(): Promise<SafetyState> {
    await this.stream();
    await this.monitor.read(this.wire.opts.timeoutMs);
    return this.monitor.state();
  }

  time(): Promise<number> {
    return this.query('robot.time', {});
  }

  has(c: Capability): boolean {
    return this.caps.has(c);
  }

  close(): void {
    this.sse?.close();
    this.listeners.clear();
  }
}
