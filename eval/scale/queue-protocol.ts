// What travels through the queue (BullMQ on Redis): one job per case × trial of
// a run, and its result. Both are validated where they come out of Redis. The
// coordinator's environment (keys) never goes into a job: each worker uses its own.
import { z } from 'zod';
import { ResultInputSchema } from '../results/records';

export const QUEUE_NAME = 'skillbridge-eval';

export const CaseJob = z.object({
  runId: z.string().min(1),
  suite: z.string().min(1),
  workflow: z.string().min(1),
  model: z.string().min(1),
  seed: z.number().int().nonnegative(),
  caseId: z.string().min(1),
  trial: z.number().int().positive(),
  /** The cases' source key: a worker running other code or scenes refuses the job. */
  casesKey: z.string().min(1),
  packageVersion: z.string(),
  limits: z.object({ timeLimitS: z.number().optional(), maxIterations: z.number().int().optional() }).optional(),
  /** The run's perception and skill noise (eval --noise), applied to the case's world. */
  noise: z
    .strictObject({
      distanceSigma: z.number().min(0).max(1),
      detectionDropout: z.number().min(0).max(1),
      skillFailureRate: z.number().min(0).max(1),
    })
    .optional(),
  judge: z.string().optional(),
});
export type CaseJob = z.infer<typeof CaseJob>;

const Timing = z.object({
  totalMs: z.number(),
  restoreMs: z.number(),
  buildMs: z.number(),
  modelMs: z.number(),
  toolMs: z.number(),
  overheadMs: z.number(),
});

export const CaseJobResult = z.object({
  record: ResultInputSchema,
  timing: Timing,
  /** The case's trace files (name → JSONL text), written into the coordinator's results folder. */
  traces: z.array(z.object({ name: z.string(), text: z.string() })),
  worker: z.string(),
});
export type CaseJobResult = z.input<typeof CaseJobResult>;

/** A job id per run × case × trial: adding it twice (a resumed coordinator) adds nothing. */
export function jobId(runId: string, caseId: string, trial: number): string {
  return `${runId}|${caseId}|${trial}`.replace(/:/g, '_');
}

/** redis://HOST:PORT[/DB] → ioredis options; anything else is a one-line error. */
export function parseQueueUrl(url: string): { host: string; port: number; db: number; password?: string; username?: string } {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new Error(`--queue must be a Redis URL like redis://127.0.0.1:6379, got "${url}"`);
  }
  if (u.protocol !== 'redis:') throw new Error(`--queue must be a redis:// URL (BullMQ on Redis), got "${url}"`);
  const db = u.pathname && u.pathname !== '/' ? Number(u.pathname.slice(1)) : 0;
  if (!Number.isInteger(db) || db < 0) throw new Error(`--queue: the database number in "${url}" must be a whole number`);
  return {
    host: u.hostname || '127.0.0.1',
    port: u.port ? Number(u.port) : 6379,
    db,
    ...(u.password ? { password: decodeURIComponent(u.password) } : {}),
    ...(u.username ? { username: decodeURIComponent(u.username) } : {}),
  };
}
