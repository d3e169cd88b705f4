// SimWorld: one physical world built from a scene, stepped at a fixed rate. It
// owns the Rapier world, the scene's entities and people, the robot's body and
// controllers, the battery, the event queue and the robot's observation buffer.
// Skills (sim/skills) and perception (sim/perception) operate on it.
import type { ResolvedScene } from '../../scenes/resolve';
import type { Location, Person, SceneEvent } from '../../scenes/schema';
import { type Aabb, type Pose, type Vec3, dist, fromTuple, qYaw, rad, rotate, scale, sub, v3 } from '../math';
import { type Rapier, type RAPIER, loadRapier } from '../rapier';
import { Rng } from '../rng';
import { type Joints, jointsFromDeg } from '../body/arm-kinematics';
import { Battery, type BatteryLevel } from '../body/battery';
import { Grasp, type GraspState, type SlipReport } from '../body/grasp';
import { type ArmMotion, BaseMotion, type ScalarTrack } from '../body/motion';
import { type LinkPoses, BodyLinks } from '../body/links';
import { EventQueue, type SimEvent, type SimEventBody } from '../events';
import { type Entity, aabbToWorld } from './entity';
import { buildEntity, buildFloor, doorPose, placementPoses } from './build';
import { GROUPS } from './groups';
import { runProcesses } from '../processes';

export const DEFAULT_DT = 1 / 240;

export interface NoiseOptions {
  /** Standard deviation of reported distances, metres. */
  distanceSigma: number;
  /** Probability that a visible object is missed by detection. */
  detectionDropout: number;
  /** Probability that a manipulation skill fails on its own (a fumbled grasp). */
  skillFailureRate: number;
}

export const NO_NOISE: NoiseOptions = { distanceSigma: 0, detectionDropout: 0, skillFailureRate: 0 };

export interface SimOptions {
  seed?: number;
  noise?: Partial<NoiseOptions>;
  dt?: number;
  /** Seconds to let objects settle after building (default 0.5). */
  settle?: number;
}

export type InterruptReason = 'estop' | 'aborted' | 'timeout' | 'battery_empty';

/** Thrown inside skills when motion must stop; skills turn it into a failure outcome. */
export class SkillInterrupt extends Error {
  constructor(readonly reason: InterruptReason) {
    super(
      reason === 'estop'
        ? 'the emergency stop was pressed'
        : reason === 'aborted'
          ? 'the skill was stopped'
          : reason === 'battery_empty'
            ? 'the battery is empty'
            : 'the skill took too long',
    );
    this.name = 'SkillInterrupt';
  }
}

export interface PersonState {
  spec: Person;
  body: number;
  position: Vec3;
  yaw: number;
  gaze: 'robot' | 'away' | Vec3;
  handsFree: boolean;
}

export interface Observation {
  objectId: string;
  /** Surface or container the object was seen on / in. */
  support: string | undefined;
  relation: 'on' | 'in' | undefined;
  position: Vec3;
  time: number;
  /** Base-move counter when seen: after the base moves, the pose is stale. */
  baseMoves: number;
  location: string | undefined;
}

export interface PlantReading {
  plant: string;
  crop: string;
  /** Vegetation index 0..1: higher is healthier. */
  ndvi: number;
  heightCm: number;
  health: 'healthy' | 'stressed' | 'diseased';
}

export interface ScanRecord {
  poi: string;
  time: number;
  readings: PlantReading[];
}

export interface BodyState {
  basePose: Pose;
  q: Joints | undefined;
  opening: number;
  posture: string | undefined;
  docked: boolean;
  /** Counts base motions; observations made before the last one are stale. */
  baseMoves: number;
  at: string | undefined;
}

export interface WorldSnapshot {
  physics: Uint8Array;
  state: string;
}

