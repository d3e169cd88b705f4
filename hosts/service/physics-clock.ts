// A session's physics clock and world settings: paused or running, its speed,
// single steps while paused, and the seed and noise the next scene load uses.
// They outlive a scene: a newly loaded world starts at the same speed and pause.
import { AppApiError, type Request, type Response } from '../../contract/api';
import type { AppEvent } from '../../contract/schemas';
import type { WorldSettings } from '../../contract/teaching';
import type { SimControl } from '../../robot/sim/control';

export interface ClockHooks {
  /** Whether the world runs at the wall clock's pace (the app); only then can it be paused. */
  paced: boolean;
  control: () => SimControl | undefined;
  emit: (e: AppEvent) => void;
  /** After single steps: send the new poses at once. */
  published: () => void;
  seed: number;
}

export class PhysicsClock {
  private speed = 1;
  private paused = false;
  private settings: WorldSettings;

  constructor(private readonly hooks: ClockHooks) {
    this.settings = { seed: hooks.seed, noise: { distanceSigma: 0, detectionDropout: 0, skillFailureRate: 0 } };
  }

  get paced(): boolean {
    return this.hooks.paced;
  }

  /** Seed and noise for the next world. */
  get world(): WorldSettings {
    return this.settings;
  }

  /** A new world joins at the clock's speed and pause, and the page hears of it. */
  adopt(control: SimControl): void {
    control.setSpeed(this.speed);
    control.pause(this.paused);
  }

  state(): Response<'getSimState'> {
    const c = this.hooks.control();
    return { paused: this.paused, time: c?.time() ?? 0, speed: this.speed, dt: c?.dt ?? 1 / 240 };
  }

  announce(): Response<'getSimState'> {
    const state = this.state();
    this.hooks.emit({ type: 'sim_state', state });
    return state;
  }

  setSpeed(req: Request<'setSpeed'>): Response<'setSpeed'> {
    this.speed = req.factor;
    this.hooks.control()?.setSpeed(req.factor);
    this.announce();
    return { factor: this.speed };
  }

  setPaused(req: Request<'setPaused'>): Response<'setPaused'> {
    if (!this.hooks.paced && req.paused) throw new AppApiError('unsupported', 'only a paced world (the app) can be paused');
    this.paused = req.paused;
    this.hooks.control()?.pause(req.paused);
    return this.announce();
  }

  step(control: SimControl, req: Request<'stepPhysics'>): Response<'stepPhysics'> {
    if (!this.paused) throw new AppApiError('busy', 'the physics is running: pause it before stepping');
    control.step(req.steps);
    this.hooks.published();
    return this.announce();
  }

  getSettings(): WorldSettings {
    return structuredClone(this.settings);
  }

  setSettings(req: WorldSettings): WorldSettings {
    this.settings = structuredClone(req);
    return structuredClone(this.settings);
  }
}
