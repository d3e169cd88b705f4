// Runs a model's program in QuickJS (WebAssembly) on a worker thread the host
// can terminate. Limits are enforced twice: inside QuickJS (memory, stack, an
// interrupt at the deadline) and by a watchdog here that terminates the worker
// when QuickJS does not stop (a native op that never checks the interrupt:
// quickjs-emscripten #219). Stop terminates at once. A healthy worker is reused;
// a killed one is replaced on the next run.
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { MessageChannel, type MessagePort, Worker } from 'node:worker_threads';
import { BLOCKED_GLOBALS, explain } from './explain';
import { type CallReply, type DoneMessage, type FromWorker, FromWorkerSchema, type RunMessage } from './protocol';
import { DEFAULT_LIMITS, type RunOptions, type SandboxCall, type SandboxError, type SandboxLimits, SandboxLimitsSchema } from './types';
import type { SandboxResult } from './types';
import { WORKER_SOURCE } from './worker-source';

/** How long after the deadline the watchdog waits for QuickJS's own interrupt before killing the worker. */
const WATCHDOG_GRACE_MS = 500;
/** The worker thread's V8 heap (QuickJS's own heap is its memory limit, in WebAssembly memory). */
export const WORKER_HEAP_MB = 128;
/** A worker starts in ~50 ms; one that has not started after this is broken. */
const BOOT_TIMEOUT_MS = 15_000;

/** A caller's mistake (bad limits or API names), not the program's: one line naming the field. */
export class SandboxConfigError extends Error {
  override name = 'SandboxConfigError';
}

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;
const RESERVED = new Set(
  (
    'break case catch class const continue debugger default delete do else enum export extends false finally for function if import in ' +
    'instanceof let new null return super switch this throw true try typeof var void while with yield await print console globalThis'
  ).split(' '),
);

function checkNames(names: string[]): void {
  for (const name of names) {
    if (!IDENTIFIER.test(name) || RESERVED.has(name) || BLOCKED_GLOBALS.includes(name)) {
      throw new SandboxConfigError(
        `sandbox api: "${name}" cannot be a function name in the program; use a plain identifier such as get_pose`,
      );
    }
  }
}

export function resolveLimits(limits: Partial<SandboxLimits> = {}): SandboxLimits {
  const r = SandboxLimitsSchema.safeParse({ ...DEFAULT_LIMITS, ...limits });
  if (r.success) return r.data;
  const issue = r.error.issues[0];
  throw new SandboxConfigError(`sandbox limits.${issue?.path.join('.') ?? '?'}: ${issue?.message ?? 'invalid'}`);
}

/** Where the worker loads QuickJS from, resolved on this thread so a missing package fails with its name. */
function quickjsPaths(): { core: string; variant: string } {
  const from = typeof import.meta.url === 'string' ? import.meta.url : pathToFileURL(`${process.cwd()}/`).href;
  const require = createRequire(from);
  return { core: require.resolve('quickjs-emscripten-core'), variant: require.resolve('@jitl/quickjs-ng-wasmfile-release-sync') };
}

interface Live {
  worker: Worker;
  replies: MessagePort;
  /** Bumped after each reply; the worker waits on it. */
  signal: Int32Array;
  ready: Promise<void>;
}

/** The host's side of one program run. */
interface Current {
  id: number;
  live: Live;
  onMessage(m: FromWorker): void;
  /** The worker died or was killed under this run. */
  onDeath(error: SandboxError): void;
}

export class Sandbox {
  private live: Live | undefined;
  private current: Current | undefined;
  private queue: Promise<unknown> = Promise.resolve();
  private nextRun = 1;
  private disposed = false;
  private heap = 0;

  /**
   * The WebAssembly memory QuickJS had when the last program ended: all it
   * allocated, typed arrays and strings included, and never more than that
   * program's memory limit plus the build's own 16 MiB start.
   */
  get lastHeapBytes(): number {
    return this.heap;
  }