export class SimWorld {
  world: RAPIER.World;
  readonly entities = new Map<string, Entity>();
  readonly people = new Map<string, PersonState>();
  readonly locations: ReadonlyMap<string, Location>;
  readonly bodyLinks: BodyLinks;
  readonly body: BodyState;
  readonly battery: Battery;
  readonly events = new EventQueue();
  readonly knowledge = new Map<string, Observation>();
  /** Plant scans made at points of interest (farm). */
  readonly scans = new Map<string, ScanRecord>();
  /** Objects handed to people: object id -> person id. */
  readonly handedOver = new Map<string, string>();
  readonly rng: Rng;
  readonly noise: NoiseOptions;
  readonly dt: number;
  time = 0;
  steps = 0;
  /** Bumped whenever the world changes (a step, a moved object, a restore): keys for caches. */
  version = 0;
  estop = false;
  grasp: Grasp | undefined;
  /** The last slip, so the skill that was running can report it. */
  lastSlip: SlipReport | undefined;
  /** Hooks run every PROCESS_EVERY steps (appliance effects). */
  readonly processHooks: Array<(sim: SimWorld, dt: number) => void> = [];
  /** Bodies of every entity collider, for mapping query hits back to ids. */
  readonly colliderOwner = new Map<number, string>();
  /** Poses and sizes are cached per step; perception asks many times per call. */
  private aabbCache = new Map<string, Aabb>();
  private aabbCacheVersion = -1;

  private armMotion: ArmMotion | undefined;
  private baseMotion: BaseMotion | undefined;
  private gripperMotion: ScalarTrack | undefined;
  private readonly doorMotions = new Map<string, ScalarTrack>();
  private scheduled: Array<{ at: number; event: SceneEvent }>;
  private lastTcp: Pose | undefined;
  private lastBatteryLevel: BatteryLevel;
  private armMovedThisStep = false;
  private readonly realtimeWaiters = new Set<() => void>();
  /** In paced mode an outside ticker steps the world and skills wait for it. */
  paced = false;

  static readonly PROCESS_EVERY = 24;

  private constructor(
    readonly R: Rapier,
    readonly scene: ResolvedScene,
    opts: SimOptions,
  ) {
    this.dt = opts.dt ?? DEFAULT_DT;
    this.rng = new Rng(opts.seed ?? 1);
    this.noise = { ...NO_NOISE, ...(opts.noise ?? {}) };
    this.world = new R.World({ x: 0, y: -9.81, z: 0 });
    this.world.timestep = this.dt;
    this.locations = new Map(scene.scene.locations.map((l) => [l.id, l]));
    buildFloor(R, this.world, scene.scene.floor.size);
    const poses = placementPoses(scene);
    for (const spec of scene.objects) {
      const e = buildEntity(R, this.world, spec, poses.get(spec.id)!);
      this.entities.set(e.id, e);
      for (const c of e.colliders) this.colliderOwner.set(c, e.id);
      if (e.door) {
        for (const c of e.door.colliders) this.colliderOwner.set(c, e.id);
        if (e.states.open) this.setDoorValue(e, e.door.openValue, true);
      }
    }
    for (const p of scene.scene.people) this.addPerson(p);
    const startPose = this.startPose();
    this.bodyLinks = new BodyLinks(R, this.world, scene.robot, startPose);
    const rs = scene.scene.robot;
    const arm = scene.robot.arm;
    this.body = {
      basePose: startPose,
      q: arm ? jointsFromDeg(arm.postures[rs.posture]!) : undefined,
      opening: arm ? arm.gripperMaxOpening : 0,
      posture: arm ? rs.posture : undefined,
      docked: rs.docked,
      baseMoves: 0,
      at: rs.at,
    };
    this.bodyLinks.apply(startPose, this.body.q, this.body.opening, true);
    const b = scene.robot.battery;
    this.battery = new Battery(
      { ...b, low: rs.battery.low, critical: rs.battery.critical, drainScale: rs.battery.drainScale },
      rs.battery.percent,
    );
    this.battery.charging = rs.docked;
    this.lastBatteryLevel = this.battery.level;
    this.scheduled = [...scene.scene.events].sort((a, b2) => a.at - b2.at);
  }

