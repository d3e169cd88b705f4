// Where the time of one full simulation step goes. Each part of a step is timed
// on its own, in a loop, on the benchmark's world (which is restored afterwards):
// the physics step (bare Rapier), the world guard, the pose stream (one frame
// every 1/60 s, so its cost per step is a frame's cost over the steps between
// frames), the robot's link kinematics (run on steps where the arm or base
// moves), the appliance processes (every PROCESS_EVERY steps) and the grasp
// (contact forces at the hand; only while something is held). What is left of
// the full step is the rest (controllers, battery, events, scheduling). The
// belief update is per perception query, not per step: `look` observes once per
// world version, so the first query after a step pays it.
import { round } from '../../sim/math';
import { look } from '../../sim/perception/observe';
import { runProcesses } from '../../sim/world/processes';
import { guardWorld } from '../../sim/world/guard';
import { packPoses, streamEntries } from '../../sim/world/stream';
import { SimWorld } from '../../sim/world/sim-world';

export interface StepBreakdown {
  /** Microseconds per full step, as measured by the benchmark's full-simulation rate. */
  fullUs: number;
  physicsUs: number;
  guardUs: number;
  poseStreamUs: number;
  robotLinksUs: number;
  processesUs: number;
  /** Grasp spring at the hand, per step while an object is held; null when nothing could be picked. */
  graspUs: number | null;
  /** Controllers, battery, events, scheduling: the full step minus the parts above. */
  restUs: number;
  /** One belief update (`look`: the observation the first query after a step makes), microseconds. */
  beliefUpdateUs: number;
}

const now = () => performance.now();

/** Microseconds per call of `fn`, over at least `ms` of wall time and `min` calls. */
export function usPerCall(fn: () => void, ms: number, min: number): number {
  let n = 0;
  const t0 = now();
  let t = t0;
  while (n < min || t - t0 < ms) {
    for (let i = 0; i < 8; i++) fn();
    n += 8;
    t = now();
  }
  return ((t - t0) * 1000) / n;
}

/**
 * Times the parts of a step on `sim` (left restored to how it was). `fullUs` is
 * the benchmark's own figure, measured with the arm moving or not (the links are
 * only recomputed on steps where it moves); `graspUs` comes from graspUs below.
 */
export function stepBreakdown(sim: SimWorld, fullUs: number, armMoving: boolean, graspUs: number | null, ms: number): StepBreakdown {
  const start = sim.snapshot();
  const min = 16;
  const physicsUs = usPerCall(() => sim.world.step(), ms, min);
  const held = sim.heldId();
  const guardUs = usPerCall(() => guardWorld(sim, sim.bounds, held), ms, min);
  const entries = streamEntries(sim);
  const frame = new Float32Array(entries.length * 7);
  const posesEvery = Math.round(1 / 60 / sim.dt);
  const poseStreamUs = usPerCall(() => packPoses(sim, entries, frame), ms, min) / posesEvery;
  const robotLinksUs = usPerCall(() => sim.bodyLinks.apply(sim.body.basePose, sim.body.q, sim.body.opening), ms, min);
  const processesUs = usPerCall(() => runProcesses(sim, sim.dt * SimWorld.PROCESS_EVERY), ms, min) / SimWorld.PROCESS_EVERY;
  sim.restore(start);
  const beliefUpdateUs = usPerCall(
    () => {
      sim.version++;
      look(sim);
    },
    ms,
    min,
  );
  sim.restore(start);
  const parts = physicsUs + guardUs + poseStreamUs + (armMoving ? robotLinksUs : 0) + processesUs;
  const r = (x: number) => round(x, 2);
  return {
    fullUs: r(fullUs),
    physicsUs: r(physicsUs),
    guardUs: r(guardUs),
    poseStreamUs: r(poseStreamUs),
    robotLinksUs: r(robotLinksUs),
    processesUs: r(processesUs),
    graspUs: graspUs === null ? null : r(graspUs),
    restUs: r(Math.max(0, fullUs - parts)),
    beliefUpdateUs: r(beliefUpdateUs),
  };
}

/** The grasp's cost per step: picks something (restoring the world after), null when nothing can be picked. */
export async function graspUs(sim: SimWorld, pickSomething: (sim: SimWorld) => Promise<boolean>, ms: number): Promise<number | null> {
  const start = sim.snapshot();
  try {
    if (!(await pickSomething(sim)) || !sim.grasp) return null;
    const grasp = sim.grasp;
    const tcp = sim.tcp()!;
    const still = { x: 0, y: 0, z: 0 };
    return usPerCall(() => grasp.apply(sim.world, tcp, still, sim.dt), ms, 16);
  } finally {
    sim.restore(start);
  }
}
