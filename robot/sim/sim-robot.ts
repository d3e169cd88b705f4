// SimRobot: the Robot seam over the physics world. It is a thin adapter: skills,
// perception and physics live in sim/. It adds what a robot API adds in front of
// a real stack: name resolution, capability groups, one action at a time. Hosts
// reach the world itself through SimControl (./control.ts), never through the robot.
import type { ResolvedScene } from '../../scenes/resolve';
import { deg, fromTuple, round, toTuple, v3, yawOf } from '../../sim/math';
import { type Vec3 } from '../../sim/math';
import { armReach } from '../../sim/body/arm-kinematics';
import { describeEvent, type SimEvent } from '../../sim/events';
import { detectObjects } from '../../sim/perception/detection';
import { distanceBetween, distanceToTarget, robotHumanDistance } from '../../sim/perception/distance';
import { resolveName } from '../../sim/perception/names';
import { freePath, gazeAtRobot, handsFree, humansAround, recogniseHumans, servingLocation } from '../../sim/perception/people';
import { QUERY_RELATIONS, objectProperties, objectState, parseRelation, relationQuery, robotHolding } from '../../sim/perception/queries';
import { referencePoint } from '../../sim/perception/references';
import { snapshotFacts } from '../../sim/perception/snapshot';
import { visibleEntityIds } from '../../sim/perception/visibility';
import { setOpen, setSwitch, slice } from '../../sim/skills/appliances';
import { approachPerson, ask, handover, say, wait } from '../../sim/skills/interaction';
import { pick, place, planGrasp } from '../../sim/skills/manipulation';
import { navigate, step } from '../../sim/skills/navigation';
import type { SkillOutcome } from '../../sim/skills/outcome';
import { perceive } from '../../sim/skills/perceive';
import { moveArm, moveTool, nudgeTool } from '../../sim/skills/posture';
import { charge, dock, scan, undock } from '../../sim/skills/rover';
import { type SimOptions, SimWorld } from '../../sim/world/sim-world';
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
  Speech,
  WorldModelApi,
} from '../robot';
import { SimWorldModel } from './world-model';

/** Runs actions one at a time: a second tool call waits for the first to finish. */
class Exclusive {
  private tail: Promise<unknown> = Promise.resolve();
  run<T>(fn: () => Promise<T>): Promise<T> {
    const next = this.tail.then(fn, fn);
    this.tail = next.catch(() => undefined);
    return next;
  }
}

function toEvent(e: SimEvent): RobotEvent {
  const { id, time, type, ...data } = e;
  return { id, time, type, text: describeEvent(e), data: data as Record<string, unknown> };
}

export class SimRobot implements Robot {
  readonly info: RobotInfo;
  readonly perception: Perception;
  readonly arm?: Arm;
  readonly base?: Base;
  readonly rover?: Rover;
  readonly speech: Speech;
  readonly people?: PeoplePerception;
  readonly events: EventSource;
  readonly worldModel: WorldModelApi;
  private readonly caps: Set<Capability>;
  private readonly lock = new Exclusive();

  static async create(scene: ResolvedScene, opts: SimOptions = {}): Promise<SimRobot> {
    return new SimRobot(await SimWorld.create(scene, opts));
  }

