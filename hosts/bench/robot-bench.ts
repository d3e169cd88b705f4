// The robot benchmark (skillbridge bench robot). Per serial chain: inverse
// kinematics over random reachable poses (the tip pose of random joints within
// the limits, solved from mid-range, not from the joints that made it), the
// share solved within 1 mm and 0.5°, and solve time p50/p99 in wall time and
// with the time the thread waited for a core taken out. A robot loaded from a
// URDF adds its load time: the first load, and p50/p99 over repeated loads (the
// test robots' URDFs, with meshes and xacro, are among the default cases).
// Figures, not assertions: the goals are printed beside them.
import type { RobotDescription } from '../../scenes/urdf/model';
import { buildChain, describeChainProblem, tipPose } from '../../sim/body/chain';
import { chainSolver, goalOf } from '../../sim/body/chain-ik';
import { quatOf } from '../../sim/body/chain-math';
import { pandaClass, ur5eClass } from '../../sim/body/reference-arms';
import { runQueueWaitMs } from './preemption';
import { seededRandom } from '../../base/seeded-random';
import { type RobotBenchCase, URDF_CASES } from './urdf-cases';

export type { RobotBenchCase } from './urdf-cases';

export const IK_GOALS = { successRate: 0.99, p99Ms: 2 } as const;

/** A robot to measure: its description (timed when it is loaded from a file) and the chain to solve. */
export const BUILTIN_CASES: RobotBenchCase[] = [
  { label: 'UR5e-class 6-DoF (DH)', base: 'base_link', tip: 'tool0', description: ur5eClass },
  { label: 'Panda-class 7-DoF (DH)', base: 'link0', tip: 'link8', description: pandaClass },
];

export interface ChainBench {
  label: string;
  joints: number;
  poses: number;
  solved: number;
  successRate: number;
  /** Why the unsolved ones failed, by kind. */
  failures: Record<string, number>;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  /** p99 with each solve's wait for a core taken out; null where the kernel does not say. */
  ownP99Ms: number | null;
  /** Solves during which the thread waited for a core. */
  preempted: number;
  meanIterations: number;
  meanStarts: number;
  /** Load time of the description when it came from a file (the first load); null for one built in code. */
  loadMs: number | null;
  /** Time per load over `runs` loads of the file (the first among them); null for one built in code. */
  load: { runs: number; p50Ms: number; p99Ms: number } | null;
  met: { successRate: boolean; p99: boolean; ownP99: boolean | null };
}

export interface RobotBenchResult {
  node: string;
  platform: string;
  cpus: number;
  seed: number;
  goals: typeof IK_GOALS;
  chains: ChainBench[];
  /** Cases that could not be measured, and why (a chain that cannot be cut, a file that does not load). */
  problems: Array<{ label: string; problem: string }>;
  loadAvg: { start: number; end: number };
}

export interface RobotBenchOptions {
  poses?: number;
  seed?: number;
  quick?: boolean;
  cases?: RobotBenchCase[];
  /** Loads of each URDF for its p50/p99 (default 50, 10 with quick). */
  loadRuns?: number;
  onProgress?: (line: string) => void;
}

const WARMUP = 200;

export async function benchRobot(opts: RobotBenchOptions = {}): Promise<RobotBenchResult> {
  const { loadavg, cpus } = await import('node:os');
  const poses = opts.poses ?? (opts.quick ? 300 : 2000);
  const seed = opts.seed ?? 1;
  const start = loadavg()[0]!;
  const chains: ChainBench[] = [];
  const problems: RobotBenchResult['problems'] = [];
  const loadRuns = Math.max(1, opts.loadRuns ?? (opts.quick ? 10 : 50));
  for (const c of opts.cases ?? [...BUILTIN_CASES, ...URDF_CASES]) {
    opts.onProgress?.(`${c.label}: ${poses} poses`);
    const t0 = performance.now();
    let description: RobotDescription;
    try {
      description = await c.description();
    } catch (e) {
      problems.push({ label: c.label, problem: (e as Error).message });
      continue;
    }
    const first = performance.now() - t0;
    const loadMs = c.loadsFile ? round(first, 1) : null;
    let load: ChainBench['load'] = null;
    if (c.loadsFile) {
      const times = [first];
      for (let i = 1; i < loadRuns; i++) {
        const t = performance.now();
        await c.description();
        times.push(performance.now() - t);
      }
      load = { runs: loadRuns, p50Ms: round(quantile(times, 0.5), 2), p99Ms: round(quantile(times, 0.99), 2) };
    }
    const built = buildChain(description, c.base, c.tip);
    if (!built.ok) {
      problems.push({ label: c.label, problem: describeChainProblem(built.problem) });
      continue;
    }
    chains.push({ ...benchChain(built.chain, poses, seed), label: c.label, loadMs, load });
  }
  return {
    node: process.version,
    platform: `${process.platform}-${process.arch}`,
    cpus: cpus().length,
    seed,
    goals: IK_GOALS,
    chains,
    problems,
    loadAvg: { start: round(start, 2), end: round(loadavg()[0]!, 2) },
  };
}

type Measured = Omit<ChainBench, 'label' | 'loadMs' | 'load'>;

