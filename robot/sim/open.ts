// Opens a simulated robot on a scene: the Robot the tools see, and the
// SimControl the host keeps. Hosts (CLI, app, evaluation) and tests use this.
import { loadScene } from '../../scenes/load';
import { SimWorld, type NoiseOptions, type SettledStore } from '../../sim/world/sim-world';
import { SimControl } from './control';
import { SimRobot } from './sim-robot';

export interface OpenOptions {
  seed?: number;
  noise?: Partial<NoiseOptions>;
  /** Settled worlds kept between runs (settled-files.ts): the world is restored at rest instead of stepped there. */
  settled?: SettledStore;
}

export interface OpenedSim {
  robot: SimRobot;
  control: SimControl;
}

export async function openSim(sceneIdOrPath: string, opts: OpenOptions = {}): Promise<OpenedSim> {
  const scene = await loadScene(sceneIdOrPath);
  const world = await SimWorld.create(scene, {
    ...(opts.seed !== undefined ? { seed: opts.seed } : {}),
    ...(opts.noise ? { noise: opts.noise } : {}),
    ...(opts.settled ? { settled: opts.settled } : {}),
  });
  return { robot: new SimRobot(world), control: new SimControl(world) };
}

/** The robot alone, for tests and tools that need no host control. */
export async function openSimRobot(sceneIdOrPath: string, opts: OpenOptions = {}): Promise<SimRobot> {
  return (await openSim(sceneIdOrPath, opts)).robot;
}
