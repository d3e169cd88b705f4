// The simulation worker: one AppService (physics, robot, tools) on its own thread,
// so stepping at 240 Hz never delays the host's socket or IPC. The host talks to
// it through WorkerSession; pose frames are transferred, not copied.
import { parentPort, workerData } from 'node:worker_threads';
import { AppApiError, dispatch, isMethodName, parseRequest } from '../../contract/api';
import type { KeyScope } from '../../agents/models/spec';
import { AppService } from './app-service';
import { unloadLocalModels } from '../../agents/models/local/model-cache';
import { adoptModelProcessPort } from '../../agents/models/local/process-relay';
import type { ToWorker, WorkerOptions } from './worker-protocol';

const port = parentPort;
if (!port) throw new Error('hosts/service/worker.ts must run in a worker thread');
const opts = (workerData ?? {}) as WorkerOptions;
adoptModelProcessPort(opts.modelProcesses);
let secretIds = 0;
const secretWaits = new Map<number, (v: string | undefined) => void>();
/** Asks the host thread: a stored API key (the desktop app's keychain), or the person's consent to send one. */
const ask = (m: { t: 'secret'; scope: KeyScope } | { t: 'confirm_key'; baseURL: string }): Promise<string | undefined> =>
  new Promise((resolve) => {
    const id = ++secretIds;
    secretWaits.set(id, resolve);
    port.postMessage({ ...m, id });
  });
const secrets = (scope: KeyScope): Promise<string | undefined> => ask({ t: 'secret', scope });
const confirmKey = async (baseURL: string): Promise<boolean> => (await ask({ t: 'confirm_key', baseURL })) === 'yes';
const session = new AppService({
  paced: opts.paced,
  seed: opts.seed,
  frameHz: opts.frameHz,
  allowFiles: opts.allowFiles,
  ...(opts.traceDir ? { traceDir: opts.traceDir } : {}),
  ...(opts.evalDir ? { evalDir: opts.evalDir } : {}),
  ...(opts.secrets ? { secrets } : {}),
  ...(opts.ollamaURL ? { ollamaURL: opts.ollamaURL } : {}),
  ...(opts.robot ? { robot: opts.robot } : {}),
  ...(opts.urdf ? { urdf: opts.urdf } : {}),
  ...(opts.allowKeyFor ? { allowKeyFor: opts.allowKeyFor } : {}),
  ...(opts.confirmKeys ? { confirmKey } : {}),
  ...(opts.scriptFiles ? { scriptFiles: opts.scriptFiles } : {}),
  ...(opts.exercisesDir ? { exercisesDir: opts.exercisesDir } : {}),
  ...(opts.modelsDir ? { modelsDir: opts.modelsDir } : {}),
  ...(opts.manageModels ? { manageModels: true } : {}),
  log: (line) => port.postMessage({ t: 'log', line }),
});

session.onPoses((frame) => port.postMessage({ t: 'poses', frame }, [frame.buffer as ArrayBuffer]));
session.onEvent((event) => port.postMessage({ t: 'event', event }));

port.on('message', (m: ToWorker) => {
  if (m.t === 'secret_reply') {
    secretWaits.get(m.id)?.(m.value ?? undefined);
    secretWaits.delete(m.id);
    return;
  }
  if (m.t === 'dispose') {
    // The thread's loaded local models end with it (model-cache.ts).
    void session
      .dispose()
      .then(() => unloadLocalModels())
      .then(() => port.postMessage({ t: 'disposed' }));
    return;
  }
  void (async () => {
    try {
      if (!isMethodName(m.method)) throw new AppApiError('invalid_request', `unknown method "${m.method}"`);
      const value = await dispatch(session, m.method, parseRequest(m.method, m.request) as never);
      port.postMessage({ t: 'reply', id: m.id, ok: true, value });
    } catch (e) {
      const error =
        e instanceof AppApiError ? { code: e.code, message: e.message } : { code: 'internal', message: (e as Error).message ?? String(e) };
      port.postMessage({ t: 'reply', id: m.id, ok: false, error });
    }
  })();
});

port.postMessage({ t: 'ready' });
