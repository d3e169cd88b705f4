// The steppers the simulation benchmarks time: one full step as the app runs it,
// and a driver that keeps the arm moving.
import { jointsFromDeg } from '../../sim/body/arm-kinematics';
import { JointMotion } from '../../sim/body/motion';
import { packPoses, streamEntries } from '../../sim/world/stream';
import type { SimWorld } from '../../sim/world/sim-world';

/**
 * How long each measurement runs: `full` for the figures, `quick` for a rough
 * look, `smoke` only proves every measurement runs (the test suite uses it; its
 * figures mean nothing).
 */
export type BenchLength = 'full' | 'quick' | 'smoke';

/** `quick` as the CLI and the job schema spell it (a boolean) or a length. */
export function benchLength(length: BenchLength | boolean): BenchLength {
  return typeof length === 'boolean' ? (length ? 'quick' : 'full') : length;
}

/**
 * One full step as the app runs it: physics, controllers, grasp, battery, events,
 * appliance processes and a pose frame for the renderer at 60 Hz. Camera queries
 * run on demand (tool calls), so they are measured as perception latency instead.
 */
export function fullStepper(sim: SimWorld): () => void {
  const entries = streamEntries(sim);
  const frame = new Float32Array(entries.length * 7);
  const posesEvery = Math.round(1 / 60 / sim.dt);
  return () => {
    sim.step();
    if (sim.steps % posesEvery === 0) packPoses(sim, entries, frame);
  };
}

/** Keeps the arm (or the base) moving back and forth for the active measurement. */
export function keepMoving(sim: SimWorld): () => void {
  const arm = sim.scene.robot.arm;
  if (arm) {
    const names = Object.keys(arm.postures);
    const a = jointsFromDeg(arm.postures[names[0]!]!);
    const b = jointsFromDeg([
      arm.postures[names[0]!]![0] + 40,
      ...arm.postures[names[0]!]!.slice(1, 3).map((x) => x - 15),
      ...arm.postures[names[0]!]!.slice(3),
    ]);
    let toB = true;
    return () => {
      if (!sim.armBusy) {
        sim.setArmMotion(new JointMotion(sim.body.q!, toB ? b : a, (arm.maxJointSpeed * Math.PI) / 180));
        toB = !toB;
      }
    };
  }
  return () => undefined;
}
