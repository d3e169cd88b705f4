// Where cases run: in this thread (--jobs 1), or on N worker threads, each with
// its own built worlds. A worker that dies takes only its current case with it
// (that case is an error naming the cause) and is replaced.
import { Worker } from 'node:worker_threads';
import type { EvalCase } from '../core/case';
import { WorldPool } from '../core/world';
import { suiteOf } from '../suites/index';
import type { FromWorker, ToWorker, WorkerInit } from './protocol';
import { type CaseResult, runCase } from './run-case';
import { evalWorkerScript } from './worker-bundle';
import { caseHooks } from '../scale/hooks';
import { modelProcessPortForWorker } from '../../agents/models/local/process-relay';

export interface Slot {
  /** World keys this slot has built (cases there start without a build). */
  readonly built: Set<string>;
  /** Cases this slot runs at once. */
  readonly capacity: number;
  run(c: EvalCase, trial: number): Promise<CaseResult>;
  /** Stops the running cases; they return as "stopped". */
  stop(): void;
  close(): Promise<void>;
}

export function inlineSlot(init: WorkerInit): Slot {
  const suite = suiteOf(init);
  if (!suite) throw new Error(`no suite "${init.suite}"`);
  const capacity = init.concurrency ?? 1;
  const pool = new WorldPool({
    seed: init.seed,
    ...(init.noise ? { noise: init.noise } : {}),
    ...(init.robot ? { robot: init.robot } : {}),
    maxIdle: Math.max(4, capacity),
  });
  const built = new Set<string>();
  const running = new Set<AbortController>();
  const hooks = caseHooks(init);
  return {
    built,
    capacity,
    async run(c, trial) {
      const ac = new AbortController();
      running.add(ac);
      built.add(c.world.key);
      try {
        return await runCase({
          suite,
          case: c,
          trial,
          workflow: init.workflow,
          model: init.model,
          seed: init.seed,
          pool,
          traceDir: init.traceDir,
          env: init.env,
          files: init.files,
          signal: ac.signal,
          ...hooks,
          ...(init.limits ? { limits: init.limits } : {}),
          ...(init.judge ? { judge: init.judge } : {}),
          ...(init.judgeEnv ? { judgeEnv: init.judgeEnv } : {}),
        });
      } finally {
        running.delete(ac);
      }
    },
    stop: () => {
      for (const ac of running) ac.abort();
    },
    close: () => pool.dispose(),
  };
}

function crashed(c: EvalCase, trial: number, why: string): CaseResult {
  return {
    record: {
      caseId: c.id,
      trial,
      status: 'error',
      labels: c.labels,
      error: `the evaluation worker thread died: ${why}`,
      errorKind: 'worker-died',
    },
    timing: { totalMs: 0, restoreMs: 0, buildMs: 0, modelMs: 0, toolMs: 0, overheadMs: 0 },
  };
}

/** A worker thread running up to init.concurrency cases at once. */
export async function workerSlot(init: WorkerInit, onLog?: (line: string) => void): Promise<Slot> {
  const script = await evalWorkerScript(onLog);
  const built = new Set<string>();
  let worker: Worker | undefined;
  let ready: Promise<void> | undefined;
  const pending = new Map<number, { resolve: (r: CaseResult) => void; c: EvalCase; trial: number }>();
  let job = 0;
  let closing = false;

  const start = (): Promise<void> => {
    // Where this thread's model processes come from a host's launcher, the worker's do too.
    const modelProcesses = modelProcessPortForWorker();
    const w = new Worker(script.url, {
      workerData: { init, ...(script.entry ? { entry: script.entry } : {}), ...(modelProcesses ? { modelProcesses } : {}) },
      ...(modelProcesses ? { transferList: [modelProcesses] } : {}),
    });
    worker = w;
    built.clear();
    const p = new Promise<void>((resolve, reject) => {
      w.on('message', (m: FromWorker) => {
        if (m.type === 'ready') resolve();
        else if (m.type === 'fatal') reject(new Error(m.message));
        else if (m.type === 'result') {
          const done = pending.get(m.job);
          pending.delete(m.job);
          done?.resolve(m.result);
        }
      });
      const died = (why: string) => {
        if (worker === w) worker = undefined;
        reject(new Error(why));
        for (const done of pending.values()) done.resolve(crashed(done.c, done.trial, why));
        pending.clear();
      };
      w.on('error', (e) => died(e.message));
      w.on('exit', (code) => {
        if (!closing) died(`it exited with code ${code}`);
      });
    });
    ready = p;
    return p;
  };
  await start();

  return {
    built,
    capacity: init.concurrency ?? 1,
    async run(c, trial) {
      if (!worker) await start();
      await ready;
      built.add(c.world.key);
      const id = ++job;
      return new Promise<CaseResult>((resolve) => {
        pending.set(id, { resolve, c, trial });
        const msg: ToWorker = { type: 'case', job: id, case: c, trial };
        worker!.postMessage(msg);
      });
    },
    stop() {
      worker?.postMessage({ type: 'stop' } satisfies ToWorker);
    },
    async close() {
      closing = true;
      const w = worker;
      if (!w) return;
      const exited = new Promise<void>((r) => w.once('exit', () => r()));
      w.postMessage({ type: 'close' } satisfies ToWorker);
      // A worker that does not let go (a skill stuck in a wait) is ended.
      const t = setTimeout(() => void w.terminate(), 3000);
      await exited;
      clearTimeout(t);
    },
  };
}
