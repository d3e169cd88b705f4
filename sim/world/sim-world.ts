// SimWorld: one physical world built from a scene, stepped at a fixed rate. On
// top of the robot in its scene (robot-scene.ts: bodies, people, the robot's
// body, controllers, grasp and battery) it owns the event queue, the clock and
// the robot's observation buffer. Skills (sim/skills) and perception
// (sim/perception) operate on it.
import type { ResolvedScene } from '../../scenes/resolve';
import type { SceneEvent } from '../../scenes/schema';
import { type Pose, type Vec3, fromTuple, scale, sub, v3 } from '../math';
import { type Rapier, loadRapier } from '../rapier';
import { phase } from '../../base/phase';
import { Rng } from '../rng';
import type { Battery, BatteryLevel } from '../body/battery';
import { Grasp, type GraspState, slipReason } from '../body/grasp';
import { EventQueue, type SimEvent, type SimEventBody } from '../events';
import { Belief, type BeliefState } from './belief';
import { type WorldBounds, guardWorld, worldBounds } from './guard';
import { placeAt, postureOf } from './robot-body';
import { RobotScene } from './robot-scene';
import { runProcesses } from './processes';
import { type SceneStateSnap, applySceneState, captureSceneState } from './snapshot';
import {
  type BodyState,
  DEFAULT_DT,
  NO_NOISE,
  type NoiseOptions,
  type ScanRecord,
  type SimOptions,
  SkillInterrupt,
  type WorldSnapshot,
} from './types';

export * from './types';
export { slipReason };

interface RunState {
  time: number;
  steps: number;
  estop: boolean;
  robot: BodyState;
  battery: ReturnType<Battery['snapshot']>;
  lastBatteryLevel: BatteryLevel;
  events: ReturnType<EventQueue['snapshot']>;
  belief: BeliefState;
  rng: number;
  grasp: GraspState | undefined;
  scene: SceneStateSnap;
  scheduled: Array<{ at: number; event: SceneEvent }>;
  scans: ScanRecord[];
  handedOver: Array<[string, string]>;
}

/** How long a person may take to let an object they moved come to rest, seconds. */
const SETTLE_AFTER_MOVE = 2;

export class SimWorld extends RobotScene {
  readonly events = new EventQueue();
  /** What the robot has perceived (belief.ts): the only source tools and planners read. */
  readonly belief = new Belief();
  /** Plant scans made at points of interest (farm). */
  readonly scans = new Map<string, ScanRecord>();
  /** Objects handed to people: object id -> person id. */
  readonly handedOver = new Map<string, string>();
  readonly rng: Rng;
  readonly noise: NoiseOptions;
  readonly dt: number;
  time = 0;
  steps = 0;
  estop = false;
  /** Hooks run every PROCESS_EVERY steps (appliance effects). */
  readonly processHooks: Array<(sim: SimWorld, dt: number) => void> = [];

  /** Where bodies may be: the floor slab's extent (see guard.ts). */
  readonly bounds: WorldBounds;
  private scheduled: Array<{ at: number; event: SceneEvent }>;
  private lastTcp: Pose | undefined;
  private lastBatteryLevel: BatteryLevel;
  private armMovedThisStep = false;
  private readonly realtimeWaiters = new Set<() => void>();
  /** In paced mode an outside ticker steps the world and skills wait for it. */
  paced = false;

  static readonly PROCESS_EVERY = 24;

  private constructor(R: Rapier, scene: ResolvedScene, opts: SimOptions) {
    const dt = opts.dt ?? DEFAULT_DT;
    super(R, scene, dt);
    this.dt = dt;
    this.rng = new Rng(opts.seed ?? 1);
    this.noise = { ...NO_NOISE, ...(opts.noise ?? {}) };
    this.bounds = worldBounds(scene.scene.floor.size);
    this.lastBatteryLevel = this.battery.level;
    this.scheduled = [...scene.scene.events].sort((a, b2) => a.at - b2.at);
  }

