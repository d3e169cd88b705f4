// `skillbridge worker --queue URL`: runs queued case × trials (BullMQ on Redis)
// until stopped, any number of them on any number of machines. Each job names a
// run's suite, model, workflow, seed and case; the worker loads the suite's
// cases (its own cache), runs the case in a world of its own, and returns the
// row with the case's traces. A job from other code or scenes (its case key
// differs) is refused for good; a case that errors is thrown back for another
// try while tries are left. A worker killed mid-case holds a lock that expires:
// another worker's stalled-job check puts the case back on the queue.
//
// The queue is a door: a job runs only when the coordinator signed it with the
// shared secret, and its fields (the run id, suite, model and judge) are parsed by
// the worker's host policy (`admit`) before anything is read or called; the result
// goes back signed for that job only.
import { readFileSync, readdirSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import path from 'node:path';
import { type Job, UnrecoverableError, Worker } from 'bullmq';
import { PACKAGE_VERSION } from '../results/index';
import type { EvalCase } from '../core/case';
import { WorldPool } from '../core/world';
import { findSuite } from '../suites/index';
import { casesSourceKey, generateCases, loadCases } from '../runner/cases';
import { endStateFile } from '../core/end-state';
import type { AnySuite } from '../core/suite';
import { runCase } from '../runner/run-case';
import { caseHooks } from './hooks';
import { MachineTurns } from './machine-turns';
import type { ModelFiles, ModelSpec, RunId, SuiteRef } from '../../base/host-refs';
import {
  type CaseJob,
  type CaseJobResult,
  QUEUE_NAME,
  type QueueSecret,
  jobId,
  parseQueueUrl,
  signResult,
  verifyJob,
} from './queue-protocol';
import { redisAsksForCredentials } from './queue-auth';

/** A job as the worker's policy let it in: what it names parsed into host refs, with the environment and file grant its model gets. */
export interface AdmittedJob extends Omit<CaseJob, 'runId' | 'suite' | 'model' | 'judge' | 'suiteFile'> {
  runId: RunId;
  /** A built-in suite, or a suite file's text the job carried, built into a suite (data only: no file of the worker's is read). */
  suite:
    | (SuiteRef & { readonly kind: 'builtin' })
    | { readonly kind: 'text'; readonly id: string; readonly version: string; readonly suite: AnySuite };
  model: ModelSpec;
  /** The model's environment: no key but the one the worker's rule lets go to the model's own server. */
  env: Record<string, string | undefined>;
  files: ModelFiles;
  judge?: { spec: ModelSpec; env: Record<string, string | undefined> };
}

export interface QueueWorkerOptions {
  url: string;
  /** The secret jobs are signed with and results are signed back with (the coordinator's). */
  secret: QueueSecret;
  /** The worker's host policy for a job's fields; throws (with the field and why) to refuse the job. */
  admit: (job: CaseJob) => Promise<AdmittedJob>;
  /** Serve a Redis that lets anyone in (no password, no ACL): only on a private machine no one else reaches. */
  privateRedis?: boolean;
  /** Cases this worker runs at once (default 1). */
  concurrency?: number;
  rates?: { rpm?: number; tpm?: number };
  /** How long a job's lock lasts without renewal (default 30 s): a killed worker's case is back on the queue after about this. */
  lockMs?: number;
  signal?: AbortSignal;
  onLog?: (line: string) => void;
  cacheDir?: string;
}

export interface QueueWorkerSummary {
  done: number;
  errors: number;
  /** This process's peak resident memory while it ran (MB). */
  rssPeakMb: number;
}

/** The case's end state beside its trace (gzip), as base64. */
function endStateOf(tracePath: string | null | undefined): { name: string; base64: string } | undefined {
  if (!tracePath) return undefined;
  const file = endStateFile(tracePath);
  try {
    return { name: path.basename(file), base64: readFileSync(file).toString('base64') };
  } catch {
    return undefined;
  }
}

function tracesOf(tracePath: string | null | undefined): Array<{ name: string; text: string }> {
  if (!tracePath) return [];
  const dir = path.dirname(tracePath);
  const stem = path.basename(tracePath).replace(/\.jsonl$/, '');
  let names: string[] = [];
  try {
    names = readdirSync(dir).filter((n) => n === `${stem}.jsonl` || (n.startsWith(`${stem}.turn`) && n.endsWith('.jsonl')));
  } catch {
    return [];
  }
  return names.map((name) => ({ name, text: readFileSync(path.join(dir, name), 'utf8') }));
}

/** A worker's refusal of a Redis anyone can write to, as one line saying what to do. */
export class OpenRedisError extends Error {
  override name = 'OpenRedisError';
}

export async function runQueueWorker(o: QueueWorkerOptions): Promise<QueueWorkerSummary> {
  const log = o.onLog ?? (() => undefined);
  if (!o.privateRedis && !(await redisAsksForCredentials(o.url)))
    throw new OpenRedisError(
      `the Redis at ${o.url.replace(/\/\/[^@/]*@/, '//')} lets anyone in (no password or ACL): whoever reaches it could queue jobs for this worker. Set "requirepass" (or an ACL user) in its configuration and put the password in the URL (redis://:PASSWORD@HOST:6379), or, if no one else reaches it, say so with --private-redis`,
    );
  const concurrency = o.concurrency ?? 1;
  const me = `${hostname()}:${process.pid}`;
  const cases = new Map<string, Promise<Map<string, EvalCase>>>();
  const pools = new Map<string, WorldPool>();
  const traceRoot = path.join(tmpdir(), `skillbridge-worker-${process.pid}`);
  const summary: QueueWorkerSummary = { done: 0, errors: 0, rssPeakMb: 0 };
  const sample = () => (summary.rssPeakMb = Math.max(summary.rssPeakMb, Math.round(process.memoryUsage().rss / 2 ** 20)));
  const sampler = setInterval(sample, 250);
  sampler.unref();

  // A built-in suite's cases come from the cache; a suite file's (a job's text) are generated, kept per version of the text.
  const casesOf = (suite: AnySuite, textVersion: string | undefined) => {
    const key = textVersion ? `${suite.id}#${textVersion}` : suite.id;
    let m = cases.get(key);
    if (!m) {
      const loaded = textVersion
        ? generateCases(suite)
        : loadCases(suite, { ...(o.cacheDir ? { cacheDir: o.cacheDir } : {}), onProgress: log }).then((l) => l.cases);
      m = loaded.then((list) => new Map(list.map((c) => [c.id, c])));
      cases.set(key, m);
      m.catch(() => cases.delete(key));
    }
    return m;
  };

  // The worker's cases take turns at its machine (one thread), each on its own clock.
  const turns = new MachineTurns();
  const processor = async (job: Job): Promise<{ result: CaseJobResult; sig: string }> => {
    const refuse = (why: string) => {
      log(`refused job ${job.id ?? '?'}: ${why}`);
      return new UnrecoverableError(`worker ${me} refused the job: ${why}`);
    };
    const signed = verifyJob(job.data, o.secret);
    if (!signed.ok) throw refuse(signed.why);
    let d: AdmittedJob;
    try {
      d = await o.admit(signed.job);
    } catch (e) {
      throw refuse((e as Error).message);
    }
    // The id the coordinator gave the job is its run × case × trial: a signed job copied under another id is refused.
    if (job.id !== jobId(d.runId, d.identity, d.caseId, d.trial)) throw refuse('the job id is not its run, content, case and trial');
    const suite = d.suite.kind === 'text' ? d.suite.suite : findSuite(d.suite.id);
    if (!suite) throw refuse(`this worker has no suite "${d.suite.id}"`);
    if (d.packageVersion !== PACKAGE_VERSION || d.casesKey !== casesSourceKey(d.suite.id))
      throw new UnrecoverableError(
        `worker ${me} runs other code or scenes (skillbridge ${PACKAGE_VERSION}, cases ${casesSourceKey(d.suite.id)}; the run wants ${d.packageVersion}, ${d.casesKey}): update it to the coordinator's commit`,
      );
    const c = (await casesOf(suite, d.suite.kind === 'text' ? d.suite.version : undefined)).get(d.caseId);
    if (!c) throw refuse(`suite ${d.suite.id} has no case "${d.caseId}"`);
    // A run id is one folder name (the policy's pattern): its traces stay under this worker's folder.
    const traceDir = path.join(traceRoot, d.runId);
    if (path.dirname(traceDir) !== traceRoot) throw refuse(`the run id "${d.runId}" is not a folder name`);
    // Worlds of one seed and noise are shared between the jobs that name them.
    const poolKey = `${d.seed}|${JSON.stringify(d.noise ?? null)}`;
    let pool = pools.get(poolKey);
    if (!pool) {
      pool = new WorldPool({ seed: d.seed, ...(d.noise ? { noise: d.noise } : {}), maxIdle: Math.max(4, concurrency) });
      pools.set(poolKey, pool);
    }
    const hooks = caseHooks({ model: d.model, concurrency: 2, ...(o.rates ? { rates: o.rates } : {}) });
    log(`start ${d.caseId}#${d.trial} (${d.runId}, try ${job.attemptsMade + 1})`);
    {
      const r = await runCase({
        suite,
        case: c,
        trial: d.trial,
        workflow: d.workflow,
        model: d.model,
        seed: d.seed,
        pool,
        traceDir,
        env: d.env,
        files: d.files,
        lease: true,
        turns,
        ...(hooks.wrapModel ? { wrapModel: hooks.wrapModel } : {}),
        ...(d.limits ? { limits: d.limits } : {}),
        ...(d.judge ? { judge: d.judge.spec, judgeEnv: d.judge.env } : {}),
      });
      const rec = r.record;
      if (rec.status === 'stopped') throw new Error(`worker ${me} was stopped during the case`);
      if (rec.status === 'error' && job.attemptsMade + 1 < (job.opts.attempts ?? 1)) throw new Error(rec.error ?? 'the case failed');
      if (rec.status === 'error') summary.errors++;
      summary.done++;
      log(`done ${d.caseId}#${d.trial} ${rec.status}${rec.status === 'ok' ? ` ${rec.score}` : ''}`);
      const end = endStateOf(rec.tracePath);
      const result: CaseJobResult = {
        record: rec,
        timing: r.timing,
        traces: tracesOf(rec.tracePath),
        ...(end ? { endState: end } : {}),
        worker: me,
      };
      return signResult({ jobId: job.id ?? '', runId: d.runId, caseId: d.caseId, trial: d.trial }, result, o.secret);
    }
  };

  const lockMs = o.lockMs ?? 30_000;
  const worker = new Worker(QUEUE_NAME, processor, {
    connection: { ...parseQueueUrl(o.url), maxRetriesPerRequest: null },
    concurrency,
    lockDuration: lockMs,
    stalledInterval: lockMs,
    // A case whose worker died more than a few times is failed, not retried forever.
    maxStalledCount: 3,
  });
  worker.on('error', (e) => log(`queue: ${e.message}`));
  await worker.waitUntilReady();
  log(`worker ${me} on ${o.url}: up to ${concurrency} case${concurrency === 1 ? '' : 's'} at once`);
  await new Promise<void>((resolve) => {
    if (o.signal?.aborted) resolve();
    o.signal?.addEventListener('abort', () => resolve(), { once: true });
  });
  // Finish the cases in hand, then let go (a second stop from the host quits at once).
  await worker.close();
  clearInterval(sampler);
  sample();
  for (const p of pools.values()) await p.dispose();
  return summary;
}
