// Benchmark jobs that run in a fresh process, so each figure (memory above all)
// belongs to one scene or one Rapier build and not to whatever ran before it in
// the same process. The parent starts `skillbridge bench _job JSON` and reads one
// JSON result from its stdout (run-job.ts is the child's side); both sides go
// through the schemas below, which are also where the result types come from.
import { z } from 'zod';
import { SKILLBRIDGE_BIN, runNode } from './processes';
import type { RapierBuild } from '../../sim/rapier';
import type { BenchLength } from './steppers';
import { STEP_PARTS, type StepPart } from './step-parts';

/** The scene id that stands for the reference scene in `bench sim --scene`. */
export const REFERENCE = 'reference';

/** How long a job measures: 'smoke' only proves every measurement runs (the tests use it). */
const Length = z.enum(['full', 'quick', 'smoke']);
export const Job = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('scene'), id: z.string().min(1), length: Length }),
  z.strictObject({ kind: z.literal('reference'), length: Length }),
  z.strictObject({ kind: z.literal('memory'), id: z.string().min(1), length: Length }),
]);
export type Job = z.infer<typeof Job>;

const num = z.number();
/** Where a full step goes (step-breakdown.ts): microseconds and shares by part. */
const byPart = z.strictObject(Object.fromEntries(STEP_PARTS.map((p) => [p, num])) as Record<StepPart, typeof num>);
export const StepBreakdownSchema = z.strictObject({
  fullUs: num,
  bareUs: num,
  fullCpuUs: num,
  bareCpuUs: num,
  cpuRatio: num.nullable(),
  us: byPart,
  share: byPart,
  graspHeldUs: num.nullable(),
  beliefUpdateUs: num,
});
export const PerceptionBenchSchema = z.strictObject({
  queries: num,
  wallP50Ms: num,
  wallP99Ms: num,
  /** Wall p99 over the queries no other process preempted (GC pauses included): the figure the goal is checked on. */
  steadyP99Ms: num,
  /** Queries during which the process was switched out involuntarily (another process took the core). */
  preemptedQueries: num,
  /** Process CPU time per query: every thread (GC helpers and the compiler included), so not the query's own CPU. */
  cpuP50Ms: num,
  cpuP99Ms: num,
  /** Queries a garbage collection ran during, and their total pause. */
  gcQueries: num,
  gcPauseMs: num,
  /** Heap allocated per query, median KB (queries a GC ran during left out). */
  allocKBPerQuery: num,
  /** The belief update after a step: the scene still (seen again), and after something moved (looked at afresh), median µs. */
  lookStillUs: num,
  lookMovedUs: num,
  /** Load average (1 min) before and after. */
  load: z.tuple([num, num]),
  /** The query kind with the highest steady p99, and that p99. */
  slowest: z.string(),
  slowestP99Ms: num,
});
export type PerceptionBench = z.infer<typeof PerceptionBenchSchema>;
export const SceneBenchSchema = z.strictObject({
  id: z.string(),
  rtf: num,
  stepsPerSecond: num,
  bareRtf: num,
  /** Full over bare, robot idle (goal >= 0.9): median of alternating short windows of each. */
  ratio: num,
  activeRtf: num,
  pickPlaceMs: num.nullable(),
  pickPlace: z.string().nullable(),
  perceptionP50Ms: num,
  perceptionP99Ms: num,
  /** Perception latency in wall and CPU time, and the garbage collections that ran during queries. */
  perception: PerceptionBenchSchema,
  snapshotMs: num,
  restoreMs: num,
  snapshotKB: num,
  /** Peak resident memory of the process that measured this scene (a fresh one unless run in process; optimising wasm tier). */
  rssMB: num,
  /** Peak resident memory of the scene run as the app and CLI run it (fresh process, baseline tier); null in process. */
  appRssMB: num.nullable(),
  /** Where the idle full step's time goes. */
  breakdown: StepBreakdownSchema,
});
export type SceneBench = z.infer<typeof SceneBenchSchema>;

export const SceneMemorySchema = z.strictObject({ id: z.string(), rssMB: num });
export type SceneMemory = z.infer<typeof SceneMemorySchema>;

export const ReferenceBenchSchema = z.strictObject({
  build: z.enum(['scalar', 'simd']),
  /** Rapier's own version string for this build. */
  version: z.string(),
  /** The anchors' scene in bare Rapier (motorised arm), all awake. */
  bareAnchorsRtf: num,
  /** Our full simulation of the reference scene, arm moving, all awake. */
  fullRtf: num,
  /** Bare Rapier stepping the same bodies as fullRtf (restored from its snapshot), all awake, the arm's links moved as in fullRtf. */
  bareRtf: num,
  /** The same with the arm standing still. */
  bareArmStillRtf: num,
  /** Full over bare (goal >= 0.9): median of alternating short windows of each, which a changing load moves less than fullRtf / bareRtf. */
  ratio: num,
  /**
   * Body state read from Rapier's memory against read through its API (the guard
   * and the pose stream as they read before): full/bare of each in CPU time from
   * the same rounds of three alternating windows (bare, full with direct reads, full with
   * API reads), so a changing load moves both alike; null when the build's layout
   * was not found (every read is through the API).
   */
  reads: z.strictObject({ direct: num, api: num }).nullable(),
  /** Where the full step's time goes (arm moving, every body awake). */
  breakdown: StepBreakdownSchema,
  /** Stacks still standing after the timed windows: anchors' rendition, ours. */
  stacksStanding: z.strictObject({ anchors: num, ours: num, of: num }),
  rssMB: num,
});
export type ReferenceBench = z.infer<typeof ReferenceBenchSchema>;

async function inFreshProcess<T>(job: Job, schema: z.ZodType<T>, env: Record<string, string> = {}, nodeFlags: string[] = []): Promise<T> {
  const r = await runNode([...nodeFlags, SKILLBRIDGE_BIN, 'bench', '_job', JSON.stringify(job)], env);
  const what = job.kind === 'reference' ? `the reference scene (${env['SKILLBRIDGE_RAPIER'] ?? 'default build'})` : `scene ${job.id}`;
  if (r.code !== 0) throw new Error(`benchmarking ${what} failed (exit ${r.code}): ${r.stderr.trim().split('\n').pop()}`);
  let data: unknown;
  try {
    data = JSON.parse(r.stdout);
  } catch {
    throw new Error(`benchmarking ${what} printed no JSON result: ${r.stdout.slice(0, 200)}`);
  }
  const parsed = schema.safeParse(data);
  if (!parsed.success) throw new Error(`benchmarking ${what} gave an unexpected result: ${parsed.error.issues[0]?.message}`);
  return parsed.data;
}

export function sceneInFreshProcess(id: string, length: BenchLength): Promise<SceneBench> {
  return inFreshProcess({ kind: 'scene', id, length }, SceneBenchSchema);
}

/** The app's baseline wasm tier (bin/skillbridge.js keeps the optimising tier for benchmarks). */
export function memoryInFreshProcess(id: string, length: BenchLength): Promise<SceneMemory> {
  return inFreshProcess({ kind: 'memory', id, length }, SceneMemorySchema, {}, ['--liftoff-only']);
}

export function referenceInFreshProcess(build: RapierBuild, length: BenchLength): Promise<ReferenceBench> {
  return inFreshProcess({ kind: 'reference', length }, ReferenceBenchSchema, { SKILLBRIDGE_RAPIER: build });
}
