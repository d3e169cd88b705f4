// The queue-backed mode's coordinator (`eval --queue URL`): every case × trial
// of the run becomes a BullMQ job on Redis, with a job id of its own so a
// resumed coordinator adds nothing twice and picks up results workers finished
// while it was away. Workers (`skillbridge worker`, any number, any machine)
// run them; each result comes back here and is recorded in the one results
// database with its traces written into this results folder. Retries (a case
// that errors is tried again; on --resume an errored case runs again) and stalled-job recovery (a killed worker's job
// goes back to the queue) are BullMQ's. Every job goes on signed with the
// queue's secret, and a result is recorded only when a worker signed it for
// that job and it is the case × trial the job named (queue-protocol.ts).
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Queue, QueueEvents, type Job } from 'bullmq';
import { PACKAGE_VERSION } from '../results/index';
import type { EvalCase } from '../core/case';
import { casesSourceKey } from '../runner/cases';
import { readSuiteText } from '../suites/file/index';
import { EvalInputError } from '../runner/errors';
import type { Slot } from '../runner/executors';
import type { WorkerInit } from '../runner/protocol';
import type { CaseResult } from '../runner/run-case';
import { type RunContent, contentDifference } from '../results/identity';
import {
  type CaseJob,
  QUEUE_NAME,
  type QueueSecret,
  jobId,
  parseQueueUrl,
  signClaim,
  signJob,
  verifyClaim,
  verifyJob,
  verifyResult,
} from './queue-protocol';

/** Tries per case × trial: a case that errors (an unreachable model, a crash) runs again on any worker. */
export const JOB_ATTEMPTS = 3;

function connection(url: string) {
  try {
    return { ...parseQueueUrl(url), maxRetriesPerRequest: null };
  } catch (e) {
    throw new EvalInputError('bad-option', (e as Error).message);
  }
}

const stoppedResult = (c: EvalCase, trial: number, why: string, status: 'stopped' | 'error'): CaseResult => ({
  record: {
    caseId: c.id,
    trial,
    status,
    labels: c.labels,
    ...(status === 'error' ? { error: why, errorKind: /stalled/i.test(why) ? ('worker-died' as const) : ('queue' as const) } : {}),
  },
  timing: { totalMs: 0, restoreMs: 0, buildMs: 0, modelMs: 0, toolMs: 0, overheadMs: 0 },
});

/** Checks the Redis server answers, in one line when it does not. */
async function reachable(queue: Queue, url: string): Promise<void> {
  await Promise.race([
    queue.waitUntilReady(),
    new Promise<never>((_, reject) => setTimeout(() => reject(new Error('no answer in 5 s')), 5000).unref()),
  ]).catch((e: Error) => {
    throw new EvalInputError(
      'bad-option',
      `--queue ${url}: cannot reach Redis (${e.message}); start it with "redis-server" or check the URL`,
    );
  });
}

/** Checks the URL and that Redis answers, before a run starts: bad input is one line. */
export async function checkQueue(url: string): Promise<void> {
  const queue = new Queue(QUEUE_NAME, { connection: connection(url) });
  queue.on('error', () => undefined);
  try {
    await reachable(queue, url);
  } finally {
    await queue.close().catch(() => undefined);
  }
}

/** How long the queue remembers a run id's content: as long as it keeps the run's jobs, and more. */
const CLAIM_SECONDS = 30 * 24 * 3600;

/**
 * Registers a run id's content on the queue's Redis (signed with the queue's secret), or refuses the run in
 * one line when the id was used there for other content: another folder's run under the same id would
 * otherwise be taken for this one. A claim not signed with this secret is not believed and is replaced.
 */
export async function claimRun(url: string, runId: string, content: RunContent, secret: QueueSecret): Promise<void> {
  const queue = new Queue(QUEUE_NAME, { connection: connection(url) });
  queue.on('error', () => undefined);
  try {
    await reachable(queue, url);
    const client = await queue.client;
    const key = `skillbridge:run:${runId}`;
    const mine = JSON.stringify(signClaim(runId, content, secret));
    const held = await client.get(key);
    const theirs = held === null ? undefined : verifyClaim(held, runId, secret);
    if (!theirs) {
      await client.set(key, mine, { EX: CLAIM_SECONDS });
      return;
    }
    const diff = contentDifference(theirs, content);
    if (diff)
      throw new EvalInputError(
        'run-id-reused',
        `run id "${runId}" was used on this queue for other content (${diff}); choose another --run-id`,
      );
  } finally {
    await queue.close().catch(() => undefined);
  }
}

