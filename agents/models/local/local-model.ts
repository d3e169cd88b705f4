// The built-in local provider, `local:FILE.gguf` / `local:NAME`: a GGUF model run
// by llama.cpp (node-llama-cpp's prebuilt CPU runtime) in a process of its own
// (llama-process.mjs), behind the same Model seam as every provider. Tool calls
// come natively where the model's chat template renders tools, and otherwise from
// a JSON-schema grammar that only lets the model write a valid call or answer.
import { type ChildProcess, fork } from 'node:child_process';
import type { Socket } from 'node:net';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { ModelError, type Completion, type CompletionRequest, type Model, type ToolCall, type Usage } from '../model';
import { splitThink } from '../reasoning';
import { checkGgufFile } from './gguf-check';
import { grammarInstructions, parseGrammarReply, replySchema, toGrammarSchema } from './grammar-schema';
import { toChatHistory } from './history';
import { FromProcessSchema, type FromProcess, type GenerateRequest, type ToProcess } from './protocol';

export interface LocalModelOptions {
  /** The spec, e.g. `local:qwen3-1.7b`. */
  id: string;
  /** The GGUF file. */
  file: string;
  /** Most tokens one reply may take (default 1024). */
  maxTokens?: number;
  /** Largest context to allocate, in tokens (default 32768; the model's trained context caps it too). */
  maxContext?: number;
  /** Sampling temperature when the request gives none (default 0.2). */
  temperature?: number;
  seed?: number;
  /** Use a GPU runtime where one is installed (default: Metal on macOS, CPU elsewhere). */
  gpu?: false | 'auto';
  /** CPU threads (default half the cores: a laptop keeps the rest for the simulation and the UI). */
  threads?: number;
}

export interface LocalModel extends Model {
  /** Starts the process and loads the file (complete() does this on first use). */
  load(): Promise<{ trainContextSize: number; chatWrapper: string; nativeTools: boolean; loadMs: number }>;
  /** Ends the model's process; its memory goes with it. */
  dispose(): Promise<void>;
  /** The model process's id while it runs. */
  readonly pid: number | undefined;
}

const PROCESS_SCRIPT = new URL('./llama-process.mjs', import.meta.url);
type Loaded = Extract<FromProcess, { type: 'loaded' }>;
type Pending = { onMessage: (m: FromProcess) => void; fail: (e: Error) => void };

export { checkGgufFile };

