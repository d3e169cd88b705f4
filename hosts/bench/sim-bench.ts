// The simulation benchmark (skillbridge bench sim). Per scene: steps per second
// and real-time factor of the full simulation (controllers, battery, appliance
// processes and the pose stream at 60 Hz) and of bare
// Rapier stepping the same bodies, their ratio, one pick-and-place in wall time,
// perception query latency, snapshot/restore time and peak memory. Each scene runs
// in a fresh process (its peak memory is its own), and the reference scene of the
// performance anchors compares our stack with bare Rapier, scalar and SIMD builds.
// Figures, not assertions: the targets are printed beside them.
import { listScenes, builtinScene } from '../../scenes/registry';
import { round } from '../../sim/math';
import { pick, place } from '../../sim/skills/manipulation';
import { navigate } from '../../sim/skills/navigation';
import { perceive } from '../../sim/skills/perceive';
import { geoObjects } from '../../sim/perception/geo';
import { supportOf } from '../../sim/perception/relations';
import { SimWorld } from '../../sim/world/sim-world';
import { DEFAULT_RAPIER_BUILD, type RapierBuild } from '../../sim/rapier';
import {
  REFERENCE,
  type ReferenceBench,
  type SceneBench,
  memoryInFreshProcess,
  referenceInFreshProcess,
  sceneInFreshProcess,
} from './jobs';
import { graspUs, stepBreakdown } from './step-breakdown';
import { PERCEPTION_TARGET, benchPerception } from './perception-bench';
import { type BenchLength, benchLength, fullStepper, keepMoving, pairedMeasure } from './steppers';

export { type BenchLength, fullStepper, keepMoving };

export type { SceneBench };

export interface SimBenchResult {
  node: string;
  platform: string;
  cpus: number;
  targets: Record<string, string>;
  /** false: every scene ran in this process, one after another, so rssMB is cumulative. */
  freshProcessPerScene: boolean;
  scenes: SceneBench[];
  /** The reference scene once per Rapier build, default build first; absent when not asked for. */
  reference?: { defaultBuild: RapierBuild; builds: ReferenceBench[] };
  /** One-minute load average when the run started and ended (other work on the machine moves every figure). */
  loadAvg: { start: number; end: number };
  /** full/bare against its goal: the reference scene's default build and every scene, ALRM scenes marked. */
  ratioGoal: RatioGoal;
}

/** One row of the full/bare goal: wall-time ratio (what the goal reads) and CPU-time ratio of the same windows. */
export interface RatioRow {
  id: string;
  /** A scene the ALRM tool set runs on (its tool sets include "alrm"). */
  alrm: boolean;
  ratio: number;
  cpuRatio: number | null;
  met: boolean;
}

export interface RatioGoal {
  goal: number;
  rows: RatioRow[];
  /** Every ALRM scene and the reference scene (when measured) at or above the goal. */
  allMet: boolean;
}

export const RATIO_GOAL = 0.9;

/** The goal rows of a run: the reference scene's default build first, then every scene. */
export function ratioGoal(scenes: SceneBench[], reference: SimBenchResult['reference']): RatioGoal {
  const alrm = new Set(
    listScenes()
      .filter((s) => s.toolSets.includes('alrm'))
      .map((s) => s.id),
  );
  const row = (id: string, isAlrm: boolean, ratio: number, cpuRatio: number | null): RatioRow => ({
    id,
    alrm: isAlrm,
    ratio,
    cpuRatio,
    met: ratio >= RATIO_GOAL,
  });
  const ref = reference?.builds.find((b) => b.build === reference.defaultBuild);
  const rows = [
    ...(ref ? [row(`${REFERENCE} (${ref.build})`, false, ref.ratio, ref.breakdown.cpuRatio)] : []),
    ...scenes.map((s) => row(s.id, alrm.has(s.id), s.ratio, s.breakdown.cpuRatio)),
  ];
  return { goal: RATIO_GOAL, rows, allMet: rows.filter((r) => r.alrm || r.id.startsWith(REFERENCE)).every((r) => r.met) };
}

export interface SimBenchOptions {
  /** Scene ids; "reference" stands for the reference scene. Default: every scene and the reference. */
  scenes?: string[];
  quick?: boolean;
  /** Overrides `quick`: 'smoke' only proves every measurement runs. */
  length?: BenchLength;
  /** Measure every scene in this process instead of one fresh process each (faster; memory figures accumulate). */
  inProcess?: boolean;
  onProgress?: (line: string) => void;
}

export { REFERENCE };

const now = () => performance.now();

