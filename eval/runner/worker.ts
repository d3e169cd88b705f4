// An evaluation worker thread: keeps its own built worlds (one per WorldSpec key)
// and runs the cases the main thread hands it (several at once with --concurrency).
import { type MessagePort, parentPort, workerData } from 'node:worker_threads';
import { WorldPool } from '../core/world';
import { suiteOf } from '../suites/index';
import type { FromWorker, ToWorker, WorkerInit } from './protocol';
import { runCase } from './run-case';
import { caseHooks } from '../scale/hooks';
import { adoptModelProcessPort } from '../../agents/models/local/process-relay';
import { unloadLocalModels } from '../../agents/models/local/model-cache';

const port = parentPort;
if (!port) throw new Error('eval/runner/worker.ts runs as a worker thread');
const data = workerData as { init: WorkerInit; modelProcesses?: MessagePort };
const init = data.init;
adoptModelProcessPort(data.modelProcesses);
const post = (m: FromWorker) => port.postMessage(m);
const suite = suiteOf(init);
const pool = new WorldPool({
  seed: init.seed,
  ...(init.noise ? { noise: init.noise } : {}),
  ...(init.robot ? { robot: init.robot } : {}),
  maxIdle: Math.max(4, init.concurrency ?? 1),
});
const running = new Set<AbortController>();
const hooks = caseHooks(init);

if (!suite) {
  post({ type: 'fatal', message: `this build has no suite "${init.suite}"` });
} else {
  port.on('message', (m: ToWorker) => {
    if (m.type === 'stop') {
      for (const ac of running) ac.abort();
      return;
    }
    if (m.type === 'close') {
      // The thread's loaded local models end with it (model-cache.ts).
      void pool
        .dispose()
        .then(() => unloadLocalModels())
        .finally(() => port.close());
      return;
    }
    const ac = new AbortController();
    running.add(ac);
    void runCase({
      suite,
      case: m.case,
      trial: m.trial,
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
    }).then((result) => {
      running.delete(ac);
      post({ type: 'result', job: m.job, result });
    });
  });
  post({ type: 'ready' });
}
