// The Robot seam over the robot HTTP API (skillbridge-robot/1), so every tool,
// workflow, host and evaluation runs on any robot that speaks it. Queries are one
// request each; a skill is a job, long-polled until it ends, and the call's
// AbortSignal cancels it on the robot. Faults keep the seam's contract: a query
// throws a RobotConnectionError naming the cause, a skill returns a failed
// Outcome that says whether it may have run part-way.
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
import { freshness } from '../robot';
import { type SkillCall, describeCall, interceptSkills, skillSkeleton } from '../skills';
import { RobotConnectionError, Wire } from './client';
import { SseClient } from './event-stream';
import { InfoResponse, type Job, JobResponse, QUERIES, type QueryName } from './protocol';

/** Seconds one long-poll for a job waits on the server. */
const POLL_S = 10;
/** How long the first answer about the world waits for the robot's first state (as rosbridge's start-up does). */
const FIRST_STATE_WAIT_S = 3;
/** Seconds a skill may run past its own timeout (the robot's time to finish and report) before it is cancelled. */
export const SKILL_GRACE_S = 10;
const UNKNOWN_STATE = "the robot's state (posture, position, what it holds) is unknown until observed again";

export interface HttpRobotOptions {
  url: string;
  token: string;
  timeoutMs?: number;
  /** The longest a skill may run (waits and questions: their own seconds), before the grace. Default 300 s. */
  skillTimeoutS?: number;
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
  private stateSeen: Promise<void> | undefined;

  static async open(o: HttpRobotOptions): Promise<HttpRobot> {
    const wire = new Wire({ url: o.url, token: o.token, timeoutMs: o.timeoutMs ?? 10_000 });
    const { value } = await wire.call('GET', '/v1/info', undefined, InfoResponse);
    return new HttpRobot(wire, value, o.skillTimeoutS ?? 300);
  }

