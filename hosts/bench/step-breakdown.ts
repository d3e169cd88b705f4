// Where the time of one full simulation step goes. The benchmark's own full step
// runs for a further window with a stopwatch around each part (the physics step,
// the world guard, the controllers, the robot's link kinematics, the grasp, the
// appliance processes and the pose stream; everything else in the step is the
// rest: battery, events, scheduling, labels). Each part's share of that window
// is its share of the step; the microseconds are those shares of the full step
// as measured without the stopwatches, whose own cost is taken out first. The
// physics part of a full step can cost more than bare Rapier stepping the same
// bodies: with the arm moving, Rapier also moves its kinematic links.
//
// Separate from the step: the belief update, once per perception query after a
// step (`look` observes once per world version), and the grasp's cost per step
// while something is held.
import { round } from '../../sim/math';
import { look } from '../../sim/perception/observe';
import type { SimWorld } from '../../sim/world/sim-world';
import { type PartClock, STEP_PARTS, type StepPart } from './step-parts';
import type { PairedMeasure } from './steppers';

export interface StepBreakdown {
  /** Microseconds per full step: median of the full windows that also give the ratio. */
  fullUs: number;
  /** Microseconds per step of bare Rapier stepping the same bodies, from the bare windows of the same pairs. */
  bareUs: number;
  /** The same two in this process's CPU time, and their median ratio per pair (null: the CPU clock was too coarse). */
  fullCpuUs: number;
  bareCpuUs: number;
  cpuRatio: number | null;
  /** Microseconds per full step by part (shares of fullUs). */
  us: Record<StepPart, number>;
  /** Share of the full step by part, 0..1 (sums to 1 but for rounding). */
  share: Record<StepPart, number>;
  /** Grasp spring at the hand, per step while an object is held; null when nothing could be picked. */
  graspHeldUs: number | null;
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

/** Milliseconds by part, filled by the stopwatches while a breakdown runs. */

type Method = (...args: unknown[]) => unknown;

/** Puts a stopwatch around `obj[key]` (an own or inherited method); returns the undo. */
function time(obj: object, key: string, part: StepPart, clock: PartClock): () => void {
  const o = obj as Record<string, unknown>;
  const f = o[key];
  if (typeof f !== 'function') throw new Error(`step breakdown: ${key} is not a method any more; update hosts/bench/step-breakdown.ts`);
  const own = Object.prototype.hasOwnProperty.call(o, key);
  const method = f as Method;
  o[key] = function (this: unknown, ...args: unknown[]): unknown {
    const t0 = now();
    try {
      return method.apply(this, args);
    } finally {
      clock(part, now() - t0);
    }
  };
  return () => {
    if (own) o[key] = f;
    else delete o[key];
  };
}

/** Stopwatches around every part of `sim`'s step; returns the undo. */
function timeParts(sim: SimWorld, clock: PartClock): () => void {
  const undo = [
    time(sim.world, 'step', 'physics', clock),
    time(sim, 'guard', 'guard', clock),
    time(sim['ctl'], 'advance', 'controllers', clock),
    time(sim.bodyLinks, 'apply', 'robotLinks', clock),
  ];
  if (sim.grasp) undo.push(time(sim.grasp, 'apply', 'grasp', clock));
  const hooks = [...sim.processHooks];
  sim.processHooks.splice(
    0,
    hooks.length,
    ...hooks.map((h) => (s: SimWorld, dt: number) => {
      const t0 = now();
      h(s, dt);
      clock('processes', now() - t0);
    }),
  );
  undo.push(() => sim.processHooks.splice(0, sim.processHooks.length, ...hooks));
  return () => undo.forEach((u) => u());
}

/**
 * What a stopwatch adds, milliseconds per timed call: `inside` shows in the part
 * it times, `outside` in the rest; both are taken out. The least of several short
 * windows: being preempted only ever adds time, and an overhead inflated by a
 * busy machine would be subtracted from the parts until a small one read zero.
 */
function stopwatchMs(): { inside: number; outside: number } {
  let best = { inside: Infinity, outside: Infinity };
  for (let w = 0; w < 7; w++) {
    let inside = 0;
    let n = 0;
    const o = { f: () => undefined };
    time(o, 'f', 'rest', (_p, ms) => {
      inside += ms;
      n++;
    });
    const total = usPerCall(() => o.f(), 8, 400) / 1000;
    const inMs = inside / n;
    if (total < best.inside + best.outside) best = { inside: inMs, outside: Math.max(0, total - inMs) };
  }
  return best;
}

/**
 * Runs `step` (one full step as the benchmark's alternating windows timed it
 * against bare Rapier) for `ms` with stopwatches on, and returns where the time went.
 * `step` receives the clock for the parts it runs itself (the pose stream).
 * `sim` is left as it was found except for the steps taken.
 */
export function stepBreakdown(
  sim: SimWorld,
  step: (clock: PartClock) => void,
  measured: PairedMeasure,
  graspHeldUs: number | null,
  ms: number,
): StepBreakdown {
  const total = Object.fromEntries(STEP_PARTS.map((p) => [p, 0])) as Record<StepPart, number>;
  const laps = Object.fromEntries(STEP_PARTS.map((p) => [p, 0])) as Record<StepPart, number>;
  const clock: PartClock = (part, dt) => {
    total[part] += dt;
    laps[part]++;
  };
  const undo = timeParts(sim, clock);
  let steps = 0;
  let wall = 0;
  try {
    const t0 = now();
    do {
      for (let i = 0; i < 16; i++) step(clock);
      steps += 16;
      wall = now() - t0;
    } while (wall < ms || steps < 64);
  } finally {
    undo();
  }
  const watched = STEP_PARTS.reduce((s, p) => s + total[p], 0);
  const watch = stopwatchMs();
  const allLaps = STEP_PARTS.reduce((s, p) => s + laps[p], 0);
  for (const p of STEP_PARTS) total[p] = Math.max(0, total[p] - laps[p] * watch.inside);
  total.rest = Math.max(0, wall - watched - allLaps * watch.outside);
  const sum = STEP_PARTS.reduce((s, p) => s + total[p], 0) || 1;
  const share = Object.fromEntries(STEP_PARTS.map((p) => [p, round(total[p] / sum, 3)])) as Record<StepPart, number>;
  const us = Object.fromEntries(STEP_PARTS.map((p) => [p, round((total[p] / sum) * measured.fullUs, 2)])) as Record<StepPart, number>;
  const start = sim.snapshot();
  const beliefUpdateUs = usPerCall(
    () => {
      sim.version++;
      look(sim);
    },
    Math.min(ms, 300),
    4,
  );
  sim.restore(start);
  return {
    fullUs: round(measured.fullUs, 2),
    bareUs: round(measured.bareUs, 2),
    fullCpuUs: round(measured.fullCpuUs, 2),
    bareCpuUs: round(measured.bareCpuUs, 2),
    cpuRatio: Number.isFinite(measured.cpuRatio) ? round(measured.cpuRatio, 3) : null,
    us,
    share,
    graspHeldUs: graspHeldUs === null ? null : round(graspHeldUs, 2),
    beliefUpdateUs: round(beliefUpdateUs, 2),
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