  static async create(scene: ResolvedScene, opts: SimOptions = {}): Promise<SimWorld> {
    const R = await loadRapier();
    const sim = new SimWorld(R, scene, opts);
    sim.processHooks.push(runProcesses);
    // Let everything come to rest so the first observation sees a settled world.
    const settleSteps = Math.round((opts.settle ?? 0.5) / sim.dt);
    for (let i = 0; i < settleSteps; i++) sim.world.step();
    sim.version++;
    return sim;
  }

  private startPose(): Pose {
    const rs = this.scene.scene.robot;
    const loc = rs.at ? this.locations.get(rs.at) : undefined;
    const pose = loc?.pose ?? rs.pose!;
    return { p: fromTuple(pose.position), q: qYaw(rad(pose.yaw)) };
  }

  private addPerson(p: Person): void {
    const R = this.R;
    const r = 0.22;
    const half = Math.max(0.1, (p.seated ? p.height * 0.7 : p.height) / 2 - r);
    const pos = fromTuple(p.position);
    const body = this.world.createRigidBody(
      R.RigidBodyDesc.kinematicPositionBased()
        .setTranslation(pos.x, pos.y, pos.z)
        .setRotation(qYaw(rad(p.yaw))),
    );
    const c = this.world.createCollider(
      R.ColliderDesc.capsule(half, r)
        .setTranslation(0, half + r, 0)
        .setCollisionGroups(GROUPS.person),
      body,
    );
    this.colliderOwner.set(c.handle, p.id);
    this.people.set(p.id, {
      spec: p,
      body: body.handle,
      position: pos,
      yaw: rad(p.yaw),
      gaze: Array.isArray(p.gaze) ? fromTuple(p.gaze as [number, number, number]) : (p.gaze as 'robot' | 'away'),
      handsFree: p.handsFree,
    });
  }

  // ---------------------------------------------------------------- geometry

  entity(id: string): Entity {
    const e = this.entities.get(id);
    if (!e) throw new Error(`no entity "${id}"`);
    return e;
  }

  bodyPose(handle: number): Pose {
    const b = this.world.getRigidBody(handle);
    const t = b.translation();
    const r = b.rotation();
    return { p: { x: t.x, y: t.y, z: t.z }, q: { x: r.x, y: r.y, z: r.z, w: r.w } };
  }

  pose(id: string): Pose {
    return this.bodyPose(this.entity(id).body);
  }

  /** World AABB of an entity's main body (doors excluded), cached for this step. */
  aabb(id: string): Aabb {
    if (this.aabbCacheVersion !== this.version) {
      this.aabbCache = new Map();
      this.aabbCacheVersion = this.version;
    }
    let box = this.aabbCache.get(id);
    if (!box) {
      const e = this.entity(id);
      box = aabbToWorld(e.localAabb, this.pose(id));
      this.aabbCache.set(id, box);
    }
    return box;
  }

  doorAabb(id: string): Aabb | undefined {
    const e = this.entity(id);
    return e.door ? aabbToWorld(e.door.localAabb, this.bodyPose(e.door.body)) : undefined;
  }

  /** Receptacle interior in world coordinates. */
  interior(id: string): Aabb | undefined {
    const e = this.entity(id);
    const r = e.spec.receptacle;
    if (!r) return undefined;
    const pose = this.pose(id);
    // A container tipped past its side holds nothing: what was in it has fallen
    // out or is only resting against a wall.
    if (rotate(pose.q, v3(0, 1, 0)).y < 0.5) return undefined;
    const c = r.interior.center;
    const s = r.interior.size;
    return aabbToWorld(
      { min: v3(c[0] - s[0] / 2, c[1] - s[1] / 2, c[2] - s[2] / 2), max: v3(c[0] + s[0] / 2, c[1] + s[1] / 2, c[2] + s[2] / 2) },
      pose,
    );
  }

  /** Support surfaces (table tops) in world coordinates. */
  surfaces(id: string): Aabb[] {
    const e = this.entity(id);
    const pose = this.pose(id);
    return e.spec.surfaces.map((s) =>
      aabbToWorld(
        {
          min: v3(s.center[0] - s.size[0] / 2, s.center[1] - s.size[1] / 2, s.center[2] - s.size[2] / 2),
          max: v3(s.center[0] + s.size[0] / 2, s.center[1] + s.size[1] / 2, s.center[2] + s.size[2] / 2),
        },
        pose,
      ),
    );
  }

