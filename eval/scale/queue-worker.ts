// `skillbridge worker --queue URL`: runs queued case × trials (BullMQ on Redis)
// until stopped, any number of them on any number of machines. Each job names a
// run's suite, model, workflow, seed and case; the worker loads the suite's
// cases (its own cache), runs the case in a world of its own, and returns the
// row with the case's traces. A job from other code or scenes (its case key
// differs) is refused for good; a case that errors is thrown back for another
// try while tries are left. A worker killed mid-case holds a lock that expires:
// another worker's stalled-job check puts the case back on the queue.
import { readFileSync, readdirSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import path from 'node:path';
import { type Job, UnrecoverableError, Worker } from 'bullmq';
import { PACKAGE_VERSION } from '../results/index';
import type { EvalCase } from '../core/case';
import { WorldPool } from '../core/world';
import { findSuite } from '../suites/index';
import { casesSourceKey, loadCases } from '../runner/cases';
import { runCase } from '../runner/run-case';
import { caseHooks } from './hooks';
import { MachineTurns } from './machine-turns';
import { CaseJob, type CaseJobResult, QUEUE_NAME, parseQueueUrl } from './queue-protocol';

export interface QueueWorkerOptions {
  url: string;
  /** Cases this worker runs at once (default 1). */
  concurrency?: number;
  rates?: { rpm?: number; tpm?: number };
  env?: Record<string, string | undefined>;
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

export async function runQueueWorker(o: QueueWorkerOptions): Promise<QueueWorkerSummary> {
  const log = o.onLog ?? (() => undefined);
  const concurrency = o.concurrency ?? 1;
  const me = `${hostname()}:${process.pid}`;
  const cases = new Map<string, Promise<Map<string, EvalCase>>>();
  const pools = new Map<string, WorldPool>();
  const traceRoot = path.join(tmpdir(), `skillbridge-worker-${process.pid}`);
  const summary: QueueWorkerSummary = { done: 0, errors: 0, rssPeakMb: 0 };
  const sample = () => (summary.rssPeakMb = Math.max(summary.rssPeakMb, Math.round(process.memoryUsage().rss / 2 ** 20)));
  const sampler = setInterval(sample, 250);
  sampler.unref();

  const casesOf = (suiteId: string) => {
    let m = cases.get(suiteId);
    if (!m) {
      const suite = findSuite(suiteId)!;
      m = loadCases(suite, { ...(o.cacheDir ? { cacheDir: o.cacheDir } : {}), onProgress: log }).then(
        (l) => new Map(l.cases.map((c) => [c.id, c])),
      );
      cases.set(suiteId, m);
      m.catch(() => cases.delete(suiteId));
    }
    return m;
  };

  // The worker's cases take turns at its machine (one thread), each on its own clock.
  const turns = new MachineTurns();
  const processor = async (job: Job): Promise<CaseJobResult> => {
    const parsed = CaseJob.safeParse(job.data);
    if (!parsed.success) throw new UnrecoverableError(`the job does not validate: ${parsed.error.issues[0]?.message}`);
    const d = parsed.data;
    const suite = findSuite(d.suite);
    if (!suite) throw new UnrecoverableError(`worker ${me} has no suite "${d.suite}"`);
    if (d.packageVersion !== PACKAGE_VERSION || d.casesKey !== casesSourceKey(d.suite))
      throw new UnrecoverableError(
        `worker ${me} runs other code or scenes (skillbridge ${PACKAGE_VERSION}, cases ${casesSourceKey(d.suite)}; the run wants ${d.packageVersion}, ${d.casesKey}): update it to the coordinator's commit`,
      );
    const c = (await casesOf(d.suite)).get(d.caseId);
    if (!c) throw new UnrecoverableError(`worker ${me}: suite ${d.suite} has no case "${d.caseId}"`);
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
        traceDir: path.join(traceRoot, d.runId),
        env: o.env ?? process.env,
        lease: true,
        turns,
        ...(hooks.wrapModel ? { wrapModel: hooks.wrapModel } : {}),
        ...(d.limits ? { limits: d.limits } : {}),
        ...(d.judge ? { judge: d.judge } : {}),
      });
      const rec = r.record;
      if (rec.status === 'stopped') throw new Error(`worker ${me} was stopped during the case`);
      if (rec.status === 'error' && job.attemptsMade + 1 < (job.opts.attempts ?? 1)) throw new Error(rec.error ?? 'the case failed');
      if (rec.status === 'error') summary.errors++;
      summary.done++;
      log(`done ${d.caseId}#${d.trial} ${rec.status}${rec.status === 'ok' ? ` ${rec.score}` : ''}`);
      return { record: rec, timing: r.timing, traces: tracesOf(rec.tracePath), worker: me };
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
