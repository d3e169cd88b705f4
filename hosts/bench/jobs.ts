// Benchmark jobs that run in a fresh process, so each figure (memory above all)
// belongs to one scene or one Rapier build and not to whatever ran before it in
// the same process. The parent starts `skillbridge bench _job JSON` and reads one
// JSON result from its stdout; both sides go through the schemas below.
import { z } from 'zod';
import type { SceneBench } from './sim-bench';
import type { ReferenceBench } from './reference-bench';
import type { SceneMemory } from './scene-memory';
import { SKILLBRIDGE_BIN, runNode } from './processes';
import type { RapierBuild } from '../../sim/rapier';

/** The scene id that stands for the reference scene in `bench sim --scene`. */
export const REFERENCE = 'reference';

export const Job = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('scene'), id: z.string().min(1), quick: z.boolean() }),
  z.strictObject({ kind: z.literal('reference'), quick: z.boolean() }),
  z.strictObject({ kind: z.literal('memory'), id: z.string().min(1), quick: z.boolean() }),
]);
export type Job = z.infer<typeof Job>;

const num = z.number();
export const SceneBenchSchema = z.strictObject({
  id: z.string(),
  rtf: num,
  stepsPerSecond: num,
  bareRtf: num,
  ratio: num,
  activeRtf: num,
  pickPlaceMs: num.nullable(),
  pickPlace: z.string().nullable(),
  perceptionP50Ms: num,
  perceptionP99Ms: num,
  snapshotMs: num,
  restoreMs: num,
  snapshotKB: num,
  rssMB: num,
  appRssMB: num.nullable(),
}) satisfies z.ZodType<SceneBench>;

export const SceneMemorySchema = z.strictObject({ id: z.string(), rssMB: num }) satisfies z.ZodType<SceneMemory>;

export const ReferenceBenchSchema = z.strictObject({
  build: z.enum(['scalar', 'simd']),
  version: z.string(),
  bareAnchorsRtf: num,
  fullRtf: num,
  bareRtf: num,
  stacksStanding: z.strictObject({ anchors: num, ours: num, of: num }),
  rssMB: num,
}) satisfies z.ZodType<ReferenceBench>;

/** The child's side: runs one job here and returns its result. */
export async function runJob(job: Job): Promise<SceneBench | ReferenceBench | SceneMemory> {
  if (job.kind === 'scene') return (await import('./sim-bench')).benchScene(job.id, job.quick);
  if (job.kind === 'memory') return (await import('./scene-memory')).sceneMemory(job.id, job.quick);
  return (await import('./reference-bench')).benchReference(job.quick);
}

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

export function sceneInFreshProcess(id: string, quick: boolean): Promise<SceneBench> {
  return inFreshProcess({ kind: 'scene', id, quick }, SceneBenchSchema);
}

/** The app's baseline wasm tier (bin/skillbridge.js keeps the optimising tier for benchmarks). */
export function memoryInFreshProcess(id: string, quick: boolean): Promise<SceneMemory> {
  return inFreshProcess({ kind: 'memory', id, quick }, SceneMemorySchema, {}, ['--liftoff-only']);
}

export function referenceInFreshProcess(build: RapierBuild, quick: boolean): Promise<ReferenceBench> {
  return inFreshProcess({ kind: 'reference', quick }, ReferenceBenchSchema, { SKILLBRIDGE_RAPIER: build });
}
