// The steppers the simulation benchmarks time: one full step as the app runs it,
// and a driver that keeps the arm moving.
import { jointsFromDeg } from '../../sim/body/arm-kinematics';
import { JointMotion } from '../../sim/body/motion';
import { PosePacker, streamEntries } from '../../sim/world/stream';
import type { SimWorld } from '../../sim/world/sim-world';
import type { RAPIER } from '../../sim/rapier';
import type { PartClock } from './step-parts';

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
 * With a clock (a step breakdown), the pose frame is timed.
 */
export function fullStepper(sim: SimWorld): (clock?: PartClock) => void {
  const packer = new PosePacker(streamEntries(sim));
  const frame = new Float32Array(packer.entries.length * 7);
  const posesEvery = Math.round(1 / 60 / sim.dt);
  return (clock) => {
    sim.step();
    if (sim.steps % posesEvery === 0) {
      if (!clock) packer.pack(sim, frame);
      else {
        const t0 = performance.now();
        packer.pack(sim, frame);
        clock('poseStream', performance.now() - t0);
      }
    }
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

/** The robot's kinematic bodies' poses after each step of a recorded motion, to replay in a bare world. */
export interface RobotMotion {
  bodies: number[];
  /** Per step, per body: x, y, z, qx, qy, qz, qw. */
  poses: Float32Array;
  steps: number;
}

/**
 * Records what `drive` makes the robot's bodies do over full steps of `sim`
 * until `done()` (at most `maxSteps`; restore `sim` afterwards): bare Rapier
 * stepping the same bodies then moves the same kinematic links the same way, as
 * a bare-engine program would.
 */
export function recordRobotMotion(sim: SimWorld, drive: () => void, done: () => boolean, maxSteps: number): RobotMotion {
  const bodies = [sim.bodyLinks.base, ...Object.values(sim.bodyLinks.arm ?? {})];
  const poses: number[] = [];
  let steps = 0;
  while (steps < maxSteps && (steps === 0 || !done())) {
    drive();
    sim.step();
    steps++;
    for (const h of bodies) {
      const b = sim.world.getRigidBody(h);
      const t = b.translation();
      const q = b.rotation();
      poses.push(t.x, t.y, t.z, q.x, q.y, q.z, q.w);
    }
  }
  return { bodies, poses: Float32Array.from(poses), steps };
}

/** A bare step that first sets the recorded kinematic targets (cycling through the recording). */
export function replayRobotMotion(world: RAPIER.World, motion: RobotMotion): () => void {
  const bodies = motion.bodies.map((h) => world.getRigidBody(h));
  const p = motion.poses;
  let s = 0;
  return () => {
    let i = s * bodies.length * 7;
    for (const b of bodies) {
      b.setNextKinematicTranslation({ x: p[i]!, y: p[i + 1]!, z: p[i + 2]! });
      b.setNextKinematicRotation({ x: p[i + 3]!, y: p[i + 4]!, z: p[i + 5]!, w: p[i + 6]! });
      i += 7;
    }
    s = (s + 1) % motion.steps;
  };
}

/** full against bare from the same alternating windows: what the ratio and the breakdown both rest on. */
export interface PairedMeasure {
  /** Median over pairs of full's rate over bare's, wall time (goal >= 0.9). */
  ratio: number;
  /** The same in this process's CPU time (every thread: GC helpers and the compiler included). */
  cpuRatio: number;
  /** Median microseconds per step in the full windows and the bare windows, wall time. */
  fullUs: number;
  bareUs: number;
  /** The same in CPU time. */
  fullCpuUs: number;
  bareCpuUs: number;
  pairs: number;
}

const cpuMs = (): number => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

function medianOf(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

/**
 * full/bare as the median ratio of alternating short windows of each: on a
 * shared machine the load changes between two long windows far more than
 * within one pair, so the pairs give the ratio of one run. The microseconds per
 * step come from the same windows, so the breakdown and the ratio agree.
 */
export function pairedMeasure(full: () => void, bare: () => void, pairs: number, windowMs: number): PairedMeasure {
  const window = (fn: () => void): { us: number; cpuUs: number } => {
    let n = 0;
    const c0 = cpuMs();
    const t0 = performance.now();
    let t = t0;
    while (n < 32 || t - t0 < windowMs) {
      for (let i = 0; i < 16; i++) fn();
      n += 16;
      t = performance.now();
    }
    return { us: ((t - t0) * 1000) / n, cpuUs: ((cpuMs() - c0) * 1000) / n };
  };
  const f: Array<{ us: number; cpuUs: number }> = [];
  const b: Array<{ us: number; cpuUs: number }> = [];
  for (let i = 0; i < pairs; i++) {
    // Alternate which goes first, so neither always follows the other's cache.
    if (i % 2) {
      b.push(window(bare));
      f.push(window(full));
    } else {
      f.push(window(full));
      b.push(window(bare));
    }
  }
  // A CPU window can read 0 when the clock's tick is coarser than the window: those pairs say nothing of CPU.
  const cpuPairs = f.map((x, i) => [x.cpuUs, b[i]!.cpuUs] as const).filter(([x, y]) => x > 0 && y > 0);
  return {
    ratio: medianOf(f.map((x, i) => b[i]!.us / x.us)),
    cpuRatio: cpuPairs.length ? medianOf(cpuPairs.map(([x, y]) => y / x)) : NaN,
    fullUs: medianOf(f.map((x) => x.us)),
    bareUs: medianOf(b.map((x) => x.us)),
    fullCpuUs: medianOf(f.map((x) => x.cpuUs)),
    bareCpuUs: medianOf(b.map((x) => x.cpuUs)),
    pairs,
  };
}

/**
 * base's rate over each variant's in CPU time, median over rounds of alternating
 * short windows (base, then each variant, the order rotating each round):
 * variants compared within one run under the same load.
 */
export function alternatingRatios(base: () => void, variants: Array<() => void>, rounds: number, windowMs: number): number[] {
  // CPU time of this process: on a loaded machine, waiting for a core does not count.
  const window = (fn: () => void): number => {
    let n = 0;
    const c0 = cpuMs();
    const t0 = performance.now();
    while (n < 32 || performance.now() - t0 < windowMs) {
      for (let i = 0; i < 16; i++) fn();
      n += 16;
    }
    return (cpuMs() - c0) / n;
  };
  const all = [base, ...variants];
  const ratios: number[][] = variants.map(() => []);
  for (let r = 0; r < rounds; r++) {
    const per = new Array<number>(all.length);
    for (let k = 0; k < all.length; k++) {
      const i = (k + r) % all.length;
      per[i] = window(all[i]!);
    }
    for (let v = 0; v < variants.length; v++) ratios[v]!.push(per[0]! / per[v + 1]!);
  }
  return ratios.map(medianOf);
}