  private constructor(
    private readonly wire: Wire,
    hello: InfoResponse,
    private readonly skillTimeoutS: number,
  ) {
    this.info = toInfo(hello.info);
    this.caps = new Set(hello.info.capabilities);
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
        if (!this.sse && this.caps.has('events')) {
          this.sse = new SseClient({ url: wire.opts.url, token: wire.opts.token, onEvent: (e) => this.fan(e) });
          this.sse.start(-1);
        }
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

  private fan(e: RobotEvent): void {
    for (const l of [...this.listeners]) l(e);
  }

  private async query<N extends QueryName>(name: N, args: Record<string, unknown>): Promise<z.output<(typeof QUERIES)[N]['value']>> {
    if (name !== 'robot.safety' && !name.startsWith('events.')) await this.firstState();
    const schema = z.object({ value: QUERIES[name].value });
    const { value } = await this.wire.call('POST', `/v1/query/${name}`, args, schema);
    return value.value as z.output<(typeof QUERIES)[N]['value']>;
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
        const s = await this.safety();
        // Declared without an e-stop, or a robot that cannot be asked: nothing more to wait for.
        // A link that is down: the query itself says so.
        if (s.estop.state !== 'unknown' || s.link === 'down' || /does not answer robot\.safety/.test(s.estop.detail ?? '')) return;
        if (performance.now() >= until) {
          this.stateSeen = undefined; // ask again next time
          throw new RobotConnectionError(
            `not received yet: the robot has reported no state in ${FIRST_STATE_WAIT_S} s (${s.estop.detail ?? 'e-stop unknown'}); its answers about the world are not trusted until it does`,
            'protocol',
          );
        }
        await new Promise((r) => setTimeout(r, 100));
      }
    })();
    return this.stateSeen;
  }

  private async skill(call: SkillCall, signal?: AbortSignal): Promise<Outcome> {
    const what = describeCall(call);
    if (signal?.aborted) return { ok: false, code: 'aborted', summary: `${what} was not started: the call was stopped` };
    const limitS = skillLimitS(call, this.skillTimeoutS) + SKILL_GRACE_S;
    const deadline = performance.now() + limitS * 1000;
    const pollS = Math.max(0, Math.min(POLL_S, Math.ceil(limitS)));
    const pollTimeout = pollS * 1000 + this.wire.opts.timeoutMs;
    let job: Job;
    try {
      ({
        value: { job },
      } = await this.wire.call('POST', `/v1/skills/${call.skill}?wait=${pollS}`, call.args, JobResponse, {
        timeoutMs: pollTimeout,
        ...(signal ? { signal } : {}),
      }));
    } catch (e) {
      if (!(e instanceof RobotConnectionError)) throw e;
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
    while (job.status === 'running') {
      const left = (deadline - performance.now()) / 1000;
      if (left <= 0) {
        const cancelled = await this.cancel(job, what);
        return {
          ok: false,
          code: 'timeout',
          summary: `${what} did not end within ${Math.round(limitS - SKILL_GRACE_S)} s (+${SKILL_GRACE_S} s grace) and was cancelled (${cancelled.summary}); ${UNKNOWN_STATE}`,
        };
      }
      try {
        ({
          value: { job },
        } = await this.wire.call(
          'GET',
          `/v1/jobs/${job.id}?wait=${Math.max(0, Math.min(POLL_S, Math.ceil(left)))}`,
          undefined,
          JobResponse,
          {
            timeoutMs: Math.min(POLL_S, Math.ceil(left)) * 1000 + this.wire.opts.timeoutMs,
            ...(signal ? { signal } : {}),
          },
        ));
      } catch (e) {
        if (!(e instanceof RobotConnectionError)) throw e;
        if (e.kind === 'aborted') return this.cancel(job, what);
        return {
          ok: false,
          code: 'skill_failure',
          summary: `lost the robot while ${what} was running (${e.message}); it may have stopped part-way or still be moving; ${UNKNOWN_STATE}`,
        };
      }
    }
    return job.outcome ?? { ok: false, code: 'skill_failure', summary: `the robot ended ${what} without an outcome` };
  }

  private async cancel(job: Job, what: string): Promise<Outcome> {
    try {
      const { value } = await this.wire.call('POST', `/v1/jobs/${job.id}/cancel`, {}, JobResponse, {
        timeoutMs: 5000 + this.wire.opts.timeoutMs,
      });
      if (value.job.outcome) return value.job.outcome;
      return { ok: false, code: 'aborted', summary: `${what} was cancelled; the robot has not confirmed it stopped` };
    } catch (e) {
      return {
        ok: false,
        code: 'aborted',
        summary: `${what} was stopped here, but the cancel did not reach the robot (${(e as Error).message}); it may still be moving`,
      };
    }
  }

  battery(): Promise<BatteryStatus> {
    return this.query('robot.battery', {});
  }

  /**
   * Read from the robot at each call (robot.safety), with the ages it reports
   * plus the time the answer took; a robot that declares no e-stop says
   * 'not_reported', one that cannot be asked is 'unknown'.
   */
  async safety(): Promise<SafetyState> {
    const t0 = performance.now();
    const declared = this.info.estop === 'not_reported';
    const link = this.sse && !this.sse.connected ? 'reconnecting' : 'up';
    let r: z.output<(typeof QUERIES)['robot.safety']['value']>;
    try {
      r = await this.query('robot.safety', {});
    } catch (e) {
      const why = e instanceof RobotConnectionError && e.status === 404 ? 'the robot does not answer robot.safety' : (e as Error).message;
      return {
        estop: declared
          ? { state: 'not_reported', freshness: 'unknown' }
          : { state: 'unknown', freshness: 'unknown', detail: `could not read it (${why})` },
        maxAgeS: 0,
        link: e instanceof RobotConnectionError && e.kind !== 'refused' && e.kind !== 'protocol' ? 'down' : link,
      };
    }
    const took = (performance.now() - t0) / 1000;
    const age = (a: number | undefined) => (a === undefined ? undefined : a + took);
    const estopAge = age(r.estop.ageS);
    const batteryAge = age(r.battery?.ageS);
    return {
      estop: declared
        ? { state: 'not_reported', freshness: 'unknown' }
        : {
            state: r.estop.state === 'not_reported' ? 'unknown' : r.estop.state,
            ...(estopAge !== undefined ? { ageS: estopAge } : {}),
            freshness: freshness(estopAge, r.maxAgeS),
            ...(r.estop.detail
              ? { detail: r.estop.detail }
              : r.estop.state === 'not_reported'
                ? { detail: 'the robot answered not_reported but its info does not declare estop: not_reported' }
                : {}),
          },
      ...(r.battery
        ? {
            battery: {
              ...(r.battery.percent !== undefined ? { percent: r.battery.percent } : {}),
              ...(batteryAge !== undefined ? { ageS: batteryAge } : {}),
              freshness: r.battery.percent === undefined ? 'unknown' : freshness(batteryAge, r.maxAgeS),
            },
          }
        : {}),
      maxAgeS: r.maxAgeS,
      link,
    };
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