  constructor(private readonly sim: SimWorld) {
    const cfg = sim.scene.robot;
    const scene = sim.scene.scene;
    const caps: Capability[] = ['perception', 'speech', 'battery', 'events', 'world_model'];
    if (cfg.arm) caps.push('arm');
    if (cfg.kind !== 'fixed_arm') caps.push('base');
    if (cfg.kind === 'rover') caps.push('rover');
    if (cfg.kind !== 'fixed_arm') caps.push('people');
    if (scene.perception.partialObservability) caps.push('partial_observability');
    this.caps = new Set(caps);
    this.info = {
      id: scene.robot.id,
      name: cfg.title,
      kind: cfg.kind,
      description: cfg.description,
      capabilities: caps,
      scene: { id: scene.id, title: scene.title, notes: scene.notes, userInfo: scene.userInfo, toolSet: scene.toolSet },
      ...(cfg.arm
        ? {
            arm: {
              reachM: round(armReach(sim.bodyLinks.geometry!), 3),
              payloadKg: cfg.arm.payloadKg,
              gripperOpeningM: cfg.arm.gripperMaxOpening,
              postures: Object.keys(cfg.arm.postures),
            },
          }
        : {}),
      ...(cfg.kind !== 'fixed_arm'
        ? { base: { footprintM: [cfg.base.size[0], cfg.base.size[2]], maxSpeedMps: cfg.base.maxSpeed, tucksArmItself: cfg.base.autoTuck } }
        : {}),
      places: scene.locations.map((l) => ({
        id: l.id,
        kind: l.kind,
        title: l.title,
        position: l.pose.position,
        yaw: l.pose.yaw,
        serves: l.serves,
      })),
      referencePositions: scene.referencePositions.map((r) => ({ id: r.id, position: r.position, description: r.description })),
      batteryThresholds: { low: scene.robot.battery.low, critical: scene.robot.battery.critical },
      // The floor, up to 3 m: nothing the robot may reach for lies outside it.
      workspace: {
        min: [-scene.floor.size[0] / 2, 0, -scene.floor.size[1] / 2],
        max: [scene.floor.size[0] / 2, 3, scene.floor.size[1] / 2],
      },
    };
    this.perception = this.makePerception();
    this.speech = {
      say: (text) => this.act(async () => say(sim, text)),
      ask: (q, timeout = 30, signal) => this.act(() => ask(sim, q, timeout, signal ? { signal } : {})),
      listen: (timeout = 30, signal) => this.act(() => ask(sim, '(listening)', timeout, signal ? { signal } : {})),
    };
    if (cfg.arm) this.arm = this.makeArm();
    if (cfg.kind !== 'fixed_arm') this.base = this.makeBase();
    if (cfg.kind === 'rover') {
      this.rover = {
        dock: (signal) => this.act(() => dock(sim, signal ? { signal } : {})),
        undock: (signal) => this.act(() => undock(sim, signal ? { signal } : {})),
        charge: (target, signal) => this.act(() => charge(sim, target, signal ? { signal } : {})),
        scan: (poi, signal) => this.act(() => scan(sim, poi, signal ? { signal } : {})),
      };
    }
    if (this.caps.has('people')) {
      this.people = {
        around: async () => humansAround(sim),
        recognize: async () => recogniseHumans(sim),
        distanceTo: async (p) => robotHumanDistance(sim, p),
        handsFree: async (p) => handsFree(sim, p),
        gazeAtRobot: async (p) => gazeAtRobot(sim, p),
        freePath: async (t) => {
          const r = freePath(sim, t);
          return r.free ? { free: true } : { free: false, obstacle: r.obstacle ?? 'an obstacle' };
        },
      };
    }
    this.events = {
      since: async (id) => sim.events.since(id).map(toEvent),
      lastId: async () => sim.events.lastId,
      subscribe: (l) => sim.events.onEvent((e) => l(toEvent(e))),
    };
    this.worldModel = new SimWorldModel(sim);
  }

  private act(fn: () => Promise<SkillOutcome>): Promise<Outcome> {
    return this.lock.run(fn);
  }

  private makePerception(): Perception {
    const sim = this.sim;
    const po = sim.scene.scene.perception.partialObservability;
    /** What a relation query may answer with: what the robot sees, or knows under partial observability. */
    const pool = (): string[] =>
      po ? [...sim.knowledge.keys(), ...[...sim.entities.values()].filter((e) => e.fixed).map((e) => e.id)] : visibleEntityIds(sim);
    return {
      resolve: async (name, opts = {}) => {
        const r = resolveName(sim, name, { ...(opts.kinds ? { kinds: opts.kinds } : {}), pool: opts.pool ?? 'all' });
        return r.ok ? { ok: true, id: r.id, kind: r.kind } : r;
      },
      detect: async () =>
        detectObjects(sim).map((d) => ({
          id: d.id,
          name: d.name,
          category: d.category,
          distanceM: round(d.distance, 3),
          position: toTuple(roundV(d.position)),
        })),
      distanceTo: async (id) => (sim.people.has(id) ? robotHumanDistance(sim, id) : distanceToTarget(sim, id)),
      distanceBetween: async (a, b) => distanceBetween(sim, a, b),
      objectState: async (id) => objectState(sim, id),
      objectProperties: async (id) => ({ ...objectProperties(sim, id) }),
      holding: async () => robotHolding(sim),
      related: async (relation, id) => {
        const rel = parseRelation(relation);
        if (!rel) throw new Error(`unknown relation "${relation}"; use one of: ${QUERY_RELATIONS.join(', ')}`);
        return relationQuery(sim, rel, id, { pool: pool() });
      },
      relations: () => QUERY_RELATIONS,
      snapshot: async () => snapshotFacts(sim),
      pose: async (id) => {
        if (sim.entities.has(id)) {
          const p = sim.pose(id);
          return { position: toTuple(roundV(p.p)), yawDeg: round(deg(yawOf(p.q)), 1) };
        }
        const person = sim.people.get(id);
        if (person) return { position: toTuple(roundV(person.position)), yawDeg: round(deg(person.yaw), 1) };
        const loc = sim.locations.get(id);
        if (loc) return { position: loc.pose.position, yawDeg: loc.pose.yaw };
        return undefined;
      },
      basePose: async () => {
        const b = sim.body.basePose;
        return { position: toTuple(roundV(b.p)), yawDeg: round(deg(yawOf(b.q)), 2) };
      },
      referencePoint: async (name) => {
        const r = referencePoint(sim, name, (n) => {
          const res = resolveName(sim, n, { kinds: ['object'] });
          return res.ok ? res.id : undefined;
        });
        return r ? { position: toTuple(roundV(r.position)), label: r.label } : undefined;
      },
    };
  }

