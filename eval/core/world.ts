// Case worlds: each distinct WorldSpec is built once per process (the scene with
// its edits, then the setup actions), snapshotted, and every case that starts
// there restores the snapshot instead of rebuilding (a restore takes a few
// milliseconds, a build a second). Each case gets a fresh SimRobot on the
// restored world, so nothing the robot object keeps (the operator's world-model
// edits) leaks from one case into the next.
import type { Outcome } from '../../robot/robot';
import { SimControl } from '../../robot/sim/control';
import { SimRobot } from '../../robot/sim/sim-robot';
import { builtinScene, isBuiltinScene, resolveSceneData } from '../../scenes/registry';
import type { ResolvedScene } from '../../scenes/resolve';
import type { Scene, SceneObject } from '../../scenes/schema';
import { SimWorld, type NoiseOptions, type WorldSnapshot } from '../../sim/world/sim-world';
import type { LoadedRobot } from '../../scenes/urdf/load';
import { RobotImportError, withImportedRobot } from '../../sim/world/imported-robot';
import type { SceneEdit, SetupStep, WorldSpec } from './case';

/** A case's world cannot be built: a broken case (the scene changed under it, or its setup fails). */
export class CaseWorldError extends Error {
  override name = 'CaseWorldError';
}

export interface CaseWorld {
  world: SimWorld;
  control: SimControl;
  snapshot: WorldSnapshot;
  /** The snapshot's hash: every case starting here starts from this. */
  hash: string;
  buildMs: number;
  /** The scene it was built from (a copy is a fresh world of it, restored to the snapshot). */
  resolved: ResolvedScene;
}

export interface WorldOptions {
  seed: number;
  noise?: Partial<NoiseOptions>;
  /** A described robot in every case's world in place of the scene's own (eval --urdf); never swapped back. */
  robot?: LoadedRobot;
}

/** Applies a scene variant's edits to a copy of the scene data. */
export function editScene(scene: Scene, edits: readonly SceneEdit[]): Scene {
  const s: Scene = structuredClone(scene);
  const obj = (id: string): SceneObject => {
    const o = s.objects.find((x) => x.id === id);
    if (!o) throw new CaseWorldError(`scene ${s.id} has no object "${id}"`);
    return o;
  };
  for (const e of edits) {
    switch (e.kind) {
      case 'event':
        s.events = [...s.events, { at: e.at, event: e.event }];
        break;
      case 'remove':
        obj(e.object);
        s.objects = s.objects.filter((o) => o.id !== e.object && o.on !== e.object && o.in !== e.object);
        break;
      case 'place': {
        const o = obj(e.object);
        o.position = e.position;
        delete o.on;
        delete o.in;
        if (e.on) o.on = e.on;
        if (e.in) o.in = e.in;
        break;
      }
      case 'state':
        obj(e.object).state = { ...(obj(e.object).state ?? {}), ...e.state };
        break;
      case 'robot':
        if (e.at !== undefined) {
          s.robot.at = e.at;
          delete s.robot.pose;
        }
        if (e.battery !== undefined) s.robot.battery.percent = e.battery;
        if (e.drainScale !== undefined) s.robot.battery.drainScale = e.drainScale;
        if (e.docked !== undefined) s.robot.docked = e.docked;
        break;
    }
  }
  return s;
}

async function runSetup(robot: SimRobot, step: SetupStep): Promise<Outcome> {
  const need = <T>(x: T | undefined, what: string): T => {
    if (!x) throw new CaseWorldError(`setup step ${step.do} needs a robot with ${what}`);
    return x;
  };
  switch (step.do) {
    case 'navigate':
      return need(robot.base, 'a base').navigate(step.place);
    case 'pick':
      return need(robot.arm, 'an arm').pick(step.object);
    case 'open':
      return need(robot.arm, 'an arm').setOpen(step.object, true);
    case 'close':
      return need(robot.arm, 'an arm').setOpen(step.object, false);
    case 'switch':
      return need(robot.arm, 'an arm').setSwitch(step.object, step.on);
    case 'perceive':
      return need(robot.arm, 'an arm').perceive();
    case 'undock':
      return need(robot.rover, 'a rover base').undock();
  }
}

export async function buildCaseWorld(spec: WorldSpec, opts: WorldOptions): Promise<CaseWorld> {
  const t0 = performance.now();
  if (!isBuiltinScene(spec.scene)) throw new CaseWorldError(`unknown scene "${spec.scene}"`);
  const base = builtinScene(spec.scene).scene;
  let resolved;
  try {
    resolved = spec.edits.length ? resolveSceneData(editScene(base, spec.edits), `${spec.scene} (${spec.key})`) : builtinScene(spec.scene);
    // The case's world with the described robot: a case it cannot do is scored as that world ends, not run with the scene's.
    if (opts.robot) resolved = withImportedRobot(resolved, opts.robot);
  } catch (e) {
    if (e instanceof CaseWorldError) throw e;
    if (e instanceof RobotImportError) throw new CaseWorldError(`world ${spec.key}: the --urdf robot cannot stand in it: ${e.message}`);
    throw new CaseWorldError(`world ${spec.key}: ${(e as Error).message}`);
  }
  // The case's start is built as written; noise (--noise) acts on the case's own run from there.
  const world = await SimWorld.create(resolved, { seed: opts.seed });
  const control = new SimControl(world);
  const robot = new SimRobot(world);
  for (const step of spec.setup) {
    const o = await runSetup(robot, step);
    if (!o.ok) {
      control.dispose();
      throw new CaseWorldError(`world ${spec.key}: setup ${JSON.stringify(step)} failed (${o.code}): ${o.summary}`);
    }
  }
  if (opts.noise) Object.assign(world.noise, opts.noise);
  const snapshot = control.snapshot();
  return { world, control, snapshot, hash: control.hash(), buildMs: performance.now() - t0, resolved };
}