  /** Runs one program; programs on one sandbox run one after another. Rejects only for a caller's mistake (SandboxConfigError). */
  async run(code: string, opts: RunOptions): Promise<SandboxResult> {
    const limits = resolveLimits(opts.limits);
    const names = Object.keys(opts.api);
    checkNames(names);
    const signal = opts.signal;
    let started = false;
    const turn = this.queue.then(() => this.runNow(code, names, limits, opts, () => (started = true)));
    this.queue = turn.catch(() => undefined);
    if (!signal || signal.aborted) return turn;
    // Stopped while an earlier program still runs or the worker boots: answer at once (this one then never starts).
    const waiting = new Promise<SandboxResult>((resolve) => {
      const onAbort = () => {
        if (!started) resolve(stoppedResult('', []));
      };
      signal.addEventListener('abort', onAbort, { once: true });
      const cleanup = () => signal.removeEventListener('abort', onAbort);
      turn.then(cleanup, cleanup);
    });
    return Promise.race([turn, waiting]);
  }

  /** Starts the worker now (a host may warm it while the model is still writing). */
  async warm(): Promise<void> {
    await this.ensure();
  }

  async dispose(): Promise<void> {
    this.disposed = true;
    this.current?.onDeath({ kind: 'stopped', message: 'The sandbox was closed while the program ran.' });
    const live = this.live;
    this.live = undefined;
    if (live) await live.worker.terminate();
  }

  private ensure(): Promise<Live> {
    this.live ??= this.spawn();
    const live = this.live;
    return live.ready.then(() => live);
  }

  private spawn(): Live {
    const { port1, port2 } = new MessageChannel();
    const signal = new Int32Array(new SharedArrayBuffer(4));
    const worker = new Worker(WORKER_SOURCE, {
      eval: true,
      // The first module is made for the default limit; a run with another gets its own (worker-source.ts).
      workerData: { ...quickjsPaths(), replies: port2, signal: signal.buffer, memoryBytes: DEFAULT_LIMITS.memoryBytes },
      transferList: [port2],
      // QuickJS recurses on the thread's native stack as well as its own: room for a 1 MiB QuickJS stack.
      // The worker's own heap is bounded too (values leave QuickJS only as capped JSON text).
      resourceLimits: { stackSizeMb: 16, maxOldGenerationSizeMb: WORKER_HEAP_MB, maxYoungGenerationSizeMb: 16 },
    });
    // An idle sandbox does not keep the process alive; a run refs it.
    worker.unref();
    let booted: (() => void) | undefined;
    let failed: ((e: Error) => void) | undefined;
    const ready = new Promise<void>((resolve, reject) => {
      booted = resolve;
      failed = reject;
    });
    ready.catch(() => undefined);
    const live: Live = { worker, replies: port1, signal, ready };
    const die = (message: string, kind: SandboxError['kind'] = 'internal') => {
      failed?.(new Error(message));
      if (this.live === live) this.live = undefined;
      if (this.current?.live === live) this.current.onDeath({ kind, message });
    };
    worker.on('message', (raw: unknown) => {
      const parsed = FromWorkerSchema.safeParse(raw);
      if (!parsed.success) {
        void worker.terminate();
        return die(`The sandbox worker sent a malformed message (${parsed.error.issues[0]?.message ?? 'invalid'}).`);
      }
      const m = parsed.data;
      if (m.type === 'ready') {
        clearTimeout(bootTimer);
        return booted?.();
      }
      if (m.type === 'boot_failed') {
        void worker.terminate();
        return die(`The sandbox could not start QuickJS: ${m.message}`);
      }
      if (this.current?.live === live) this.current.onMessage(m);
    });
    worker.on('error', (e: Error & { code?: string }) => {
      if (e.code === 'ERR_WORKER_OUT_OF_MEMORY') return die('The program was stopped: the sandbox ran out of memory.', 'memory');
      die(`The sandbox worker failed: ${e.message}`);
    });
    worker.on('exit', (code) => die(`The sandbox worker exited (code ${code}).`));
    const bootTimer = setTimeout(() => {
      void worker.terminate();
      die(`The sandbox worker did not start within ${BOOT_TIMEOUT_MS / 1000} s.`);
    }, BOOT_TIMEOUT_MS);
    bootTimer.unref();
    return live;
  }