  isHeld(id: string): boolean {
    return this.grasp?.objectId === id;
  }

  /** The held object's id (a method, so callers re-read it after awaiting motion). */
  heldId(): string | undefined {
    return this.grasp?.objectId;
  }

  /** Tool centre point and finger poses now. */
  links(): LinkPoses | undefined {
    if (!this.body.q) return undefined;
    return this.bodyLinks.linkPoses(this.body.basePose, this.body.q, this.body.opening).links;
  }

  tcp(): Pose | undefined {
    return this.links()?.tcp;
  }

  // ---------------------------------------------------------------- control

  setArmMotion(m: ArmMotion | undefined): void {
    this.armMotion = m;
  }

  setBaseMotion(m: BaseMotion | undefined): void {
    this.baseMotion = m;
  }

  setGripperMotion(m: ScalarTrack | undefined): void {
    this.gripperMotion = m;
  }

  setDoorMotion(id: string, m: ScalarTrack): void {
    this.doorMotions.set(id, m);
  }

  get armBusy(): boolean {
    return Boolean(this.armMotion && !this.armMotion.done);
  }

  get baseBusy(): boolean {
    return Boolean(this.baseMotion && !this.baseMotion.done);
  }

  get gripperBusy(): boolean {
    return Boolean(this.gripperMotion && !this.gripperMotion.done);
  }

  doorBusy(id: string): boolean {
    const m = this.doorMotions.get(id);
    return Boolean(m && !m.done);
  }

  /** Stops every controller where it is (after an interrupt). */
  halt(): void {
    this.armMotion = undefined;
    this.baseMotion = undefined;
    this.gripperMotion = undefined;
    this.doorMotions.clear();
  }

  setDoorValue(e: Entity, value: number, teleport = false): void {
    if (!e.door) return;
    e.door.value = value;
    const pose = doorPose(this.pose(e.id), e.door, value);
    const b = this.world.getRigidBody(e.door.body);
    if (teleport) {
      b.setTranslation(pose.p, true);
      b.setRotation(pose.q, true);
    } else {
      b.setNextKinematicTranslation(pose.p);
      b.setNextKinematicRotation(pose.q);
    }
  }

  releaseGrasp(): string | undefined {
    const g = this.grasp;
    if (!g) return undefined;
    this.grasp = undefined;
    this.version++;
    const e = this.entities.get(g.objectId);
    if (e) for (const c of e.colliders) this.world.getCollider(c).setCollisionGroups(GROUPS.object);
    return g.objectId;
  }

  attachGrasp(g: Grasp): void {
    this.grasp = g;
    this.version++;
    this.lastSlip = undefined;
    const e = this.entity(g.objectId);
    for (const c of e.colliders) this.world.getCollider(c).setCollisionGroups(GROUPS.held);
  }

  // ---------------------------------------------------------------- stepping

