// AppApi on the host thread, forwarded to the simulation worker. Hosts (the web
// server, Electron main) hold one of these; if the worker dies, pending calls
// fail with a clear error and the next call starts a fresh worker.
import { Worker } from 'node:worker_threads';
import {
  type AppApi,
  AppApiError,
  type EventListener,
  type MethodName,
  makeAppApi,
  type PoseListener,
  type Request,
  type Response,
  type Unsubscribe,
} from '../../contract/api';
import type { AppServiceOptions } from './app-service';
import { bundledWorker } from './worker-bundle';
import { modelProcessPortForWorker } from '../../agents/models/local/process-relay';
import type { FromWorker, ToWorker, WorkerOptions } from './worker-protocol';

/** The session's own options (`secrets` are looked up on this thread when the worker asks), and how to run the worker. */
export interface WorkerSessionOptions extends AppServiceOptions {
  /**
   * The worker script. Default, running from the sources: worker.ts bundled by
   * esbuild (see worker-bundle.ts), or through a tsx bootstrap where that fails.
   * A bundled host (Electron) passes its built worker.
   */
  workerUrl?: URL;
  /** false: run worker.ts through tsx instead of a bundle (slower start; breakpoints in the TypeScript sources). */
  bundle?: boolean;
  onLog?: (line: string) => void;
  /**
   * Return at once while the worker boots (about a second from sources): calls
   * wait for it, and a start failure is the error of the first call. Lets a host
   * open its window or socket meanwhile.
   */
  background?: boolean;
}

interface Pending {
  resolve: (v: unknown) => void;
  reject: (e: Error) => void;
}

export interface WorkerSession extends AppApi {
  dispose(): Promise<void>;
}

class WorkerSessionImpl {
  private worker: Worker | undefined;
  private ready: Promise<void> | undefined;
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private readonly poseListeners = new Set<PoseListener>();
  private readonly eventListeners = new Set<EventListener>();
  private latest: Float32Array | undefined;
  private disposed = false;

  constructor(private readonly opts: WorkerSessionOptions) {}

  /** Starts the worker; `ready` is set at once, so concurrent first calls share one start. */
  private spawn(): Promise<void> {
    const ready = this.boot();
    this.ready = ready;
    ready.catch(() => undefined);
    return ready;
  }

  private async boot(): Promise<void> {
    const fromSources = import.meta.url.endsWith('.ts');
    const data: WorkerOptions = {
      paced: this.opts.paced ?? true,
      seed: this.opts.seed ?? 1,
      frameHz: this.opts.frameHz ?? 60,
      allowFiles: this.opts.allowFiles ?? false,
      ...(this.opts.traceDir ? { traceDir: this.opts.traceDir } : {}),
      ...(this.opts.evalDir ? { evalDir: this.opts.evalDir } : {}),
      ...(this.opts.secrets ? { secrets: true } : {}),
      ...(this.opts.ollamaURL ? { ollamaURL: this.opts.ollamaURL } : {}),
      ...(this.opts.robot ? { robot: this.opts.robot } : {}),
      ...(this.opts.urdf ? { urdf: this.opts.urdf } : {}),
      ...(this.opts.allowKeyFor ? { allowKeyFor: this.opts.allowKeyFor } : {}),
      ...(this.opts.confirmKey ? { confirmKeys: true } : {}),
      ...(this.opts.scriptFiles ? { scriptFiles: this.opts.scriptFiles } : {}),
      ...(this.opts.exercisesDir ? { exercisesDir: this.opts.exercisesDir } : {}),
      ...(this.opts.modelsDir ? { modelsDir: this.opts.modelsDir } : {}),
      ...(this.opts.manageModels ? { manageModels: true } : {}),
    };
    let url = this.opts.workerUrl;
    if (!url) {
      if (!fromSources) throw new Error('WorkerSession: pass workerUrl when running from a bundle');
      if (this.opts.bundle !== false) url = await bundledWorker(this.opts.onLog);
      if (!url) {
        url = new URL('./worker-bootstrap.mjs', import.meta.url);
        data.entry = new URL('./worker.ts', import.meta.url).href;
      }
    }
    if (this.disposed) return;
    // A host that cannot fork Node (the packaged Electron app) starts the worker's model processes itself.
    const modelProcesses = modelProcessPortForWorker();
    if (modelProcesses) data.modelProcesses = modelProcesses;
    const w = new Worker(url, { workerData: data, ...(modelProcesses ? { transferList: [modelProcesses] } : {}) });
    this.worker = w;
    const up = new Promise<void>((resolve, reject) => {
      const onEarlyError = (e: Error): void => reject(e);
      w.once('error', onEarlyError);
      w.on('message', (m: FromWorker) => {
        if (m.t === 'ready') {
          w.off('error', onEarlyError);
          resolve();
        } else this.receive(m);
      });
    });
    w.on('error', (e) => this.fail(`the simulation worker failed: ${e.message}`));
    w.on('exit', (code) => {
      if (this.worker === w) {
        this.worker = undefined;
        this.ready = undefined;
        if (!this.disposed) this.fail(`the simulation worker stopped (exit code ${code}); the next call starts a new one`);
      }
    });
    await up;
  }