  static async create(scene: ResolvedScene, opts: SimOptions = {}): Promise<SimWorld> {
    const R = await loadRapier();
    const sim = new SimWorld(R, scene, opts);
    sim.processHooks.push(runProcesses);
    phase('world-built');
    // Let everything come to rest so the first observation sees a settled world.
    const settleSteps = Math.round((opts.settle ?? 0.5) / sim.dt);
    for (let i = 0; i < settleSteps; i++) sim.world.step();
    sim.version++;
    phase('settled');
    return sim;
  }

  // ---------------------------------------------------------------- stepping

  /** Where the door controller moves a door (made once: the step passes it every time). */
  private readonly moveDoor = (id: string, value: number): void => this.setDoorValue(this.entity(id), value);

  /** Inside step() (scheduled events and process hooks run there). */
  private stepping = false;

  /** Steps until nothing but the held object moves, at least a few steps (a body just let go has no speed yet), at most `seconds`. */
  private settleNow(seconds: number): void {
    const least = Math.ceil(0.1 / this.dt);
    for (let i = 0; i < Math.ceil(seconds / this.dt) && (i < least || !this.objectsSettled()); i++) this.step();
  }

  /** One fixed physics step with every controller. */
  step(): void {
    this.stepping = true;
    try {
      this.stepOnce();
    } finally {
      this.stepping = false;
    }
  }

  private stepOnce(): void {
    const dt = this.dt;
    const moved = this.estop ? { baseMoved: false, armMoved: false, driven: 0 } : this.ctl.advance(this.body, dt, this.moveDoor);
    const { baseMoved, armMoved, driven } = moved;
    // Labels follow the state: the posture from the joints, the place from the base pose.
    const kin = this.kinematics;
    if (armMoved && kin && this.body.q) this.body.posture = postureOf(kin, this.body.q);
    if (baseMoved) this.updateLocation();
    this.armMovedThisStep = armMoved;
    if (baseMoved || armMoved) this.bodyLinks.apply(this.body.basePose, this.body.q, this.body.opening);
    if (this.grasp) {
      // Read from the link frames the move above placed (or kept, when nothing moved).
      const tcp = this.tcp()!;
      const vel = this.lastTcp ? scale(sub(tcp.p, this.lastTcp.p), 1 / dt) : v3();
      this.lastTcp = tcp;
      const slip = this.grasp.apply(this.world, tcp, vel, dt);
      if (slip) {
        this.lastSlip = slip;
        const id = this.releaseGrasp()!;
        this.post({ type: 'object_dropped', object: id, reason: slipReason(slip) });
      }
    } else {
      this.lastTcp = undefined;
    }
    this.world.step();
    this.guard();
    this.time += dt;
    this.steps++;
    this.version++;
    if (baseMoved) this.body.baseMoves++;
    this.battery.update(dt, driven, armMoved);
    this.checkBattery();
    this.runScheduled();
    if (this.steps % SimWorld.PROCESS_EVERY === 0) {
      for (const hook of this.processHooks) hook(this, dt * SimWorld.PROCESS_EVERY);
    }
  }

  /** Runs the world guard; a fault becomes an event every skill reports. */
  private guard(): void {
    const faults = guardWorld(this, this.bounds, this.heldId());
    if (!faults.length) return;
    for (const f of faults) {
      if (this.isHeld(f.object)) this.releaseGrasp();
      this.post({ type: 'physics_fault', object: f.object, reason: f.reason });
    }
    this.refreshQueries();
  }

  get armMoving(): boolean {
    return this.armMovedThisStep;
  }

