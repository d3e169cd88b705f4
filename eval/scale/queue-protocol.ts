// What travels through the queue (BullMQ on Redis): one job per case × trial of
// a run, and its result. Whoever can write to the Redis can write a job or a
// result, so both are signed with a secret the coordinator and the workers share
// (HMAC-SHA256 over the canonical JSON; the secret comes from the environment or
// a file, never from Redis): a worker runs only a job the coordinator signed, and
// the coordinator records only a result a worker signed for that very job. Both
// are then validated where they come out of Redis, the job's fields by the
// worker's host policy. The coordinator's environment (keys) never goes into a
// job: each worker uses its own, under its own policy.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { readFailure, readUserTextSync } from '../../base/user-file';
import { z } from 'zod';
import { ResultInputSchema } from '../results/records';
import { RunContent } from '../results/identity';

export const QUEUE_NAME = 'skillbridge-eval';

/** The fields of a job that name something of the worker's, and the policy kind that parses each (hosts/service/queue-door.ts). */
export const JOB_REFS = { runId: 'run-id', suite: 'suite', model: 'model', judge: 'model' } as const;

export const CaseJob = z.object({
  runId: z.string().min(1).max(200),
  /** The run's identity (eval/results/identity.ts): the job id holds it, so a run id used again for other content names other jobs. */
  identity: z.string().regex(/^[0-9a-f]{16}$/),
  suite: z.string().min(1).max(200),
  workflow: z.string().min(1).max(100),
  model: z.string().min(1).max(500),
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
  judge: z.string().max(500).optional(),
  /** A suite file's text and its file name (eval --suite FILE): the worker builds the suite from this data and reads no file. */
  suiteFile: z
    .strictObject({
      name: z
        .string()
        .min(1)
        .max(200)
        .regex(/^[^/\\]+$/, 'a file name, no folder'),
      text: z.string().max(4_000_000),
    })
    .optional(),
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
  /** The case's end state (gzip, base64), written beside its trace there, so `rescore` scores it again. */
  endState: z.object({ name: z.string().regex(/^[^/\\]+\.end\.json\.gz$/), base64: z.string().max(64_000_000) }).optional(),
  worker: z.string(),
});
export type CaseJobResult = z.input<typeof CaseJobResult>;

// ---------------------------------------------------------------- signatures

/** JSON with every object's keys in order: the one text a signature is over, whatever order the fields were written in. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(JSON.parse(JSON.stringify(value ?? null)) as unknown));
}

function sortKeys(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sortKeys);
  if (v && typeof v === 'object')
    return Object.fromEntries(
      Object.keys(v)
        .sort()
        .map((k) => [k, sortKeys((v as Record<string, unknown>)[k])]),
    );
  return v;
}

/** The secret jobs and results are signed with, as bytes (never written to Redis). */
export type QueueSecret = { readonly bytes: Buffer };

/** At least this many characters: `openssl rand -hex 32` gives 64. */
export const MIN_SECRET_CHARS = 16;

/**
 * The queue's secret: SKILLBRIDGE_QUEUE_SECRET, or the first line of the file SKILLBRIDGE_QUEUE_SECRET_FILE names
 * (a file only its user reads). A missing or short secret is one line saying how to set one.
 */
export function queueSecret(env: Readonly<Record<string, string | undefined>> = process.env): QueueSecret {
  const fromFile = env['SKILLBRIDGE_QUEUE_SECRET_FILE'];
  let text = env['SKILLBRIDGE_QUEUE_SECRET'];
  if (fromFile) {
    try {
      text = readUserTextSync(fromFile, { maxBytes: 64 * 1024 }).split(/\r?\n/)[0];
    } catch (e) {
      throw new Error(`SKILLBRIDGE_QUEUE_SECRET_FILE: cannot read ${fromFile} (${readFailure(e)})`);
    }
  }
  const secret = text?.trim() ?? '';
  if (secret.length < MIN_SECRET_CHARS)
    throw new Error(
      `the queue needs a shared secret of at least ${MIN_SECRET_CHARS} characters in SKILLBRIDGE_QUEUE_SECRET (or a file named by SKILLBRIDGE_QUEUE_SECRET_FILE), the same for the coordinator and every worker; make one with "openssl rand -hex 32"`,
    );
  return { bytes: Buffer.from(secret, 'utf8') };
}

function mac(secret: QueueSecret, domain: string, text: string): string {
  return createHmac('sha256', secret.bytes).update(`${domain}\n${text}`).digest('hex');
}