  /** One fixed physics step with every controller. */
  step(): void {
    const dt = this.dt;
    let baseMoved = false;
    let armMoved = false;
    let driven = 0;
    if (!this.estop) {
      if (this.baseMotion && !this.baseMotion.done) {
        this.body.basePose = this.baseMotion.next(dt);
        driven = this.baseMotion.lastStepDistance;
        baseMoved = true;
      }
      if (this.armMotion && !this.armMotion.done) {
        this.body.q = this.armMotion.next(dt);
        armMoved = true;
      }
      if (this.gripperMotion && !this.gripperMotion.done) {
        this.body.opening = this.gripperMotion.next(dt);
        armMoved = true;
      }
      for (const [id, m] of this.doorMotions) {
        const e = this.entities.get(id)!;
        this.setDoorValue(e, m.next(dt));
        if (m.done) this.doorMotions.delete(id);
      }
    }
    this.armMovedThisStep = armMoved;
    let links: LinkPoses | undefined;
    if (baseMoved || armMoved) {
      links = this.bodyLinks.apply(this.body.basePose, this.body.q, this.body.opening);
    }
    if (this.grasp) {
      const tcp = links?.tcp ?? this.tcp()!;
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
    if (this.armBusy || this.baseBusy || this.gripperBusy || this.doorMotions.size || this.grasp) return false;
    let awake = false;
    this.world.forEachActiveRigidBody((b) => {
      if (b.isDynamic()) awake = true;
    });
    return !awake;
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
        const b = this.world.getRigidBody(e.body);
        b.setTranslation(fromTuple(event.to), true);
        b.setLinvel(v3(), true);
        b.setAngvel(v3(), true);
        this.version++;
        return this.post({ type: 'object_moved', object: e.id, by: event.by, to: event.to });
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
    const state = {
      time: this.time,
      steps: this.steps,
      estop: this.estop,
      robot: this.body,
      battery: this.battery.snapshot(),
      lastBatteryLevel: this.lastBatteryLevel,
      events: this.events.snapshot(),
      knowledge: [...this.knowledge.values()],
      rng: this.rng.seed,
      grasp: this.grasp?.state,
      entities: [...this.entities.values()].map((e) => ({ id: e.id, states: e.states, door: e.door?.value, process: e.process })),
      people: [...this.people.values()].map((p) => ({
        id: p.spec.id,
        position: p.position,
        yaw: p.yaw,
        gaze: p.gaze,
        handsFree: p.handsFree,
      })),
      scheduled: this.scheduled,
      scans: [...this.scans.values()],
      handedOver: [...this.handedOver],
    };
    return { physics: this.world.takeSnapshot(), state: JSON.stringify(state) };
  }

  restore(s: WorldSnapshot): void {
    const st = JSON.parse(s.state) as ReturnType<typeof JSON.parse>;
    this.world.free();
    this.world = this.R.World.restoreSnapshot(s.physics);
    this.bodyLinks.world = this.world;
    this.time = st.time;
    this.steps = st.steps;
    this.estop = st.estop;
    Object.assign(this.body, st.robot);
    this.battery.restore(st.battery);
    this.lastBatteryLevel = st.lastBatteryLevel;
    this.events.restore(st.events);
    this.knowledge.clear();
    for (const o of st.knowledge as Observation[]) this.knowledge.set(o.objectId, o);
    this.rng.seed = st.rng;
    this.grasp = st.grasp ? new Grasp(st.grasp as GraspState) : undefined;
    for (const es of st.entities as Array<{ id: string; states: Entity['states']; door?: number; process: Entity['process'] }>) {
      const e = this.entities.get(es.id)!;
      e.states = es.states;
      e.process = es.process;
      if (e.door && es.door !== undefined) e.door.value = es.door;
    }
    for (const ps of st.people as Array<{ id: string; position: Vec3; yaw: number; gaze: PersonState['gaze']; handsFree: boolean }>) {
      Object.assign(this.people.get(ps.id)!, ps);
    }
    this.scheduled = st.scheduled;
    this.scans.clear();
    for (const r of st.scans as ScanRecord[]) this.scans.set(r.poi, r);
    this.handedOver.clear();
    for (const [o, p] of st.handedOver as Array<[string, string]>) this.handedOver.set(o, p);
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

  /** Hands a new location label to the robot if it now stands at one. */
  updateLocation(): void {
    let best: { id: string; d: number } | undefined;
    for (const l of this.locations.values()) {
      const d = dist(fromTuple(l.pose.position), this.body.basePose.p);
      if (d < 0.35 && (!best || d < best.d)) best = { id: l.id, d };
    }
    this.body.at = best?.id;
  }
}

export function slipReason(s: SlipReport): string {
  return s.kind === 'torque'
    ? `it twisted out of the fingers: holding it needed about ${s.needed.toFixed(2)} Nm but the grip holds ${s.limit.toFixed(2)} Nm`
    : `it slipped from the fingers: it weighs ${s.massKg.toFixed(2)} kg (${(s.massKg * 9.81).toFixed(1)} N) and the gripper holds ${(s.limit / 9.81 / 1.15).toFixed(2)} kg`;
}

function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