function benchChain(chain: Parameters<typeof chainSolver>[0], poses: number, seed: number): Measured {
  const solver = chainSolver(chain);
  const rand = seededRandom(seed);
  const goalAt = () =>
    goalOf(
      tipPose(
        chain,
        chain.variables.map((v) => lerp(v.lower, v.upper, rand())),
      ),
    );
  // Warm-up on other poses: the optimising compiler's first minutes are not the solver's time.
  for (let i = 0; i < WARMUP; i++) solver.solve(goalAt());
  const wall: number[] = [];
  const own: number[] = [];
  let waits = true;
  let preempted = 0;
  let solved = 0;
  let iterations = 0;
  let starts = 0;
  const failures: Record<string, number> = {};
  for (let i = 0; i < poses; i++) {
    const goal = goalAt();
    const w0 = runQueueWaitMs();
    const t0 = performance.now();
    const r = solver.solve(goal);
    const ms = performance.now() - t0;
    const w1 = runQueueWaitMs();
    wall.push(ms);
    if (w0 === undefined || w1 === undefined) waits = false;
    else {
      if (w1 > w0) preempted++;
      own.push(Math.max(0, ms - (w1 - w0)));
    }
    if (r.ok && withinTolerance(chain, r.joints, goal)) {
      solved++;
      iterations += r.iterations;
      starts += r.attempts;
    } else {
      const kind = r.ok ? 'missed_tolerance' : r.failure.kind;
      failures[kind] = (failures[kind] ?? 0) + 1;
    }
  }
  const successRate = solved / poses;
  const p99Ms = quantile(wall, 0.99);
  const ownP99Ms = waits ? quantile(own, 0.99) : null;
  return {
    joints: chain.variables.length,
    poses,
    solved,
    successRate: round(successRate, 4),
    failures,
    p50Ms: round(quantile(wall, 0.5), 3),
    p99Ms: round(p99Ms, 3),
    maxMs: round(Math.max(...wall), 3),
    ownP99Ms: ownP99Ms === null ? null : round(ownP99Ms, 3),
    preempted,
    meanIterations: round(solved ? iterations / solved : 0, 1),
    meanStarts: round(solved ? starts / solved : 0, 2),
    met: {
      successRate: successRate >= IK_GOALS.successRate,
      p99: p99Ms <= IK_GOALS.p99Ms,
      ownP99: ownP99Ms === null ? null : ownP99Ms <= IK_GOALS.p99Ms,
    },
  };
}

/** The answer checked independently of the solver's own residual: 1 mm and 0.5°. */
function withinTolerance(chain: Parameters<typeof chainSolver>[0], q: Float64Array, goal: ReturnType<typeof goalOf>): boolean {
  const t = tipPose(chain, q);
  const p = goal.position;
  if (Math.hypot(t[3]! - p[0], t[7]! - p[1], t[11]! - p[2]) > 0.001) return false;
  if (!goal.orientation) return true;
  const a = quatOf(t);
  const b = goal.orientation;
  const d = Math.abs(a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3]);
  return 2 * Math.acos(Math.min(1, d)) <= (0.5 * Math.PI) / 180;
}

function quantile(xs: number[], q: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))] ?? 0;
}

const lerp = (a: number, b: number, t: number): number => a + (b - a) * t;
const round = (x: number, digits: number): number => Math.round(x * 10 ** digits) / 10 ** digits;

/** The benchmark as the command prints it. */
export function robotBenchLines(r: RobotBenchResult): string[] {
  const lines = [
    `Robot benchmark (${r.node}, ${r.platform}, ${r.cpus} cores, seed ${r.seed}, load ${r.loadAvg.start} → ${r.loadAvg.end})`,
    `IK over random reachable poses (the tip pose of random joints within the limits, solved from mid-range to 1 mm and 0.5°): goal success ≥ ${r.goals.successRate * 100} %, p99 ≤ ${r.goals.p99Ms} ms`,
  ];
  for (const c of r.chains) {
    const fails = Object.entries(c.failures)
      .map(([k, v]) => `${k} ${v}`)
      .join(', ');
    lines.push(
      `  ${c.label.padEnd(24)} ${c.joints} joints  ${c.solved}/${c.poses} solved (${(c.successRate * 100).toFixed(2)} %, ${c.met.successRate ? 'met' : 'NOT met'})${fails ? ` [${fails}]` : ''}`,
      `  ${''.padEnd(24)} solve p50 ${c.p50Ms} ms, p99 ${c.p99Ms} ms (${c.met.p99 ? 'met' : 'NOT met'}), max ${c.maxMs} ms; without waits for a core p99 ${c.ownP99Ms ?? 'unknown'} ms (${c.met.ownP99 === null ? 'unknown' : c.met.ownP99 ? 'met' : 'NOT met'}, ${c.preempted} solves preempted); ${c.meanIterations} iterations and ${c.meanStarts} starts per solve`,
    );
  }
  const loaded = r.chains.filter((c) => c.loadMs !== null);
  if (!loaded.length) lines.push('URDF load: no robot loaded from a file in this run (the built-in arms are written in code)');
  else {
    lines.push(`URDF load (ms per load: the first, then p50/p99 over ${loaded[0]!.load?.runs ?? 1} loads):`);
    for (const c of loaded)
      lines.push(`  ${c.label.padEnd(24)} first ${c.loadMs} ms, p50 ${c.load?.p50Ms ?? c.loadMs} ms, p99 ${c.load?.p99Ms ?? c.loadMs} ms`);
  }
  for (const p of r.problems) lines.push(`  ${p.label}: not measured: ${p.problem}`);
  return lines;
}
