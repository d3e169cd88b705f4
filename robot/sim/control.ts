// SimControl: what only a simulator can do — feed exogenous events, set the
// battery, pace or read time, snapshot and restore, and read ground truth for
// scoring and display. Hosts, tests and the scorer hold it; tools and workflows
// get only the Robot seam (robot/robot.ts), so nothing a model calls can reach
// the truth behind the robot's perception (the lint keeps agents/ off robot/sim).
import { createRequire } from 'node:module';
import { fromTuple } from '../../sim/math';
import { type NameKind, resolveName } from '../../sim/perception/names';
import { worldFacts } from '../../sim/perception/snapshot';
import { PacedClock } from '../../sim/world/paced-clock';
import type { SimWorld, WorldSnapshot } from '../../sim/world/sim-world';
import type { Vec3Tuple } from '../robot';

// node:crypto loads ~20 internal modules; only hash() needs it, and a one-shot command never calls it.
let cryptoModule: typeof import('node:crypto') | undefined;
const crypto = (): typeof import('node:crypto') =>
  (cryptoModule ??= createRequire(import.meta.url)('node:crypto') as typeof import('node:crypto'));

/** Exogenous inputs a host (UI, tests, CLI scripts, evaluation) can feed the world. */
export type ExternalEvent =
  | { type: 'estop_pressed' }
  | { type: 'estop_released' }
  | { type: 'person_said'; person?: string; text: string }
  | { type: 'object_moved'; object: string; to: Vec3Tuple; by?: string }
  | { type: 'set_battery'; percent: number };

/** An event the world cannot apply (an unknown object, a fixed one, a non-finite position). */
export class SimControlError extends Error {
  override name = 'SimControlError';
}

export class SimControl {
  private clock: PacedClock | undefined;
  private pausedFlag = false;

  constructor(readonly world: SimWorld) {}

  /** Simulated seconds since the scene loaded. */
  time(): number {
    return this.world.time;
  }

  get estop(): boolean {
    return this.world.estop;
  }

  /** Applies an exogenous event now; throws SimControlError naming what is wrong. */
  inject(event: ExternalEvent): void {
    const w = this.world;
    if (event.type === 'object_moved') {
      const e = w.entities.get(event.object);
      if (!e) throw new SimControlError(`cannot move "${event.object}": there is no such object in ${w.scene.scene.id}`);
      if (e.fixed) throw new SimControlError(`cannot move "${event.object}": it is fixed in place (furniture or an appliance)`);
      if (!event.to.every(Number.isFinite))
        throw new SimControlError(`cannot move "${event.object}": the position must be three finite numbers`);
      const [hx, hz] = w.scene.scene.floor.size.map((s) => s / 2) as [number, number];
      const p = fromTuple(event.to);
      if (Math.abs(p.x) > hx || Math.abs(p.z) > hz || p.y < 0 || p.y > 10) {
        throw new SimControlError(
          `cannot move "${event.object}": [${event.to.join(', ')}] is outside the world (x within ±${hx} m, z within ±${hz} m, y 0–10 m)`,
        );
      }
      w.inject({ type: 'object_moved', object: event.object, to: event.to, ...(event.by ? { by: event.by } : {}) });
      return;
    }
    if (event.type === 'set_battery') {
      if (!Number.isFinite(event.percent) || event.percent < 0 || event.percent > 100) {
        throw new SimControlError(`battery percent must be a number from 0 to 100, got ${event.percent}`);
      }
      w.inject(event);
      return;
    }
    if (event.type === 'person_said') {
      w.inject({ type: 'person_said', person: event.person, text: event.text });
      return;
    }
    w.inject(event);
  }

  // ---------------------------------------------------------------- time

  /** Runs the world in wall time from now on (the app); `tick()` steps it. */
  pace(on: boolean): void {
    if (on && !this.clock) {
      this.clock = new PacedClock(this.world);
      this.clock.held = this.pausedFlag;
    }
    if (!on && this.clock) {
      this.clock.stop();
      this.clock = undefined;
    }
  }

  get paced(): boolean {
    return this.clock !== undefined;
  }

  /** Wall-clock speed-up of a paced world (1 = real time). */
  setSpeed(speed: number): void {
    if (this.clock) this.clock.speed = speed;
  }

  /** Steps a paced world up to wall time `nowMs`; a no-op headless. */
  tick(nowMs: number): void {
    this.clock?.tick(nowMs);
  }

  /**
   * Pauses a paced world: no time passes and skills wait until it resumes or is
   * stepped by hand (a teacher freezing the scene to explain it).
   */
  pause(on: boolean): void {
    this.pausedFlag = on;
    if (this.clock) this.clock.held = on;
  }

  get paused(): boolean {
    return this.pausedFlag;
  }

  /** Advances the world by `steps` physics steps now (single-stepping while paused), then wakes waiting skills. */
  step(steps: number): void {
    const n = Math.max(0, Math.min(100_000, Math.floor(steps)));
    for (let i = 0; i < n; i++) this.world.step();
    this.world.notifyTick();
  }

  /** Seconds one physics step advances. */
  get dt(): number {
    return this.world.dt;
  }

  /** Wakes skills waiting for the paced clock, so they see an abort at once. */
  wake(): void {
    this.world.notifyTick();
  }

  // ---------------------------------------------------------------- state

  snapshot(): WorldSnapshot {
    return this.world.snapshot();
  }

  restore(s: WorldSnapshot): void {
    this.world.restore(s);
  }

  /** A short hash of the whole world state (physics and bookkeeping): equal worlds, equal hashes. */
  hash(): string {
    const s = this.world.snapshot();
    return crypto().createHash('sha256').update(s.physics).update(s.state).digest('hex').slice(0, 16);
  }

  // ---------------------------------------------------------------- ground truth (scoring, display)

  /** The semantic facts that hold in the world now, perceived or not. */
  facts(): string[] {
    return worldFacts(this.world);
  }

  /** An operator's name for a thing, resolved among everything in the world (not only what the robot saw). */
  resolve(name: string, kinds?: NameKind[]): { ok: true; id: string } | { ok: false; message: string } {
    const r = resolveName(this.world, name, { ...(kinds ? { kinds } : {}), pool: 'all' });
    return r.ok ? { ok: true, id: r.id } : { ok: false, message: r.message };
  }

  /** What the gripper really holds. */
  holding(): string | undefined {
    return this.world.heldId();
  }

  dispose(): void {
    this.pace(false);
    this.world.dispose();
  }
}