function percentile(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? 0;
}

function median(xs: number[]): number {
  return percentile(xs, 50);
}

/** Steps `fn` for at least `ms` of wall time and `minSteps` steps; returns steps per second. */
function rate(fn: () => void, ms: number, minSteps: number): number {
  let n = 0;
  const t0 = now();
  let t = t0;
  while (n < minSteps || t - t0 < ms) {
    for (let i = 0; i < 64; i++) fn();
    n += 64;
    t = now();
  }
  return (n * 1000) / (t - t0);
}

/** Picks the first object it can (for timing the grasp); false when none can be picked. */
async function pickAny(sim: SimWorld): Promise<boolean> {
  if (!sim.scene.robot.arm) return false;
  const start = sim.snapshot();
  for (const e of sim.entities.values()) {
    if (e.fixed || !e.spec.properties.pickable || e.spec.receptacle || e.spec.grasp?.part) continue;
    if ((await pick(sim, e.id)).ok) return true;
    sim.restore(start);
  }
  return false;
}

export async function pickPlaceOnce(sim: SimWorld): Promise<{ ms: number; what: string } | null> {
  if (!sim.scene.robot.arm) return null;
  const all = geoObjects(sim);
  const cands = [...sim.entities.values()]
    .filter((e) => !e.fixed && e.spec.properties.pickable && !e.spec.receptacle && !e.spec.grasp?.part)
    .map((e) => e.id);
  for (const id of cands) {
    const support = supportOf(
      all.find((g) => g.id === id)!,
      all,
    );
    if (!support) continue;
    const snap = sim.snapshot();
    const t0 = now();
    const a = await pick(sim, id);
    if (!a.ok) {
      sim.restore(snap);
      continue;
    }
    const b = await place(sim, { kind: 'object', id: support.id });
    const ms = now() - t0;
    if (b.ok) return { ms, what: `pick ${id} and place it ${support.relation} ${support.id}` };
    sim.restore(snap);
  }
  return null;
}

/** Mobile robots start where no table is in reach: go to the first served location (and look). */
export async function prepare(sim: SimWorld): Promise<void> {
  if (sim.scene.robot.kind !== 'mobile_manipulator') return;
  const loc = [...sim.locations.values()].find((l) => l.serves.some((s) => sim.entities.get(s)?.spec.surfaces.length));
  if (loc && sim.body.at !== loc.id) await navigate(sim, { kind: 'location', id: loc.id });
  await perceive(sim);
  if (sim.scene.robot.arm?.postures['home']) {
    const { moveArm } = await import('../../sim/skills/posture');
    await moveArm(sim, sim.scene.robot.arm.postures['transport'] ? 'transport' : 'home');
  }
}

const LENGTHS = {
  full: { warmMs: 2500, measureMs: 2000, minSteps: 1000, pickRuns: 5, samples: 1000, snaps: 20, partMs: 1000, pairs: 15, pairMs: 200 },
  quick: { warmMs: 300, measureMs: 400, minSteps: 1000, pickRuns: 2, samples: 200, snaps: 5, partMs: 300, pairs: 7, pairMs: 100 },
  smoke: { warmMs: 5, measureMs: 10, minSteps: 64, pickRuns: 1, samples: 14, snaps: 1, partMs: 2, pairs: 1, pairMs: 2 },
} as const;