  /**
   * Advances the world until `done()` holds. Headless, it steps as fast as it can,
   * yielding now and then so a Stop (AbortSignal) can land; paced, it waits for
   * the realtime ticker. Throws SkillInterrupt on e-stop, abort or timeout.
   */
  async runUntil(done: () => boolean, opts: { signal?: AbortSignal; maxSeconds?: number; ignoreEstop?: boolean } = {}): Promise<void> {
    const limit = this.time + (opts.maxSeconds ?? 120);
    let n = 0;
    while (!done()) {
      if (opts.signal?.aborted) throw new SkillInterrupt('aborted');
      if (this.estop && !opts.ignoreEstop) throw new SkillInterrupt('estop');
      if (this.battery.percent <= 0) throw new SkillInterrupt('battery_empty');
      if (this.time > limit) throw new SkillInterrupt('timeout');
      if (this.paced) {
        await new Promise<void>((resolve) => {
          this.realtimeWaiters.add(resolve);
        });
        continue;
      }
      this.step();
      if (++n % 120 === 0) await yieldToEventLoop();
    }
    if (opts.signal?.aborted) throw new SkillInterrupt('aborted');
  }

  /** Lets simulated time pass (waiting, charging, brewing), skipping ahead while nothing moves. */
  async idle(seconds: number, opts: { signal?: AbortSignal; until?: () => boolean; ignoreEstop?: boolean } = {}): Promise<void> {
    const end = this.time + seconds;
    let n = 0;
    while (this.time < end - 1e-9 && !(opts.until?.() ?? false)) {
      if (opts.signal?.aborted) throw new SkillInterrupt('aborted');
      if (this.estop && !opts.ignoreEstop) throw new SkillInterrupt('estop');
      if (this.paced) {
        await new Promise<void>((resolve) => this.realtimeWaiters.add(resolve));
        continue;
      }
      if (this.isAtRest()) {
        this.fastForward(Math.min(end - this.time, 1.0), opts.until);
      } else {
        this.step();
      }
      if (++n % 120 === 0) await yieldToEventLoop();
    }
  }

  /** True when no controller runs and every dynamic body sleeps. */
  isAtRest(): boolean {
    if (this.ctl.anyBusy || this.grasp) return false;
    let awake = false;
    this.world.forEachActiveRigidBody((b) => {
      if (b.isDynamic()) awake = true;
    });
    return !awake;
  }

  /** Nothing moves but what the hand holds (awake bodies slower than 1 cm/s and 0.1 rad/s count as still). */
  objectsSettled(): boolean {
    let moving = false;
    const held = this.grasp?.body;
    this.world.forEachActiveRigidBody((b) => {
      if (moving || !b.isDynamic() || b.handle === held) return;
      const v = b.linvel();
      const w = b.angvel();
      if (v.x * v.x + v.y * v.y + v.z * v.z > 1e-4 || w.x * w.x + w.y * w.y + w.z * w.z > 1e-2) moving = true;
    });
    return !moving;
  }

  /**
   * Advances time without stepping physics: valid only while everything is at
   * rest. Battery, scheduled events and appliance processes still run.
   */
  private fastForward(seconds: number, until?: () => boolean): void {
    const chunk = this.dt * SimWorld.PROCESS_EVERY;
    let left = seconds;
    while (left > 1e-9) {
      const dt = Math.min(chunk, left);
      this.time += dt;
      left -= dt;
      this.battery.update(dt, 0, false);
      this.checkBattery();
      this.runScheduled();
      for (const hook of this.processHooks) hook(this, dt);
      if (until?.()) return;
      // An event may have woken something (an object moved): resume stepping.
      if (!this.isAtRest()) return;
    }
  }

  /** Called by a realtime ticker after it stepped the world. */
  notifyTick(): void {
    const waiters = [...this.realtimeWaiters];
    this.realtimeWaiters.clear();
    for (const w of waiters) w();
  }

  // ---------------------------------------------------------------- events

  post(body: SimEventBody): SimEvent {
    // Something moved that the robot may not have watched: what it saw inside a storage may be out of date.
    if (body.type === 'object_moved' || body.type === 'object_dropped' || body.type === 'physics_fault') this.belief.noteMissable();
    return this.events.post(body, this.time);
  }

