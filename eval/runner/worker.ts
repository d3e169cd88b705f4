// An evaluation worker thread: keeps its own built worlds (one per WorldSpec key)
// and runs one case at a time, as the main thread hands them out.
import { parentPort, workerData } from 'node:worker_threads';
import { WorldPool } from '../core/world';
import { findSuite } from '../suites/index';
import type { FromWorker, ToWorker, WorkerInit } from './protocol';
import { runCase } from './run-case';

const port = parentPort;
if (!port) throw new Error('eval/runner/worker.ts runs as a worker thread');
const init = (workerData as { init: WorkerInit }).init;
const post = (m: FromWorker) => port.postMessage(m);
const suite = findSuite(init.suite);
const pool = new WorldPool({ seed: init.seed });
let running: AbortController | undefined;

if (!suite) {
  post({ type: 'fatal', message: `this build has no suite "${init.suite}"` });
} else {
  port.on('message', (m: ToWorker) => {
    if (m.type === 'stop') {
      running?.abort();
      return;
    }
    if (m.type === 'close') {
      void pool.dispose().finally(() => port.close());
      return;
    }
    const ac = new AbortController();
    running = ac;
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
      ...(init.scriptFiles ? { scriptFiles: init.scriptFiles } : {}),
      signal: ac.signal,
      ...(init.limits ? { limits: init.limits } : {}),
      ...(init.judge ? { judge: init.judge } : {}),
    }).then((result) => {
      if (running === ac) running = undefined;
      post({ type: 'result', job: m.job, result });
    });
  });
  post({ type: 'ready' });
}