function same(a: string, b: string): boolean {
  const x = Buffer.from(a, 'utf8');
  const y = Buffer.from(b, 'utf8');
  return x.length === y.length && timingSafeEqual(x, y);
}

/** What the coordinator puts on the queue: the job and its signature. */
export const SignedJob = z.object({ job: z.unknown(), sig: z.string().regex(/^[0-9a-f]{64}$/) }).strict();

export function signJob(job: CaseJob, secret: QueueSecret): { job: CaseJob; sig: string } {
  return { job, sig: mac(secret, 'skillbridge-queue-job', canonicalJson(job)) };
}

/** The job a signed envelope holds, or why it is refused (unsigned, signed with another secret, changed since). */
export function verifyJob(raw: unknown, secret: QueueSecret): { ok: true; job: CaseJob } | { ok: false; why: string } {
  const env = SignedJob.safeParse(raw);
  if (!env.success) return { ok: false, why: 'the job is not signed (the coordinator signs every job with the queue secret)' };
  if (!same(env.data.sig, mac(secret, 'skillbridge-queue-job', canonicalJson(env.data.job))))
    return { ok: false, why: "the job's signature does not match: it was written by someone without this queue's secret, or changed" };
  const job = CaseJob.safeParse(env.data.job);
  if (!job.success)
    return { ok: false, why: `the job does not validate: ${job.error.issues[0]?.path.join('.') ?? ''}: ${job.error.issues[0]?.message}` };
  return { ok: true, job: job.data };
}

/** A run id's content as the queue remembers it, signed so no one without the secret can claim an id. */
export function signClaim(runId: string, content: RunContent, secret: QueueSecret): { content: RunContent; sig: string } {
  return { content, sig: mac(secret, 'skillbridge-queue-run', canonicalJson({ runId, content })) };
}

/** The content a claim holds when this secret signed it for this run id; undefined otherwise. */
export function verifyClaim(text: string, runId: string, secret: QueueSecret): RunContent | undefined {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return undefined;
  }
  const env = z.object({ content: RunContent, sig: z.string() }).strict().safeParse(raw);
  if (!env.success) return undefined;
  return same(env.data.sig, mac(secret, 'skillbridge-queue-run', canonicalJson({ runId, content: env.data.content })))
    ? env.data.content
    : undefined;
}

/** Which job a result answers: its id and the case × trial it named. */
export interface JobBinding {
  jobId: string;
  runId: string;
  caseId: string;
  trial: number;
}

const bound = (b: JobBinding, result: unknown) =>
  canonicalJson({ jobId: b.jobId, runId: b.runId, caseId: b.caseId, trial: b.trial, result });

/** What a worker returns: the result and a signature binding it to the job it answers. */
export function signResult(b: JobBinding, result: CaseJobResult, secret: QueueSecret): { result: CaseJobResult; sig: string } {
  return { result, sig: mac(secret, 'skillbridge-queue-result', bound(b, result)) };
}

/**
 * The result a worker returned for this job, or why it is refused: unsigned, signed for another job, or a
 * record of another case × trial than the job named (a result is stored only for the case its job named).
 */
export function verifyResult(
  raw: unknown,
  b: JobBinding,
  secret: QueueSecret,
): { ok: true; result: z.output<typeof CaseJobResult> } | { ok: false; why: string } {
  const env = z.object({ result: z.unknown(), sig: z.string() }).strict().safeParse(raw);
  if (!env.success) return { ok: false, why: 'a worker sent a result that is not signed' };
  if (!same(env.data.sig, mac(secret, 'skillbridge-queue-result', bound(b, env.data.result))))
    return { ok: false, why: 'a result whose signature does not match this job (another job, another secret, or changed) was refused' };
  const parsed = CaseJobResult.safeParse(env.data.result);
  if (!parsed.success) return { ok: false, why: `a worker sent a result that does not validate: ${parsed.error.issues[0]?.message}` };
  const r = parsed.data.record;
  if (r.caseId !== b.caseId || r.trial !== b.trial)
    return { ok: false, why: `a worker sent the result of ${r.caseId}#${r.trial} for the job of ${b.caseId}#${b.trial}; it was refused` };
  return { ok: true, result: parsed.data };
}

/**
 * A job id per run × content × case × trial: adding it twice (a resumed coordinator) adds nothing, and
 * a run id used again for other content (another model, seed, case set) never finds the old run's results.
 */
export function jobId(runId: string, identity: string, caseId: string, trial: number): string {
  return `${runId}|${identity}|${caseId}|${trial}`.replace(/:/g, '_');
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