  private fail(message: string): void {
    this.opts.onLog?.(message);
    for (const p of this.pending.values()) p.reject(new AppApiError('internal', message));
    this.pending.clear();
  }

  private receive(m: FromWorker): void {
    if (m.t === 'reply') {
      const p = this.pending.get(m.id);
      if (!p) return;
      this.pending.delete(m.id);
      if (m.ok) p.resolve(m.value);
      else p.reject(new AppApiError(m.error.code, m.error.message));
    } else if (m.t === 'poses') {
      this.latest = m.frame;
      for (const l of this.poseListeners) l(m.frame);
    } else if (m.t === 'event') {
      for (const l of this.eventListeners) l(m.event);
    } else if (m.t === 'log') {
      this.opts.onLog?.(m.line);
    } else if (m.t === 'secret' || m.t === 'confirm_key') {
      const w = this.worker;
      void (async () => {
        let value: string | null = null;
        try {
          if (m.t === 'secret') value = (await this.opts.secrets?.(m.scope)) ?? null;
          else value = (await this.opts.confirmKey?.(m.baseURL)) ? 'yes' : null;
        } catch (e) {
          this.opts.onLog?.(`the API key for ${m.t === 'secret' ? m.scope.baseURL : m.baseURL} failed: ${(e as Error).message}`);
        }
        const reply: ToWorker = { t: 'secret_reply', id: m.id, value };
        w?.postMessage(reply);
      })();
    }
  }

  async call<M extends MethodName>(method: M, request: Request<M>): Promise<Response<M>> {
    if (this.disposed) throw new AppApiError('internal', 'the session is closed');
    await (this.ready ?? this.spawn());
    const w = this.worker;
    if (!w || this.disposed) throw new AppApiError('internal', 'the session is closed');
    const id = this.nextId++;
    return new Promise<Response<M>>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
      const msg: ToWorker = { t: 'call', id, method, request };
      w.postMessage(msg);
    });
  }

  onPoses(listener: PoseListener): Unsubscribe {
    this.poseListeners.add(listener);
    if (this.latest) listener(this.latest);
    return () => this.poseListeners.delete(listener);
  }

  onEvent(listener: EventListener): Unsubscribe {
    this.eventListeners.add(listener);
    return () => this.eventListeners.delete(listener);
  }

  async start(): Promise<void> {
    await this.spawn();
  }

  async dispose(): Promise<void> {
    if (this.disposed) return;
    this.disposed = true;
    const w = this.worker;
    if (!w) return;
    await Promise.race([
      new Promise<void>((resolve) => {
        w.on('message', (m: FromWorker) => m.t === 'disposed' && resolve());
        const msg: ToWorker = { t: 'dispose' };
        w.postMessage(msg);
      }),
      new Promise<void>((resolve) => w.once('exit', () => resolve())),
      new Promise((r) => setTimeout(r, 3000)),
    ]);
    await w.terminate();
    this.worker = undefined;
  }
}

/** Starts the simulation worker and returns AppApi over it. */
export async function startWorkerSession(opts: WorkerSessionOptions = {}): Promise<WorkerSession> {
  const impl = new WorkerSessionImpl(opts);
  const started = impl.start();
  if (opts.background) started.catch(() => undefined);
  else await started;
  const api = makeAppApi(
    (method, request) => impl.call(method, request),
    (l) => impl.onPoses(l),
    (l) => impl.onEvent(l),
  );
  return { ...api, dispose: () => impl.dispose() };
}
