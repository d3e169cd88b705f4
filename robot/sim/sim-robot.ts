// SimRobot: the Robot seam over the physics world. It is a thin adapter: skills,
// perception and physics live in sim/. It adds what a robot API adds in front of
// a real stack: name resolution, capability groups, one action at a time. Hosts
// reach the world itself through SimControl (./control.ts), never through the robot.
import type { ResolvedScene } from '../../scenes/resolve';
import { deg, fromTuple, round, toTuple, v3 } from '../../sim/math';
import { type Vec3 } from '../../sim/math';
import { describeEvent, type SimEvent } from '../../sim/events';
import { isKnown } from '../../sim/perception/believed';
import { look } from '../../sim/perception/observe';
import { servingLocation } from '../../sim/perception/people';
import { actorName } from '../../sim/perception/person-names';
import { visiblePersonIds } from '../../sim/perception/visibility';
import { setOpen, setSwitch, slice } from '../../sim/skills/appliances';
import { observationProblem } from '../../sim/skills/common';
import { approachPerson, ask, handover, say, wait } from '../../sim/skills/interaction';
import { pick, place, planGrasp } from '../../sim/skills/manipulation';
import { navigate, step } from '../../sim/skills/navigation';
import type { SkillOutcome } from '../../sim/skills/outcome';
import { perceive } from '../../sim/skills/perceive';
import { moveArm, moveTool, nudgeGesture, nudgeTool } from '../../sim/skills/posture';
import { charge, dock, scan, undock } from '../../sim/skills/rover';
import { type SimOptions, SimWorld } from '../../sim/world/sim-world';
import { encodePng } from '../../base/png';
import { renderCamera } from '../../sim/perception/render';
import type {
  Arm,
  CameraApi,
  Base,
  BatteryStatus,
  Capability,
  EventSource,
  Outcome,
  PeoplePerception,
  Perception,
  Robot,
  SafetyState,
  RobotEvent,
  RobotInfo,
  Rover,
  Speech,
  WorldModelApi,
} from '../robot';
import { beliefPeople, beliefPerception, personOf } from './perception';
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

/** An event as the robot reports it: a person of the scene named only as the robot knows them (actorName). */
function toEvent(sim: SimWorld, raw: SimEvent): RobotEvent {
  const e: SimEvent =
    raw.type === 'object_moved'
      ? { ...raw, by: actorName(sim, raw.by) }
      : raw.type === 'person_said'
        ? { ...raw, person: actorName(sim, raw.person) }
        : raw;
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
  readonly camera: CameraApi;
  private readonly caps: Set<Capability>;
  private readonly lock = new Exclusive();

  static async create(scene: ResolvedScene, opts: SimOptions = {}): Promise<SimRobot> {
    return new SimRobot(await SimWorld.create(scene, opts));
  }

  constructor(private readonly sim: SimWorld) {
    const cfg = sim.scene.robot;
    const scene = sim.scene.scene;
    const caps: Capability[] = ['perception', 'speech', 'battery', 'events', 'world_model', 'camera'];
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
              reachM: round(sim.kinematics!.reach, 3),
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
    this.perception = beliefPerception(sim);
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
      this.people = beliefPeople(sim);
    }
    this.events = {
      since: async (id) => sim.events.since(id).map((e) => toEvent(sim, e)),
      lastId: async () => sim.events.lastId,
      subscribe: (l) => sim.events.onEvent((e) => l(toEvent(sim, e))),
    };
    this.worldModel = new SimWorldModel(sim);
    // The headless rendering of the simulated camera (sim/perception/render.ts): what it sees, not a photograph.
    this.camera = {
      picture: async (o = {}) => {
        const img = renderCamera(sim, { width: o.width ?? 640 });
        const data = encodePng(img.width, img.height, img.rgb).toString('base64');
        return { mimeType: 'image/png', data, width: img.width, height: img.height, time: img.time };
      },
    };
  }

  private act(fn: () => Promise<SkillOutcome>): Promise<Outcome> {
    return this.lock.run(fn);
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
      gesture: (moves, signal) => this.act(() => nudgeGesture(sim, moves, o(signal))),
      graspPose: async (id) => {
        look(sim);
        const unseen = observationProblem(sim, id);
        if (unseen) return { ok: false, summary: unseen.summary };
        const r = planGrasp(sim, id);
        if (!r.ok) return { ok: false, summary: r.outcome.summary };
        return { ok: true, pose: { position: toTuple(roundV(r.plan.tcp)), tiltDeg: round(deg(Math.PI - r.plan.pitch), 1) } };
      },
      setOpen: (id, open, signal) => this.act(() => setOpen(sim, id, open, o(signal))),
      setSwitch: (id, on, signal) => this.act(() => setSwitch(sim, id, on, o(signal))),
      slice: (id, signal) => this.act(() => slice(sim, id, o(signal))),
      handover: (p, signal) =>
        this.act(async () => {
          // The person by what the robot calls them: a handle, or the id of someone it recognised.
          const id = personOf(sim, p);
          if (!id) return { ok: false, code: 'not_perceived', summary: `${p} is not a person the robot has seen` };
          return handover(sim, id, o(signal));
        }),
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
          const person = personOf(sim, target);
          if (person) {
            if (!visiblePersonIds(sim).includes(person)) return { ok: false, code: 'not_perceived', summary: `${target} is not in view` };
            return approachPerson(sim, person, o(signal));
          }
          if (sim.locations.has(target)) return navigate(sim, { kind: 'location', id: target }, o(signal));
          // An object: go to the location that serves it, or that serves what it stands on.
          if (sim.entities.has(target) && !isKnown(sim, target))
            return { ok: false, code: 'not_perceived', summary: `${target} is not known to the robot` };
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

  /** The simulator knows its own e-stop and battery now: always fresh. */
  async safety(): Promise<SafetyState> {
    return {
      estop: { state: this.sim.estop ? 'pressed' : 'released', ageS: 0, freshness: 'fresh' },
      ...(this.caps.has('battery')
        ? { battery: { percent: round(this.sim.battery.percent, 1), ageS: 0, freshness: 'fresh' as const } }
        : {}),
      maxAgeS: 1,
      link: 'up',
    };
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
