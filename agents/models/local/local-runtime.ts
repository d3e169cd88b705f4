// One model process and the file it loaded: starts it through the host's launcher
// (process-launcher.ts), loads the GGUF once, and carries generate requests and
// their replies by id. Several Model objects may share one runtime (model-cache.ts);
// the process generates one request at a time, in order.
import { availableParallelism } from 'node:os';
import { ModelError } from '../model';
import { modelProcessLauncher, modelProcessScript, type ModelProcess } from './process-launcher';
import { FromProcessSchema, type FromProcess, type GenerateRequest, type ToProcess } from './protocol';

/** What a loaded process is: one of these per file × context settings. */
export interface RuntimeOptions {
  file: string;
  gpu: false | 'auto';
  /** Largest context to allocate, in tokens. */
  maxContext: number;
  threads: number;
}

export type Loaded = Extract<FromProcess, { type: 'loaded' }>;
export type Done = Extract<FromProcess, { type: 'done' }>;
export type ProcessErrorReply = Extract<FromProcess, { type: 'error' }>;
type Pending = { onMessage: (m: FromProcess) => void; fail: (e: Error) => void };

export interface GenerateHandlers {
  onText?: (delta: string) => void;
  onReasoning?: (delta: string) => void;
  /** The error a failed reply becomes (the model names itself and its limits). */
  toError: (m: ProcessErrorReply) => Error;
}

export interface LocalRuntime {
  readonly options: RuntimeOptions;
  /** Starts the process and loads the file (generate does this on first use). */
  load(): Promise<Loaded>;
  /** Runs one request; `build` gets the request's id. Rejects with ModelError 'aborted' when the signal fires. */
  generate(build: (id: number) => GenerateRequest, handlers: GenerateHandlers, signal?: AbortSignal): Promise<Done>;
  /** Ends the process; its memory goes with it. */
  dispose(): Promise<void>;
  readonly pid: number | undefined;
}

/** The settings a process is started with, defaults filled in (equal settings may share a process). */
export function runtimeOptions(o: { file: string; gpu?: false | 'auto'; maxContext?: number; threads?: number }): RuntimeOptions {
  return {
    file: o.file,
    gpu: o.gpu ?? (process.platform === 'darwin' ? 'auto' : false),
    maxContext: o.maxContext ?? 32768,
    // Half the cores by default: a laptop keeps the rest for the simulation and the UI.
    threads: o.threads ?? Math.max(1, Math.min(8, Math.floor(availableParallelism() / 2))),
  };
}

export function createLocalRuntime(options: RuntimeOptions): LocalRuntime {
  let child: ModelProcess | undefined;
  let loading: Promise<Loaded> | undefined;
  let nextId = 1;
  let stderr = '';
  const pending = new Map<number, Pending>();
  let onLoad: Pending | undefined;
  /** Processes that have ended (a launcher may know a process's id only after it spawned, so the id cannot say). */
  const ended = new WeakSet<ModelProcess>();

  const loadError = (why: string): ModelError =>
    new ModelError(`${options.file} could not be loaded as a model: ${why}`, 'config', undefined, {
      fix: 'The file may be truncated or corrupt: download it again, or pick another .gguf file.',
    });

  function failAll(e: Error): void {
    onLoad?.fail(e);
    onLoad = undefined;
    for (const p of pending.values()) p.fail(e);
    pending.clear();
  }

  function start(): Promise<Loaded> {
    const proc = modelProcessLauncher()(modelProcessScript());
    child = proc;
    proc.onStderr((text) => {
      stderr = (stderr + text).slice(-2000);
    });
    proc.onMessage((raw) => {
      const parsed = FromProcessSchema.safeParse(raw);
      if (!parsed.success)
        return failAll(new ModelError(`The local model process sent a malformed message: ${parsed.error.message}`, 'bad_response'));
      const m = parsed.data;
      if (m.type === 'loaded' || (m.type === 'error' && m.id === undefined)) return onLoad?.onMessage(m);
      if ('id' in m && m.id !== undefined) pending.get(m.id)?.onMessage(m);
    });
    proc.onExit((why) => {
      ended.add(proc);
      if (child === proc) {
        child = undefined;
        loading = undefined;
      }
      const tail = stderr.trim().split('\n').slice(-3).join(' ');
      failAll(new ModelError(`The local model process for ${options.file} ended (${why})${tail ? `: ${tail}` : ''}.`, 'server'));
    });
    return new Promise<Loaded>((resolve, reject) => {
      onLoad = {
        onMessage: (m) => {
          onLoad = undefined;
          proc.hold(false);
          if (m.type === 'loaded') resolve(m);
          else if (m.type === 'error') {
            reject(loadError(m.message));
            void dispose();
          }
        },
        fail: reject,
      };
      if (ended.has(proc)) return reject(new ModelError(`The local model process for ${options.file} ended before it loaded.`, 'server'));
      proc.hold(true);
      proc.send({ type: 'load', ...options } satisfies ToProcess);
    });
  }

  function load(): Promise<Loaded> {
    loading ??= start().catch((e: unknown) => {
      loading = undefined;
      throw e;
    });
    return loading;
  }

  async function dispose(): Promise<void> {
    const proc = child;
    child = undefined;
    loading = undefined;
    if (!proc || ended.has(proc)) return;
    const gone = new Promise<void>((r) => proc.onExit(() => r()));
    proc.send({ type: 'dispose' });
    const timer = setTimeout(() => proc.kill(), 3000);
    await gone;
    clearTimeout(timer);
  }

  async function generate(build: (id: number) => GenerateRequest, h: GenerateHandlers, signal?: AbortSignal): Promise<Done> {
    if (signal?.aborted) throw new ModelError('Stopped.', 'aborted');
    await load();
    // Stopped while the model loaded: the listener below would never fire for an already-aborted signal.
    if (signal?.aborted) throw new ModelError('Stopped.', 'aborted');
    const id = nextId++;
    const request = build(id);
    const proc = child;
    return new Promise<Done>((resolve, reject) => {
      const onAbort = (): void => {
        settle();
        proc?.send({ type: 'abort', id });
        reject(new ModelError('Stopped.', 'aborted'));
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      function settle(): void {
        pending.delete(id);
        if (!pending.size) proc?.hold(false);
        signal?.removeEventListener('abort', onAbort);
      }
      pending.set(id, {
        onMessage: (m) => {
          if (m.type === 'text') h.onText?.(m.delta);
          else if (m.type === 'reasoning') h.onReasoning?.(m.delta);
          else if (m.type === 'done') {
            settle();
            resolve(m);
          } else if (m.type === 'error') {
            settle();
            reject(h.toError(m));
          }
        },
        fail: (e) => {
          settle();
          reject(e);
        },
      });
      if (!proc) return pending.get(id)?.fail(new ModelError(`The local model process for ${options.file} is gone.`, 'server'));
      proc.hold(true);
      proc.send(request);
    });
  }

  return {
    options,
    load,
    generate,
    dispose,
    get pid() {
      return child?.pid;
    },
  };
}