  /** Applies an exogenous event now (from the scene's schedule, the UI or a test). */
  inject(event: SceneEvent): SimEvent | undefined {
    switch (event.type) {
      case 'estop_pressed':
        if (this.estop) return undefined;
        this.estop = true;
        return this.post({ type: 'estop_pressed' });
      case 'estop_released':
        if (!this.estop) return undefined;
        this.estop = false;
        return this.post({ type: 'estop_released' });
      case 'person_said':
        return this.post({ type: 'person_said', person: event.person, text: event.text });
      case 'object_moved': {
        const e = this.entities.get(event.object);
        if (!e || e.fixed) throw new Error(`cannot move "${event.object}": no such movable object`);
        if (this.isHeld(e.id)) this.releaseGrasp();
        this.setDown(e, fromTuple(event.to));
        const posted = this.post({ type: 'object_moved', object: e.id, by: event.by, to: event.to });
        // Between skills a person lets go only once it rests (set down on a round fruit, a bowl
        // rolls off): the world steps until it settles, so the robot never finds it mid-fall.
        // During a skill (inside a step) the skill's own stepping does that.
        if (!this.stepping) this.settleNow(SETTLE_AFTER_MOVE);
        return posted;
      }
      case 'set_battery':
        this.battery.percent = event.percent;
        this.checkBattery();
        return undefined;
    }
  }

  private runScheduled(): void {
    while (this.scheduled.length && this.scheduled[0]!.at <= this.time + 1e-9) {
      this.inject(this.scheduled.shift()!.event);
    }
  }

  private checkBattery(): void {
    const level = this.battery.level;
    if (level !== this.lastBatteryLevel) {
      this.lastBatteryLevel = level;
      this.post({ type: 'battery_threshold', level, percent: this.battery.percent });
    }
  }

  // ---------------------------------------------------------------- snapshots

  snapshot(): WorldSnapshot {
    const state: RunState = {
      time: this.time,
      steps: this.steps,
      estop: this.estop,
      robot: this.body,
      battery: this.battery.snapshot(),
      lastBatteryLevel: this.lastBatteryLevel,
      events: this.events.snapshot(),
      belief: this.belief.snapshot(),
      rng: this.rng.seed,
      grasp: this.grasp?.state,
      scene: captureSceneState(this.entities, this.people),
      scheduled: this.scheduled,
      scans: [...this.scans.values()],
      handedOver: [...this.handedOver],
    };
    return { physics: this.world.takeSnapshot(), state: JSON.stringify(state) };
  }

  restore(s: WorldSnapshot): void {
    const st = JSON.parse(s.state) as RunState;
    this.world.free();
    this.world = this.R.World.restoreSnapshot(s.physics);
    this.bodyLinks.world = this.world;
    this.time = st.time;
    this.steps = st.steps;
    this.estop = st.estop;
    // A label the snapshot left out (undefined: the arm in no named posture) must not keep the value it had before.
    for (const k of Object.keys(this.body)) if (!(k in st.robot)) (this.body as unknown as Record<string, unknown>)[k] = undefined;
    Object.assign(this.body, st.robot);
    this.battery.restore(st.battery);
    this.lastBatteryLevel = st.lastBatteryLevel;
    this.events.restore(st.events);
    this.belief.restore(st.belief);
    this.rng.seed = st.rng;
    this.grasp = st.grasp ? new Grasp(st.grasp) : undefined;
    applySceneState(this.entities, this.people, st.scene);
    this.scheduled = st.scheduled;
    this.scans.clear();
    for (const r of st.scans) this.scans.set(r.poi, r);
    this.handedOver.clear();
    for (const [o, p] of st.handedOver) this.handedOver.set(o, p);
    this.halt();
    this.lastTcp = undefined;
    this.lastSlip = undefined;
    this.version++;
  }

  dispose(): void {
    this.world.free();
  }

  /** Distance from the robot's base centre to a point, on the floor plane. */
  baseDistance(p: Vec3): number {
    const b = this.body.basePose.p;
    return Math.hypot(p.x - b.x, p.z - b.z);
  }

  /** The place the robot stands at, from its base pose (see robot-body.ts). */
  updateLocation(): void {
    this.body.at = placeAt(this.scene.scene.locations, this.body.basePose);
  }
}

function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
