// The Robot seam over the robot HTTP API (skillbridge-robot/1), so every tool,
// workflow, host and evaluation runs on any robot that speaks it. Queries are one
// request each; a skill is a job, long-polled until it ends, and the call's
// AbortSignal cancels it on the robot. Motion only on green: a motion job is
// posted only when a robot.safety answer read just before says the e-stop is
// known, fresh and released (and a declared battery known and fresh) with the
// link up, and while it runs the client reads the robot's safety every control
// period; a press on the event stream, a reading that is not green, the stream
// dropping or the robot restarting cancels the job on the robot at once, and the
// Outcome says why. Faults keep the seam's contract: a query throws a
// RobotConnectionError naming the cause, a skill returns a failed Outcome that
// says whether it may have run part-way.
import { z } from 'zod';
import type {
  Arm,
  Base,
  BatteryStatus,
  Capability,
  EventSource,
  Outcome,
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
import { type SkillCall, describeCall, interceptSkills, isMotion, skillSkeleton } from '../skills';
import { RobotConnectionError, Wire } from './client';
import { SseClient } from './event-stream';
import { InfoResponse, type Job, JobResponse, QUERIES, type QueryName } from './protocol';
import { SafetyMonitor } from './safety-monitor';

/** Seconds one long-poll for a job waits on the server. */
const POLL_S = 10;
/** How long the first answer about the world waits for the robot's first state (as rosbridge's start-up does). */
const FIRST_STATE_WAIT_S = 3;
/** Seconds a skill may run past its own timeout (the robot's time to finish and report) before it is cancelled. */
export const SKILL_GRACE_S = 10;
const UNKNOWN_STATE = "the robot's state (posture, position, what it holds) is unknown until observed again";
/** How often a motion job in flight is judged against the robot's safety, ms: each period asks for a new reading. */
export const CONTROL_PERIOD_MS = 200;
/** How long a cancel is tried again while the robot does not answer, ms. */
const CANCEL_TRY_MS = 5000;

export interface HttpRobotOptions {
  url: string;
  token: string;
  timeoutMs?: number;
  /** The longest a skill may run (waits and questions: their own seconds), before the grace. Default 300 s. */
  skillTimeoutS?: number;
  /** How often a motion job in flight re-reads the robot's safety, ms (default CONTROL_PERIOD_MS). */
  controlPeriodMs?: number;
}

/** How long `call` may run on the robot before it is cancelled, seconds (without the grace). */
function skillLimitS(call: SkillCall, fallback: number): number {
  if (call.skill === 'robot.wait') return call.args.seconds;
  if ((call.skill === 'speech.ask' || call.skill === 'speech.listen') && call.args.timeoutSeconds !== undefined)
    return call.args.timeoutSeconds;
  return fallback;
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
  private readonly caps: Set<Capability>;
  private readonly listeners = new Set<(e: RobotEvent) => void>();
  private sse: SseClient | undefined;
  private readonly monitor: SafetyMonitor;
  private stateSeen: Promise<void> | undefined;

  static async open(o: HttpRobotOptions): Promise<HttpRobot> {
    const wire = new Wire({ url: o.url, token: o.token, timeoutMs: o.timeoutMs ?? 10_000 });
    const { value } = await wire.call('GET', '/v1/info', undefined, InfoResponse);
    return new HttpRobot(wire, value, o.skillTimeoutS ?? 300, o.controlPeriodMs ?? CONTROL_PERIOD_MS);
  }

  private constructor(
    private readonly wire: Wire,
    hello: InfoResponse,
    private readonly skillTimeoutS: number,
    private readonly controlPeriodMs: number,
  ) {
    this.info = toInfo(hello.info);
    this.caps = new Set(hello.info.capabilities);
    this.monitor = new SafetyMonitor(
      wire,
      { noEstop: this.info.estop === 'not_reported', battery: this.caps.has('battery') },
      () => this.sse,
    );
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
    const skills = interceptSkills(skillSkeleton(this.info), (call, signal) => this.skill(call, signal));
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

  private skill(call: SkillCall, signal?: AbortSignal): Promise<Outcome> {
    return isMotion(call.skill) ? this.motion(call, signal) : this.job(call, signal);
  }

  /** What a failed start of a job says, by the kind of fault. */
  private startFailure(e: RobotConnectionError, what: string): Outcome {
    if (e.kind === 'aborted')
      return { ok: false, code: 'aborted', summary: `${what} was stopped while it was being sent; it may have started` };
    if (e.kind === 'refused')
      return {
        ok: false,
        code: e.status === 501 ? 'unsupported' : e.status === 400 ? 'invalid_argument' : 'skill_failure',
        summary: e.message,
      };
    if (e.kind === 'unreachable') return { ok: false, code: 'skill_failure', summary: `${e.message}; ${what} did not start` };
    return {
      ok: false,
      code: 'skill_failure',
      summary: `lost the robot while ${what} was starting or running (${e.message}); it may have stopped part-way or still be moving; ${UNKNOWN_STATE}`,
    };
  }

  /** A job answer that is not the job asked about is not an answer about it. */
  private static sameJob(job: Job, call: SkillCall, id?: string): Reading<Job> {
    if (job.skill !== call.skill) return unknown(`the robot answered about a ${job.skill} job, not ${call.skill}`);
    if (id !== undefined && job.id !== id) return unknown(`the robot answered about job "${job.id}", not "${id}"`);
    return known(job, performance.now());
  }

  /** A skill that does not move the robot (speech, wait): a job, long-polled until it ends. */
  private async job(call: SkillCall, signal?: AbortSignal): Promise<Outcome> {
    const what = describeCall(call);
    if (signal?.aborted) return { ok: false, code: 'aborted', summary: `${what} was not started: the call was stopped` };
    const limitS = skillLimitS(call, this.skillTimeoutS) + SKILL_GRACE_S;
    const deadline = performance.now() + limitS * 1000;
    const pollS = Math.max(0, Math.min(POLL_S, Math.ceil(limitS)));
    let job: Job;
    try {
      job = await this.postJob(call, pollS, signal);
    } catch (e) {
      if (!(e instanceof RobotConnectionError)) throw e;
      return this.startFailure(e, what);
    }
    while (job.status === 'running') {
      const left = (deadline - performance.now()) / 1000;
      if (left <= 0) return this.timedOut(job, what, limitS);
      try {
        job = await this.pollJob(job, call, left, signal);
      } catch (e) {
        if (!(e instanceof RobotConnectionError)) throw e;
        if (e.kind === 'aborted') return this.cancel(job, what);
        return this.lost(job, what, e);
      }
    }
    return job.outcome ?? { ok: false, code: 'skill_failure', summary: `the robot ended ${what} without an outcome` };
  }

  /**
   * A motion skill: posted only on green, then watched every control period
   * while it runs; anything else cancels it on the robot at once.
   */
  private async motion(call: SkillCall, signal?: AbortSignal): Promise<Outcome> {
    const what = describeCall(call);
    if (signal?.aborted) return { ok: false, code: 'aborted', summary: `${what} was not started: the call was stopped` };
    await this.stream();
    await this.monitor.read(this.wire.opts.timeoutMs);
    const blocked = this.monitor.block();
    if (blocked)
      return {
        ok: false,
        code: blocked.pressed ? 'estop' : 'refused',
        summary: `${what} was not sent to the robot: ${blocked.why}`,
        data: { safety: blocked.why },
      };
    // From here on a reading that is not green stops the job, even one that comes while it is being posted.
    const watch = new MotionWatch(this.monitor, this.controlPeriodMs, () => this.wire.opts.timeoutMs);
    try {
      const limitS = skillLimitS(call, this.skillTimeoutS) + SKILL_GRACE_S;
      const deadline = performance.now() + limitS * 1000;
      let job: Job;
      try {
        // wait=0: the job's id comes back at once, so it can be cancelled while it runs. Not cut short by
        // the caller's Stop: a job the robot started must be known to be cancelled.
        job = await this.postJob(call, 0);
      } catch (e) {
        if (!(e instanceof RobotConnectionError)) throw e;
        return this.startFailure(e, what);
      }
      if (signal?.aborted && job.status === 'running') return this.cancel(job, what);
      const both = signal ? AbortSignal.any([signal, watch.signal]) : watch.signal;
      while (job.status === 'running') {
        if (watch.tripped) return this.stopped(job, what, watch.tripped);
        const left = (deadline - performance.now()) / 1000;
        if (left <= 0) return this.timedOut(job, what, limitS);
        try {
          job = await this.pollJob(job, call, left, both);
        } catch (e) {
          if (!(e instanceof RobotConnectionError)) throw e;
          if (watch.tripped) return this.stopped(job, what, watch.tripped);
          if (e.kind === 'aborted') return this.cancel(job, what);
          return this.lost(job, what, e, CANCEL_TRY_MS);
        }
      }
      return job.outcome ?? { ok: false, code: 'skill_failure', summary: `the robot ended ${what} without an outcome` };
    } finally {
      watch.stop();
    }
  }

  private async postJob(call: SkillCall, waitS: number, signal?: AbortSignal): Promise<Job> {
    const { value } = await this.wire.call('POST', `/v1/skills/${call.skill}?wait=${waitS}`, call.args, JobResponse, {
      timeoutMs: waitS * 1000 + this.wire.opts.timeoutMs,
      ...(signal ? { signal } : {}),
    });
    const job = HttpRobot.sameJob(value.job, call);
    if (!job.known)
      throw new RobotConnectionError(`the robot answered POST /v1/skills/${call.skill} outside the protocol: ${job.why}`, 'protocol');
    return job.value;
  }

  private async pollJob(job: Job, call: SkillCall, leftS: number, signal?: AbortSignal): Promise<Job> {
    const waitS = Math.max(0, Math.min(POLL_S, Math.ceil(leftS)));
    const { value } = await this.wire.call('GET', `/v1/jobs/${job.id}?wait=${waitS}`, undefined, JobResponse, {
      timeoutMs: waitS * 1000 + this.wire.opts.timeoutMs,
      ...(signal ? { signal } : {}),
    });
    const next = HttpRobot.sameJob(value.job, call, job.id);
    if (!next.known)
      throw new RobotConnectionError(`the robot answered GET /v1/jobs/${job.id} outside the protocol: ${next.why}`, 'protocol');
    return next.value;
  }

  /** The robot could not be followed: the job may still run there, so it is cancelled (tried, not assumed). */
  private async lost(job: Job, what: string, e: RobotConnectionError, retryMs = 0): Promise<Outcome> {
    const c = await this.cancelOnRobot(job, retryMs);
    return {
      ok: false,
      code: 'skill_failure',
      summary: `lost the robot while ${what} was running (${e.message}); it may have stopped part-way or still be moving (${c.note}); ${UNKNOWN_STATE}`,
    };
  }

  private async timedOut(job: Job, what: string, limitS: number): Promise<Outcome> {
    const cancelled = await this.cancel(job, what);
    return {
      ok: false,
      code: 'timeout',
      summary: `${what} did not end within ${Math.round(limitS - SKILL_GRACE_S)} s (+${SKILL_GRACE_S} s grace) and was cancelled (${cancelled.summary}); ${UNKNOWN_STATE}`,
    };
  }

  /** Stopped by the safety watch: cancelled on the robot, with the reading that stopped it. */
  private async stopped(job: Job, what: string, why: { why: string; pressed: boolean }): Promise<Outcome> {
    const c = await this.cancelOnRobot(job, CANCEL_TRY_MS);
    return {
      ok: false,
      code: why.pressed ? 'estop' : 'aborted',
      summary: `${what} was cancelled on the robot: ${why.why} (${c.note}); ${UNKNOWN_STATE}`,
      data: { safety: why.why, cancelConfirmed: c.confirmed },
    };
  }

  private async cancel(job: Job, what: string): Promise<Outcome> {
    const c = await this.cancelOnRobot(job);
    if (c.outcome) return c.outcome;
    return { ok: false, code: 'aborted', summary: `${what} was stopped here; ${c.note}` };
  }

  /**
   * POST …/cancel; for a motion, tried again each control period while the
   * robot cannot be reached (a restart, a dropped line), for `retryMs` at most.
   */
  private async cancelOnRobot(job: Job, retryMs = 0): Promise<{ confirmed: boolean; note: string; outcome?: Outcome }> {
    const until = performance.now() + retryMs;
    for (;;) {
      try {
        const { value } = await this.wire.call('POST', `/v1/jobs/${job.id}/cancel`, {}, JobResponse, {
          timeoutMs: Math.min(CANCEL_TRY_MS, this.wire.opts.timeoutMs),
        });
        if (value.job.id !== job.id)
          return { confirmed: false, note: `the robot answered the cancel about another job ("${value.job.id}")` };
        if (value.job.status === 'running') return { confirmed: false, note: 'cancel sent; the robot has not confirmed it stopped' };
        return {
          confirmed: true,
          note: `the robot confirmed it ${value.job.status === 'cancelled' ? 'stopped' : value.job.status}`,
          ...(value.job.outcome ? { outcome: value.job.outcome } : {}),
        };
      } catch (e) {
        const err = e instanceof RobotConnectionError ? e : undefined;
        if (err?.status === 404) return { confirmed: false, note: 'the robot no longer knows the job (it restarted or forgot it)' };
        const retry = err && (err.kind === 'unreachable' || err.kind === 'dropped' || err.kind === 'timeout');
        if (!retry || performance.now() >= until)
          return { confirmed: false, note: `the cancel did not reach the robot (${(e as Error).message}); it may still be moving` };
        await new Promise((r) => setTimeout(r, this.controlPeriodMs));
      }
    }
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

/**
 * The watch over a motion job in flight: each control period it judges the last
 * reading (a reading ages between answers, so one that goes stale stops the job
 * within a period) and asks for a new one; every change of the monitor (an
 * answer, a press on the stream, the stream dropping) is judged at once.
 */
class MotionWatch {
  private readonly ctl = new AbortController();
  private readonly timer: ReturnType<typeof setInterval>;
  private readonly off: () => void;
  private reading = false;
  tripped: { why: string; pressed: boolean } | undefined;

  constructor(
    private readonly monitor: SafetyMonitor,
    periodMs: number,
    readTimeoutMs: () => number,
  ) {
    this.off = monitor.onChange(() => this.judge());
    this.timer = setInterval(() => {
      this.judge();
      if (this.tripped || this.reading) return;
      this.reading = true;
      void monitor.read(readTimeoutMs()).finally(() => (this.reading = false));
    }, periodMs);
    this.judge();
  }

  get signal(): AbortSignal {
    return this.ctl.signal;
  }

  private judge(): void {
    if (this.tripped) return;
    const b = this.monitor.block();
    if (!b) return;
    this.tripped = b;
    this.stop();
    this.ctl.abort();
  }

  stop(): void {
    clearInterval(this.timer);
    this.off();
  }
}