  private kill(live: Live): void {
    if (this.live === live) this.live = undefined;
    void live.worker.terminate();
  }

  private async runNow(
    code: string,
    names: string[],
    limits: SandboxLimits,
    opts: RunOptions,
    onStart: () => void,
  ): Promise<SandboxResult> {
    const calls: SandboxCall[] = [];
    const output = new OutputTail(limits.maxOutputChars);
    const stopped = () => stoppedResult(output.text(), calls);
    if (opts.signal?.aborted || this.disposed) return stopped();
    let live: Live;
    try {
      live = await this.ensure();
    } catch (e) {
      return { ok: false, error: { kind: 'internal', message: (e as Error).message }, output: '', calls };
    }
    if (opts.signal?.aborted || this.disposed) return stopped();

    const id = this.nextRun++;
    const deadlineAt = performance.now() + limits.timeMs;
    return new Promise<SandboxResult>((resolve) => {
      let inflight:
        { seq: number; name: string; args: SandboxCall['args']; startedAt: number; t0: number; ctrl: AbortController } | undefined;
      const record = (call: NonNullable<typeof inflight>, outcome: SandboxCall['outcome']) => {
        const entry: SandboxCall = {
          seq: call.seq,
          name: call.name,
          args: call.args,
          startedAt: call.startedAt,
          durationMs: performance.now() - call.t0,
          outcome,
        };
        calls.push(entry);
        safely(() => opts.onCall?.(entry));
      };
      // Ends the run once: cuts a running call short (its signal aborted), kills the worker if asked.
      const finish = (result: SandboxResult | SandboxError, kill: boolean, cutShort = 'the program ended while this call was running') => {
        if (this.current !== current) return;
        this.current = undefined;
        clearTimeout(watchdog);
        opts.signal?.removeEventListener('abort', onAbort);
        if (kill) this.kill(live);
        else live.worker.unref();
        if (inflight) {
          inflight.ctrl.abort(new Error(cutShort));
          record(inflight, { ok: false, error: cutShort });
          inflight = undefined;
        }
        resolve(
          'kind' in result ? { ok: false, error: result, output: output.text(), calls } : { ...result, output: output.text(), calls },
        );
      };
      const onAbort = () => finish(STOPPED, true, 'stopped by the user');
      const call = async (m: Extract<FromWorker, { type: 'call' }>) => {
        const args = asArgs(m.args);
        const fn = Object.hasOwn(opts.api, m.name) ? opts.api[m.name] : undefined;
        const me = { seq: m.seq, name: m.name, args, startedAt: Date.now(), t0: performance.now(), ctrl: new AbortController() };
        inflight = me;
        let outcome: SandboxCall['outcome'];
        try {
          // A call that arrives after the program's deadline is not run: nothing reaches the robot late.
          if (performance.now() >= deadlineAt)
            throw new Error(`${m.name} was not run: the program's time limit of ${limits.timeMs / 1000} s had passed`);
          if (!fn) throw new Error(`${m.name} is not an API function`);
          outcome = { ok: true, value: plainData(await fn(args, me.ctrl.signal), m.name) };
        } catch (e) {
          outcome = { ok: false, error: e instanceof Error ? e.message : String(e) };
        }
        // The run ended while the call ran: it was reported then, and no one waits for the answer.
        if (inflight !== me || this.current !== current) return;
        inflight = undefined;
        record(me, outcome);
        const reply: CallReply = outcome.ok
          ? { run: id, seq: m.seq, ok: true, value: outcome.value }
          : { run: id, seq: m.seq, ok: false, error: outcome.error };
        live.replies.postMessage(reply);
        Atomics.add(live.signal, 0, 1);
        Atomics.notify(live.signal, 0);
      };
      const current: Current = {
        id,
        live,
        onMessage: (m) => {
          if (m.type === 'call' && m.run === id) void call(m);
          else if (m.type === 'output' && m.run === id) {
            const chunk = output.add(m.text, m.dropped);
            safely(() => opts.onOutput?.(chunk));
          } else if (m.type === 'done' && m.run === id) {
            this.heap = m.heapBytes;
            finish(this.ended(m, code, names, limits, calls), m.retire, 'the time limit was reached while this call was running');
          }
        },
        onDeath: (error) => finish(error, false),
      };
      this.current = current;
      const watchdog = setTimeout(
        () =>
          finish(
            {
              kind: 'timeout',
              message: `The program was stopped: it ran longer than its time limit of ${limits.timeMs / 1000} s, inside one long operation (such as building a huge string or array) that could not be interrupted. A program must finish quickly.`,
            },
            true,
            'the time limit was reached while this call was running',
          ),
        limits.timeMs + WATCHDOG_GRACE_MS,
      );
      opts.signal?.addEventListener('abort', onAbort, { once: true });
      live.worker.ref();
      onStart();
      const message: RunMessage = { type: 'run', run: id, code, names, blocked: [...BLOCKED_GLOBALS], limits };
      live.worker.postMessage(message);
    });
  }