export async function benchScene(id: string, length: BenchLength | boolean): Promise<SceneBench> {
  const L = LENGTHS[benchLength(length)];
  const { warmMs, measureMs } = L;
  const sim = await SimWorld.create(builtinScene(id));
  await prepare(sim);
  const start = sim.snapshot();

  // Full simulation, robot idle.
  const full = fullStepper(sim);
  rate(full, warmMs, L.minSteps / 2);
  const stepsPerSecond = rate(full, measureMs, L.minSteps);

  // Bare Rapier: the same bodies, restored from the same snapshot, nothing else.
  const bare = sim.R.World.restoreSnapshot(start.physics);
  rate(() => bare.step(), warmMs / 2, L.minSteps / 2);
  const bareSteps = rate(() => bare.step(), measureMs, L.minSteps);
  const paired = pairedMeasure(full, () => bare.step(), L.pairs, L.pairMs);
  bare.free();

  // Full simulation with the arm moving.
  sim.restore(start);
  const move = keepMoving(sim);
  const activeSteps = rate(
    () => {
      move();
      full();
    },
    measureMs,
    L.minSteps,
  );
  sim.halt();

  // Pick and place: one warm-up, then the median of a few.
  sim.restore(start);
  const pp: number[] = [];
  let what: string | null = null;
  const runs = L.pickRuns;
  for (let i = 0; i < runs + 1; i++) {
    sim.restore(start);
    const r = await pickPlaceOnce(sim);
    if (!r) break;
    what = r.what;
    if (i > 0) pp.push(r.ms);
  }

  // Perception queries, about what the robot knows of (tools may not ask about the rest).
  sim.restore(start);
  const perception = await benchPerception(sim, L.samples);

  // Snapshot and restore.
  const snapMs: number[] = [];
  const restMs: number[] = [];
  let bytes = 0;
  for (let i = 0; i < L.snaps; i++) {
    const t0 = now();
    const s = sim.snapshot();
    const t1 = now();
    sim.restore(s);
    const t2 = now();
    snapMs.push(t1 - t0);
    restMs.push(t2 - t1);
    bytes = s.physics.byteLength + s.state.length;
  }

  sim.restore(start);
  const held = await graspUs(sim, pickAny, L.partMs);
  sim.restore(start);
  // The parts of the idle full step, as measured above.
  const breakdown = stepBreakdown(sim, full, paired, held, L.partMs);
  sim.dispose();
  return {
    id,
    rtf: round(stepsPerSecond * sim.dt, 1),
    stepsPerSecond: Math.round(stepsPerSecond),
    bareRtf: round(bareSteps * sim.dt, 1),
    ratio: round(paired.ratio, 3),
    activeRtf: round(activeSteps * sim.dt, 1),
    pickPlaceMs: pp.length ? round(median(pp), 1) : null,
    pickPlace: what,
    perceptionP50Ms: perception.wallP50Ms,
    perceptionP99Ms: perception.steadyP99Ms,
    perception,
    snapshotMs: round(median(snapMs), 3),
    restoreMs: round(median(restMs), 3),
    snapshotKB: round(bytes / 1024, 1),
    rssMB: round(process.resourceUsage().maxRSS / 1024, 1),
    appRssMB: null,
    breakdown,
  };
}

export async function benchSim(opts: SimBenchOptions = {}): Promise<SimBenchResult> {
  const asked = opts.scenes?.length ? opts.scenes : [...listScenes().map((s) => s.id), REFERENCE];
  const os = await import('node:os');
  const loadStart = os.loadavg()[0] ?? 0;
  const length: BenchLength = opts.length ?? (opts.quick ? 'quick' : 'full');
  const scenes: SceneBench[] = [];
  for (const id of asked.filter((x) => x !== REFERENCE)) {
    opts.onProgress?.(`benchmarking ${id}...`);
    if (opts.inProcess) scenes.push(await benchScene(id, length));
    else scenes.push({ ...(await sceneInFreshProcess(id, length)), appRssMB: (await memoryInFreshProcess(id, length)).rssMB });
  }
  let reference: SimBenchResult['reference'];
  if (asked.includes(REFERENCE) && opts.inProcess) {
    // One process has one Rapier build loaded: the current one only.
    opts.onProgress?.('benchmarking the reference scene in this process...');
    const { benchReference } = await import('./reference-bench');
    reference = { defaultBuild: DEFAULT_RAPIER_BUILD, builds: [await benchReference(length)] };
  } else if (asked.includes(REFERENCE)) {
    const builds: ReferenceBench[] = [];
    for (const build of [DEFAULT_RAPIER_BUILD, ...(['scalar', 'simd'] as const).filter((b) => b !== DEFAULT_RAPIER_BUILD)]) {
      opts.onProgress?.(`benchmarking the reference scene with the ${build} Rapier build...`);
      builds.push(await referenceInFreshProcess(build, length));
    }
    reference = { defaultBuild: DEFAULT_RAPIER_BUILD, builds };
  }
  return {
    node: process.version,
    platform: `${process.platform}-${process.arch}`,
    cpus: os.cpus().length,
    targets: {
      rtf: '>= 50 on every tabletop scene',
      ratio: '>= 0.9 (full simulation / bare Rapier, same bodies, alternating windows of one run)',
      pickPlaceMs: '<= 200',
      perceptionP99Ms: '<= 1',
      perception: PERCEPTION_TARGET,
      appRssMB: '<= 200 per scene (fresh process, as the app runs it)',
    },
    freshProcessPerScene: !opts.inProcess,
    scenes,
    ...(reference ? { reference } : {}),
    loadAvg: { start: round(loadStart, 2), end: round(os.loadavg()[0] ?? 0, 2) },
    ratioGoal: ratioGoal(scenes, reference),
  };
}
