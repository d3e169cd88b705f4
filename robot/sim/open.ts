// Opens a simulated robot on a scene: the one call hosts (CLI, app, tests) use.
import { loadScene } from '../../scenes/load';
import type { NoiseOptions } from '../../sim/world/sim-world';
import { SimRobot } from './sim-robot';

export interface OpenOptions {
  seed?: number;
  noise?: Partial<NoiseOptions>;
}

export async function openSimRobot(sceneIdOrPath: string, opts: OpenOptions = {}): Promise<SimRobot> {
  const scene = await loadScene(sceneIdOrPath);
  return SimRobot.create(scene, { ...(opts.seed !== undefined ? { seed: opts.seed } : {}), ...(opts.noise ? { noise: opts.noise } : {}) });
}