  private makeArm(): Arm {
    const sim = this.sim;
    const o = (signal?: AbortSignal) => (signal ? { signal } : {});
    return {
      pick: (id, signal) => this.act(() => pick(sim, id, o(signal))),
      place: (target, signal) =>
        this.act(() =>
          place(
            sim,
            target.kind === 'object'
              ? { kind: 'object', id: target.id, ...(target.relation ? { relation: target.relation } : {}) }
              : { kind: 'point', point: fromTuple(target.position), ...(target.label ? { label: target.label } : {}) },
            o(signal),
          ),
        ),
      moveToPosture: (p, signal) => this.act(() => moveArm(sim, p, o(signal))),
      moveTool: (pose, signal) => this.act(() => moveTool(sim, fromTuple(pose.position), pose.tiltDeg, o(signal))),
      nudge: (f, l, u, signal) => this.act(() => nudgeTool(sim, f, l, u, o(signal))),
      graspPose: async (id) => {
        const r = planGrasp(sim, id);
        if (!r.ok) return { ok: false, summary: r.outcome.summary };
        return { ok: true, pose: { position: toTuple(roundV(r.plan.tcp)), tiltDeg: round(deg(Math.PI - r.plan.pitch), 1) } };
      },
      setOpen: (id, open, signal) => this.act(() => setOpen(sim, id, open, o(signal))),
      setSwitch: (id, on, signal) => this.act(() => setSwitch(sim, id, on, o(signal))),
      slice: (id, signal) => this.act(() => slice(sim, id, o(signal))),
      handover: (p, signal) => this.act(() => handover(sim, p, o(signal))),
      perceive: (signal) => this.act(() => perceive(sim, o(signal))),
    };
  }

  private makeBase(): Base {
    const sim = this.sim;
    const o = (signal?: AbortSignal) => (signal ? { signal } : {});
    return {
      navigate: (place, signal) =>
        this.act(async () => {
          if (sim.locations.has(place)) return navigate(sim, { kind: 'location', id: place }, o(signal));
          return { ok: false, code: 'invalid_argument', summary: `no location "${place}"; known: ${[...sim.locations.keys()].join(', ')}` };
        }),
      step: (f, l, t, signal) => this.act(() => step(sim, f, -l, t, o(signal))),
      approach: (target, signal) =>
        this.act(async () => {
          if (sim.people.has(target)) return approachPerson(sim, target, o(signal));
          if (sim.locations.has(target)) return navigate(sim, { kind: 'location', id: target }, o(signal));
          // An object: go to the location that serves it, or that serves what it stands on.
          const serving = sim.entities.has(target) ? servingLocation(sim, target) : undefined;
          if (serving) return navigate(sim, { kind: 'location', id: serving.id }, o(signal));
          return { ok: false, code: 'invalid_argument', summary: `no known place to approach ${target} from` };
        }),
    };
  }

  async battery(): Promise<BatteryStatus> {
    const b = this.sim.battery;
    return { percent: round(b.percent, 1), level: b.level, charging: b.charging, docked: this.sim.body.docked };
  }

  wait(seconds: number, signal?: AbortSignal): Promise<Outcome> {
    return this.act(() => wait(this.sim, seconds, signal ? { signal } : {}));
  }

  async time(): Promise<number> {
    return this.sim.time;
  }

  has(c: Capability): boolean {
    return this.caps.has(c);
  }
}

function roundV(v: Vec3): Vec3 {
  return v3(round(v.x), round(v.y), round(v.z));
}