/** The queue as the runner's one slot: run() enqueues a case × trial and resolves with its result. */
export async function queueSlots(url: string, init: WorkerInit, runId: string, secret: QueueSecret): Promise<Slot[]> {
  const conn = connection(url);
  const queue = new Queue(QUEUE_NAME, { connection: conn });
  queue.on('error', () => undefined);
  // Every case × trial waits on the queue at once.
  queue.setMaxListeners(0);
  await reachable(queue, url);
  const events = new QueueEvents(QUEUE_NAME, { connection: conn });
  events.on('error', () => undefined);
  events.setMaxListeners(0);
  await events.waitUntilReady();
  const casesKey = casesSourceKey(init.suite);
  // A suite file goes with each job as data: the workers read no file of the coordinator's.
  const suiteFile = init.suiteFile ? { name: path.basename(init.suiteFile), text: readSuiteText(init.suiteFile) } : undefined;
  const identity = init.identity;
  if (!identity) throw new Error('a queued run needs its identity (eval/results/identity.ts)');
  const pending = new Map<string, { c: EvalCase; trial: number; resolve: (r: CaseResult) => void }>();
  const traceDir = init.traceDir;

  const gather = (raw: unknown, id: string, c: EvalCase, trial: number): CaseResult => {
    const checked = verifyResult(raw, { jobId: id, runId, caseId: c.id, trial }, secret);
    if (!checked.ok) return stoppedResult(c, trial, checked.why, 'error');
    const { record, timing, traces } = checked.result;
    mkdirSync(traceDir, { recursive: true });
    let main: string | undefined;
    for (const t of traces) {
      const file = path.join(traceDir, path.basename(t.name));
      writeFileSync(file, t.text);
      if (!/\.turn\d+\.jsonl$/.test(t.name)) main = file;
    }
    if (checked.result.endState)
      writeFileSync(
        path.join(traceDir, path.basename(checked.result.endState.name)),
        Buffer.from(checked.result.endState.base64, 'base64'),
      );
    const { tracePath: _remote, ...rest } = record;
    return { record: { ...rest, ...(main ? { tracePath: main } : {}) }, timing };
  };

  const wait = async (job: Job, id: string, c: EvalCase, trial: number): Promise<CaseResult> => {
    try {
      const value: unknown = await job.waitUntilFinished(events);
      return gather(value, id, c, trial);
    } catch (e) {
      return stoppedResult(c, trial, `failed on the queue after ${JOB_ATTEMPTS} tries: ${(e as Error).message.split('\n')[0]}`, 'error');
    }
  };

  return [
    {
      built: new Set<string>(),
      // Every case × trial goes on the queue at once: the workers decide how many run.
      capacity: 100_000,
      run(c, trial) {
        const id = jobId(runId, identity, c.id, trial);
        return new Promise<CaseResult>((resolve) => {
          pending.set(id, { c, trial, resolve });
          void (async () => {
            let known = await queue.getJob(id);
            // A job under this id that this coordinator did not sign (someone else wrote it) is replaced by ours.
            if (known && !verifyJob(known.data, secret).ok) {
              await known.remove().catch(() => undefined);
              known = undefined;
            }
            const state = known ? await known.getState() : undefined;
            // A result a worker finished while no coordinator listened is taken as it is; a failed job, or one that
            // ended in an error (no score: the runner only asks again for those), runs again with all its tries.
            const prior =
              state === 'completed' ? verifyResult(known?.returnvalue, { jobId: id, runId, caseId: c.id, trial }, secret) : undefined;
            const unscored = prior !== undefined && (!prior.ok || prior.result.record.status !== 'ok');
            if (known && (state === 'failed' || unscored))
              await known
                .retry(state as 'failed' | 'completed', { resetAttemptsMade: true, resetAttemptsStarted: true })
                .catch(() => undefined);
            const data: CaseJob = {
              runId,
              identity,
              suite: init.suite,
              workflow: init.workflow,
              model: init.model,
              seed: init.seed,
              caseId: c.id,
              trial,
              casesKey,
              packageVersion: PACKAGE_VERSION,
              ...(init.limits ? { limits: init.limits } : {}),
              ...(init.noise ? { noise: init.noise } : {}),
              ...(init.judge ? { judge: init.judge } : {}),
              ...(suiteFile ? { suiteFile } : {}),
            };
            const job =
              known ??
              (await queue.add('case', signJob(data, secret), {
                jobId: id,
                attempts: JOB_ATTEMPTS,
                backoff: { type: 'exponential', delay: 1000 },
                removeOnComplete: { age: 7 * 24 * 3600 },
                removeOnFail: { age: 7 * 24 * 3600 },
              }));
            const r = await wait(job, id, c, trial);
            if (pending.delete(id)) resolve(r);
          })().catch((e: unknown) => {
            if (pending.delete(id)) resolve(stoppedResult(c, trial, `the queue failed: ${(e as Error).message}`, 'error'));
          });
        });
      },
      stop() {
        // Cases not started yet leave the queue; every pending one is recorded as stopped (a running one's
        // result stays in Redis, and --resume takes it from there).
        for (const [id, p] of pending) {
          pending.delete(id);
          void queue
            .getJob(id)
            .then((j) => j?.remove())
            .catch(() => undefined);
          p.resolve(stoppedResult(p.c, p.trial, '', 'stopped'));
        }
      },
      async close() {
        await events.close();
        await queue.close();
      },
    },
  ];
}