/** A local model for a GGUF file; throws a ModelError naming the file at once when it is missing, not a model or truncated. */
export function createLocalModel(opts: LocalModelOptions): LocalModel {
  checkGgufFile(opts.file);
  const maxTokens = opts.maxTokens ?? 1024;
  let child: ChildProcess | undefined;
  let loading: Promise<Loaded> | undefined;
  let nextId = 1;
  let callSeq = 0;
  let stderr = '';
  const pending = new Map<number, Pending>();
  let onLoad: Pending | undefined;

  const loadError = (why: string): ModelError =>
    new ModelError(`${opts.file} could not be loaded as a model: ${why}`, 'config', undefined, {
      fix: 'The file may be truncated or corrupt: download it again, or pick another .gguf file.',
    });

  function failAll(e: Error): void {
    onLoad?.fail(e);
    onLoad = undefined;
    for (const p of pending.values()) p.fail(e);
    pending.clear();
  }

  function start(): Promise<Loaded> {
    const proc = fork(fileURLToPath(PROCESS_SCRIPT), [], { stdio: ['ignore', 'ignore', 'pipe', 'ipc'], execArgv: [] });
    child = proc;
    // An idle model process must not keep the app (or a finished CLI command) alive; requests ref it.
    proc.unref();
    proc.channel?.unref();
    (proc.stderr as Partial<Pick<Socket, 'unref'>> | null)?.unref?.();
    proc.stderr?.on('data', (d: Buffer) => {
      stderr = (stderr + d.toString()).slice(-2000);
    });
    proc.on('message', (raw) => {
      const parsed = FromProcessSchema.safeParse(raw);
      if (!parsed.success)
        return failAll(new ModelError(`The local model process sent a malformed message: ${parsed.error.message}`, 'bad_response'));
      const m = parsed.data;
      if (m.type === 'loaded' || (m.type === 'error' && m.id === undefined)) return onLoad?.onMessage(m);
      if ('id' in m && m.id !== undefined) pending.get(m.id)?.onMessage(m);
    });
    proc.on('exit', (code, signal) => {
      if (child === proc) child = undefined;
      loading = undefined;
      const tail = stderr.trim().split('\n').slice(-3).join(' ');
      failAll(
        new ModelError(`The local model process for ${opts.file} ended (${signal ?? `exit ${code}`})${tail ? `: ${tail}` : ''}.`, 'server'),
      );
    });
    return new Promise<Loaded>((resolve, reject) => {
      onLoad = {
        onMessage: (m) => {
          onLoad = undefined;
          proc.channel?.unref();
          if (m.type === 'loaded') resolve(m);
          else if (m.type === 'error') {
            reject(loadError(m.message));
            void dispose();
          }
        },
        fail: reject,
      };
      const load: ToProcess = {
        type: 'load',
        file: opts.file,
        gpu: opts.gpu ?? (process.platform === 'darwin' ? 'auto' : false),
        maxContext: opts.maxContext ?? 32768,
        threads: opts.threads ?? Math.max(1, Math.min(8, Math.floor(availableParallelism() / 2))),
      };
      proc.channel?.ref();
      proc.send(load);
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
    if (!proc || proc.exitCode !== null || proc.signalCode !== null) return;
    const gone = new Promise<void>((r) => proc.once('exit', () => r()));
    if (proc.connected) proc.send({ type: 'dispose' } satisfies ToProcess);
    const timer = setTimeout(() => proc.kill('SIGKILL'), 3000);
    await gone;
    clearTimeout(timer);
  }

  async function complete(req: CompletionRequest): Promise<Completion> {
    if (req.signal?.aborted) throw new ModelError('Stopped.', 'aborted');
    const info = await load();
    // Stopped while the model loaded: the listener below would never fire for an already-aborted signal.
    if (req.signal?.aborted) throw new ModelError('Stopped.', 'aborted');
    const tools = req.tools ?? [];
    const mode = info.nativeTools && tools.length ? 'native' : 'grammar';
    const history = toChatHistory(req.messages, mode, mode === 'grammar' ? grammarInstructions(tools) : undefined);
    const id = nextId++;
    const request: GenerateRequest = {
      type: 'generate',
      id,
      history,
      maxTokens,
      temperature: req.temperature ?? opts.temperature ?? 0.2,
      seed: opts.seed ?? 1,
      ...(mode === 'grammar'
        ? { grammar: replySchema(tools, req.toolChoice ?? 'auto') }
        : {
            functions: Object.fromEntries(
              tools.map((t) => [t.function.name, { description: t.function.description, params: toGrammarSchema(t.function.parameters) }]),
            ),
          }),
    };
    const done = await new Promise<Extract<FromProcess, { type: 'done' }>>((resolve, reject) => {
      const onAbort = (): void => {
        pending.delete(id);
        if (!pending.size) child?.channel?.unref();
        if (child?.connected) child.send({ type: 'abort', id } satisfies ToProcess);
        reject(new ModelError('Stopped.', 'aborted'));
      };
      req.signal?.addEventListener('abort', onAbort, { once: true });
      const settle = (): void => {
        pending.delete(id);
        if (!pending.size) child?.channel?.unref();
        req.signal?.removeEventListener('abort', onAbort);
      };
      pending.set(id, {
        onMessage: (m) => {
          if (m.type === 'text' && mode === 'native') req.onText?.(m.delta);
          else if (m.type === 'reasoning') req.onReasoning?.(m.delta);
          else if (m.type === 'done') {
            settle();
            resolve(m);
          } else if (m.type === 'error') {
            settle();
            reject(processError(m, opts, maxTokens));
          }
        },
        fail: (e) => {
          settle();
          reject(e);
        },
      });
      child?.channel?.ref();
      child?.send(request);
    });
    return toCompletion(done, mode, () => `call_local_${id}_${callSeq++}`, req);
  }

  return {
    id: opts.id,
    complete,
    load,
    dispose,
    get pid() {
      return child?.pid;
    },
  };
}

function processError(m: Extract<FromProcess, { type: 'error' }>, opts: LocalModelOptions, maxTokens: number): ModelError {
  if (m.kind === 'aborted') return new ModelError('Stopped.', 'aborted');
  if (m.kind === 'context')
    return new ModelError(
      `The conversation no longer fits ${opts.id}'s context: ${m.promptTokens ?? '?'} prompt tokens + ${maxTokens} for the reply > ${m.limit ?? '?'} tokens.`,
      'config',
      undefined,
      { fix: 'Start a new conversation, or use a model with a longer context.' },
    );
  return new ModelError(`${opts.id}: ${m.message}`, 'server');
}

function toCompletion(
  d: Extract<FromProcess, { type: 'done' }>,
  mode: 'native' | 'grammar',
  newId: () => string,
  req: CompletionRequest,
): Completion {
  const genMs = d.durationMs - (d.timeToFirstTokenMs ?? 0);
  const usage: Usage = {
    promptTokens: d.promptTokens,
    completionTokens: d.completionTokens,
    totalTokens: d.promptTokens + d.completionTokens,
    ...(d.timeToFirstTokenMs !== null ? { timeToFirstTokenMs: Math.round(d.timeToFirstTokenMs) } : {}),
    ...(d.completionTokens > 1 && genMs > 0 ? { tokensPerSecond: Math.round(((d.completionTokens - 1) / genMs) * 1e4) / 10 } : {}),
  };
  const finishReason = d.stopReason === 'maxTokens' ? 'length' : d.functionCalls.length ? 'tool_calls' : 'stop';
  let toolCalls: ToolCall[];
  let text: string;
  let reasoning = d.reasoning;
  if (mode === 'native') {
    const split = splitThink(d.text);
    text = split.text;
    reasoning = [reasoning, split.reasoning].filter(Boolean).join('\n');
    toolCalls = d.functionCalls.map((c) => ({
      id: newId(),
      type: 'function',
      function: { name: c.name, arguments: JSON.stringify(c.params ?? {}) },
    }));
  } else {
    const reply = parseGrammarReply(d.text);
    toolCalls = (reply?.calls ?? []).map((c) => ({ id: newId(), type: 'function', function: c }));
    // A reply cut off at the token limit is not of the format: keep its raw text, say why in finishReason.
    text = reply ? (reply.answer ?? '') : d.text;
    if (text) req.onText?.(text);
  }
  return {
    message: { role: 'assistant', content: text || null, ...(toolCalls.length ? { tool_calls: toolCalls } : {}) },
    toolCalls,
    ...(reasoning ? { reasoning } : {}),
    usage,
    finishReason: toolCalls.length ? 'tool_calls' : finishReason,
    ...(toolCalls.length ? { toolCallSource: mode === 'native' ? ('native' as const) : ('text' as const) } : {}),
  };
}
