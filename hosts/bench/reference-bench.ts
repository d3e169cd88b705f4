// The reference scene measured with one Rapier build in this process (bench sim
// runs it once per build, each in a fresh process): real-time factor of the
// anchors' bare-Rapier rendition, of our full simulation and of bare Rapier
// stepping our simulation's bodies (moving the arm's kinematic links along the
// motion the full simulation's arm makes, so both do the same physics).
// Protocol of performance-anchors.md §1.2: warm up for at least 3 s of wall time (V8 tiers a large wasm module up for
// seconds), then the median of 5 timed windows; every body kept awake.
import { resolveSceneData } from '../../scenes/registry';
import { round } from '../../sim/math';
import { type RAPIER, loadRapier, rapierBuild } from '../../sim/rapier';
import { bodyLayout } from '../../sim/world/body-memory';
import { SimWorld } from '../../sim/world/sim-world';
import { BOX, STACK_TOPS, anchorsWorld, referenceSceneData } from './reference-scene';
import {
  type BenchLength,
  type RobotMotion,
  benchLength,
  fullStepper,
  keepMoving,
  alternatingRatios,
  pairedMeasure,
  recordRobotMotion,
  replayRobotMotion,
} from './steppers';
import { stepBreakdown } from './step-breakdown';
import type { PartClock } from './step-parts';
import { median } from './processes';
import type { ReferenceBench } from './jobs';

export type { ReferenceBench };

const now = () => performance.now();

const cpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

/**
 * Warm-up, then the median rate over timed windows; steps per second. The warm-up
 * lasts until this process has also spent that long on the CPU (its threads
 * included) and the rate has settled: on a busy machine V8's background tier-up
 * needs CPU, not wall time.
 */
const WINDOWS = {
  full: { warmMs: 3000, windowMs: 1000, windows: 5, minSteps: 500, settle: true },
  quick: { warmMs: 500, windowMs: 300, windows: 3, minSteps: 100, settle: false },
  smoke: { warmMs: 5, windowMs: 5, windows: 1, minSteps: 16, settle: false },
} as const;

function measure(step: () => void, length: BenchLength): number {
  const { warmMs, windowMs, windows, minSteps, settle } = WINDOWS[length];
  const run = (ms: number, minSteps: number, minCpuMs = 0): number => {
    let n = 0;
    const t0 = now();
    const c0 = cpuMs();
    let t = t0;
    while (n < minSteps || t - t0 < ms || cpuMs() - c0 < minCpuMs) {
      for (let i = 0; i < 16; i++) step();
      n += 16;
      t = now();
    }
    return (n * 1000) / (t - t0);
  };
  run(warmMs, minSteps, warmMs);
  // Then until the rate settles (tier-up of a large function can take longer than
  // the warm-up on a busy machine): two half-second windows within 5 %, at most 15 s.
  if (settle) {
    const t0 = now();
    let last = run(500, 100);
    for (let next = run(500, 100); Math.abs(next - last) > 0.05 * last && now() - t0 < 15_000; next = run(500, 100)) last = next;
  }
  return median(Array.from({ length: windows }, () => run(windowMs, minSteps)));
}

const BREAKDOWN_MS = { full: 2000, quick: 500, smoke: 5 } as const;
/** Alternating windows of full and bare for the ratio. */
const PAIRS = { full: { pairs: 15, ms: 300 }, quick: { pairs: 7, ms: 100 }, smoke: { pairs: 1, ms: 5 } } as const;

/** One back-and-forth of the arm (keepMoving) from where it stands, recorded for replay. */
function armCycle(sim: SimWorld): RobotMotion {
  const drive = keepMoving(sim);
  let moves = 0;
  return recordRobotMotion(
    sim,
    () => {
      const was = sim.armBusy;
      drive();
      if (!was && sim.armBusy) moves++;
    },
    () => moves >= 2 && !sim.armBusy,
    Math.round(60 / sim.dt),
  );
}

/** Wakes every dynamic body each step: our scene's bodies may sleep, the reference keeps them awake. */
function awake(world: RAPIER.World): () => void {
  const bodies: RAPIER.RigidBody[] = [];
  world.bodies.forEach((b) => {
    if (b.isDynamic()) bodies.push(b);
  });
  return () => {
    for (const b of bodies) b.wakeUp();
  };
}

export async function benchReference(lengthOrQuick: BenchLength | boolean): Promise<ReferenceBench> {
  const length = benchLength(lengthOrQuick);
  const build = rapierBuild();
  const R = await loadRapier(build);

  const anchors = anchorsWorld(R);
  const anchorsSteps = measure(() => anchors.step(), length);
  const anchorsStanding = anchors.stacksStanding();
  anchors.free();

  const sim = await SimWorld.create(resolveSceneData(referenceSceneData(), 'bench/reference'));
  const start = sim.snapshot();
  const tops = STACK_TOPS.map((id) => ({ id, p: sim.pose(id).p }));
  // One back-and-forth of the arm as the full simulation drives it, for bare Rapier to replay.
  const motion = armCycle(sim);
  sim.restore(start);
  const full = fullStepper(sim);
  const move = keepMoving(sim);
  const wake = awake(sim.world);
  const fullStep = (clock?: PartClock) => {
    wake();
    move();
    full(clock);
  };
  const fullSteps = measure(fullStep, length);
  const oursStanding = tops.filter(({ id, p }) => {
    const q = sim.pose(id).p;
    return p.y - q.y < BOX && Math.hypot(q.x - p.x, q.z - p.z) < 0.02;
  }).length;
  // Bare Rapier: the same bodies from the same start, the arm's links moved along the recorded cycle.
  const bare = R.World.restoreSnapshot(start.physics);
  const wakeBare = awake(bare);
  const replay = replayRobotMotion(bare, motion);
  const bareStep = () => {
    wakeBare();
    replay();
    bare.step();
  };
  const bareSteps = measure(bareStep, length);
  const paired = pairedMeasure(fullStep, bareStep, PAIRS[length].pairs, PAIRS[length].ms);
  // The reads as they were (through the API) against the direct ones, in the same rounds.
  const layout = bodyLayout(sim.world);
  const apiStep = (): void => {
    layout!.off = true;
    try {
      fullStep();
    } finally {
      layout!.off = false;
    }
  };
  const reads = layout ? alternatingRatios(bareStep, [fullStep, apiStep], PAIRS[length].pairs, PAIRS[length].ms) : null;
  bare.free();
  // The parts, with the arm still moving and every body awake, as measured (this restores the world at its end).
  const breakdown = stepBreakdown(sim, fullStep, paired, null, BREAKDOWN_MS[length]);
  sim.halt();
  // And with the arm standing still (what this figure compared against before the replay).
  const still = R.World.restoreSnapshot(start.physics);
  const wakeStill = awake(still);
  const stillSteps = measure(() => {
    wakeStill();
    still.step();
  }, length);
  still.free();
  sim.dispose();

  return {
    build,
    version: R.version(),
    bareAnchorsRtf: round(anchorsSteps * (1 / 240), 1),
    fullRtf: round(fullSteps * sim.dt, 1),
    bareRtf: round(bareSteps * sim.dt, 1),
    bareArmStillRtf: round(stillSteps * sim.dt, 1),
    ratio: round(paired.ratio, 3),
    reads: reads ? { direct: round(reads[0]!, 3), api: round(reads[1]!, 3) } : null,
    breakdown,
    stacksStanding: { anchors: anchorsStanding, ours: oursStanding, of: STACK_TOPS.length },
    rssMB: round(process.resourceUsage().maxRSS / 1024, 1),
  };
}