interface Instance {
  cw: CaseWorld;
  busy: boolean;
  usedAt: number;
}

/**
 * The worlds one process has built, by key. `checkout` shares one world per key
 * (one case at a time); `lease` hands each case in flight its own copy: a key's
 * first copy is built, later ones restore its snapshot into a fresh world of the
 * same scene (checked by hash; a full build where they differ), and idle copies
 * beyond `maxIdle` are dropped, least recently used first.
 */
export class WorldPool {
  private readonly worlds = new Map<string, Promise<CaseWorld>>();
  private readonly sources = new Map<string, Promise<CaseWorld>>();
  private readonly copies = new Map<string, Instance[]>();
  private clock = 0;
  /** Copies made by restoring a snapshot into a fresh world; full builds. */
  readonly made = { restored: 0, built: 0 };

  constructor(private readonly opts: WorldOptions & { maxIdle?: number }) {}

  get(spec: WorldSpec): Promise<CaseWorld> {
    let w = this.worlds.get(spec.key);
    if (!w) {
      w = buildCaseWorld(spec, this.opts);
      this.worlds.set(spec.key, w);
      // A world that failed to build is tried again by the next case (it may have been a transient error).
      w.catch(() => this.worlds.delete(spec.key));
    }
    return w;
  }

  /** Puts the world back to its snapshot and hands out a fresh robot on it. */
  async checkout(spec: WorldSpec): Promise<{ cw: CaseWorld; robot: SimRobot; restoreMs: number }> {
    const cw = await this.get(spec);
    const t0 = performance.now();
    cw.control.restore(cw.snapshot);
    const restoreMs = performance.now() - t0;
    return { cw, robot: new SimRobot(cw.world), restoreMs };
  }

  /** A world of this key for one case alone, restored to the key's snapshot; `release` gives it back. */
  async lease(spec: WorldSpec): Promise<{ cw: CaseWorld; robot: SimRobot; restoreMs: number; release: () => void }> {
    const list = this.copies.get(spec.key) ?? [];
    this.copies.set(spec.key, list);
    let inst = list.find((i) => !i.busy);
    if (inst) inst.busy = true;
    else {
      const known = this.sources.get(spec.key);
      let cw: CaseWorld;
      if (known) cw = await this.copy(spec, await known);
      else {
        const built = buildCaseWorld(spec, this.opts);
        this.sources.set(spec.key, built);
        built.catch(() => this.sources.delete(spec.key));
        cw = await built;
        this.made.built++;
      }
      inst = { cw, busy: true, usedAt: 0 };
      list.push(inst);
    }
    const t0 = performance.now();
    inst.cw.control.restore(inst.cw.snapshot);
    const restoreMs = performance.now() - t0;
    const held = inst;
    return {
      cw: held.cw,
      robot: new SimRobot(held.cw.world),
      restoreMs,
      release: () => {
        held.busy = false;
        held.usedAt = ++this.clock;
        this.trim();
      },
    };
  }

  private async copy(spec: WorldSpec, source: CaseWorld): Promise<CaseWorld> {
    const t0 = performance.now();
    const world = await SimWorld.create(source.resolved, { seed: this.opts.seed, ...(this.opts.noise ? { noise: this.opts.noise } : {}) });
    const control = new SimControl(world);
    control.restore(source.snapshot);
    if (control.hash() === source.hash) {
      this.made.restored++;
      return { ...source, world, control, buildMs: performance.now() - t0 };
    }
    control.dispose();
    this.made.built++;
    return buildCaseWorld(spec, this.opts);
  }

  /** Drops idle copies beyond maxIdle, least recently used first (the snapshot they came from stays). */
  private trim(): void {
    const max = this.opts.maxIdle ?? Infinity;
    const idle: Array<{ list: Instance[]; inst: Instance }> = [];
    for (const list of this.copies.values()) for (const inst of list) if (!inst.busy) idle.push({ list, inst });
    if (idle.length <= max) return;
    idle.sort((a, b) => a.inst.usedAt - b.inst.usedAt);
    for (const { list, inst } of idle.slice(0, idle.length - max)) {
      list.splice(list.indexOf(inst), 1);
      inst.cw.control.dispose();
    }
  }

  /** Worlds alive now (shared and leased). */
  size(): number {
    let n = this.worlds.size;
    for (const list of this.copies.values()) n += list.length;
    return n;
  }

  keys(): string[] {
    return [...this.worlds.keys()];
  }

  async dispose(): Promise<void> {
    const seen = new Set<CaseWorld>();
    for (const w of this.worlds.values()) {
      const cw = await w.catch(() => undefined);
      if (cw) seen.add(cw);
    }
    for (const list of this.copies.values()) for (const i of list) seen.add(i.cw);
    for (const cw of seen) cw.control.dispose();
    this.worlds.clear();
    this.copies.clear();
    this.sources.clear();
  }
}
