// Opens a simulated robot on a scene: the Robot the tools see, and the
// SimControl the host keeps. Hosts (CLI, app, evaluation) and tests use this.
import { phase } from '../../base/phase';
import { loadScene } from '../../scenes/load';
import type { LoadedRobot } from '../../scenes/urdf/load';
import { withImportedRobot } from '../../sim/world/imported-robot';
import { SimWorld, type NoiseOptions } from '../../sim/world/sim-world';
import { SimControl } from './control';
import { SimRobot } from './sim-robot';

export interface OpenOptions {
  seed?: number;
  noise?: Partial<NoiseOptions>;
  /** A robot description to put in the scene in place of its own robot (RobotImportError when it cannot be). */
  robot?: LoadedRobot;
}

export interface OpenedSim {
  robot: SimRobot;
  control: SimControl;
}

export async function openSim(sceneIdOrPath: string, opts: OpenOptions = {}): Promise<OpenedSim> {
  const own = await loadScene(sceneIdOrPath);
  const scene = opts.robot ? withImportedRobot(own, opts.robot) : own;
  phase('scene-loaded');
  const world = await SimWorld.create(scene, {
    ...(opts.seed !== undefined ? { seed: opts.seed } : {}),
    ...(opts.noise ? { noise: opts.noise } : {}),
  });
  return { robot: new SimRobot(world), control: new SimControl(world) };
}

/** The robot alone, for tests and tools that need no host control. */
export async function openSimRobot(sceneIdOrPath: string, opts: OpenOptions = {}): Promise<SimRobot> {
  return (await openSim(sceneIdOrPath, opts)).robot;
}