  private ended(m: DoneMessage, code: string, names: string[], limits: SandboxLimits, calls: SandboxCall[]): SandboxResult | SandboxError {
    if (m.ok && !m.fatal) return { ok: true, value: m.value, output: '', calls };
    return explain(m, { code, names, limits, calls });
  }
}

const STOPPED: SandboxError = { kind: 'stopped', message: 'The program was stopped by the user before it finished.' };
const stoppedResult = (output: string, calls: SandboxCall[]): SandboxResult => ({ ok: false, error: STOPPED, output, calls });

/** Keeps the last `max` characters of a program's output, saying how much was dropped. */
export class OutputTail {
  private tail = '';
  private dropped = 0;
  constructor(private readonly max: number) {}

  /** Adds a chunk; returns it as the caller should see it (with a note when the worker dropped some). */
  add(text: string, droppedBefore: number): string {
    const chunk = droppedBefore ? `[… ${droppedBefore} characters of output dropped]\n${text}` : text;
    this.dropped += droppedBefore;
    this.tail += text;
    const over = this.tail.length - this.max;
    if (over > 0) {
      this.dropped += over;
      this.tail = this.tail.slice(over);
    }
    return chunk;
  }

  text(): string {
    return this.dropped ? `[… ${this.dropped} earlier characters of output dropped]\n${this.tail}` : this.tail;
  }
}

/** One plain object → named arguments; anything else → the positional list. */
function asArgs(args: unknown[]): unknown[] | Record<string, unknown> {
  const [only] = args;
  if (args.length === 1 && only !== null && typeof only === 'object' && !Array.isArray(only)) return only as Record<string, unknown>;
  return args;
}

/** What an API function returned, as plain data the program can receive (JSON: no functions, cycles or bigints). */
function plainData(value: unknown, name: string): unknown {
  if (value === undefined) return undefined;
  try {
    return JSON.parse(JSON.stringify(value)) as unknown;
  } catch (e) {
    throw new Error(`${name} returned a value the program cannot receive (${(e as Error).message})`);
  }
}

function safely(fn: () => void): void {
  try {
    fn();
  } catch {
    // A failing listener (trace, UI) must not break the run it observes.
  }
}

let shared: Sandbox | undefined;

/** Runs a program in the process's shared sandbox (one worker, reused while healthy). */
export function runProgram(code: string, opts: RunOptions): Promise<SandboxResult> {
  shared ??= new Sandbox();
  return shared.run(code, opts);
}
