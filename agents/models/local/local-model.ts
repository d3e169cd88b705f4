// The built-in local provider, `local:FILE.gguf` / `local:NAME`: a GGUF model run
// by llama.cpp (node-llama-cpp's prebuilt CPU runtime) in a process of its own
// (llama-process.mjs), behind the same Model seam as every provider. Tool calls
// come natively where the model's chat template renders tools, and otherwise from
// a JSON-schema grammar that only lets the model write a valid call or answer.
import { ModelError, type Completion, type CompletionRequest, type Model, type ToolCall, type Usage } from '../model';
import { splitThink } from '../reasoning';
import { checkGgufFile } from './gguf-check';
import { grammarInstructions, parseGrammarReply, replySchema, toGrammarSchema } from './grammar-schema';
import { toChatHistory } from './history';
import { createLocalRuntime, runtimeOptions, type Done, type Loaded, type LocalRuntime, type ProcessErrorReply } from './local-runtime';
import { sharedRuntime } from './model-cache';
import type { GenerateRequest } from './protocol';

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
  /**
   * Share the loaded process with other models of the same file and settings in this
   * thread (model-cache.ts): runs reuse it, and it ends when idle or at unloadLocalModels().
   * Default false: this model owns its process.
   */
  shared?: boolean;
}

export interface LocalModel extends Model {
  /** Starts the process and loads the file (complete() does this on first use). */
  load(): Promise<Loaded>;
  /** Ends the model's process, and its memory goes with it; a shared model only lets go of it (the cache ends it when idle). */
  dispose(): Promise<void>;
  /** The model process's id while it runs. */
  readonly pid: number | undefined;
}

export { checkGgufFile };

/** A local model for a GGUF file; throws a ModelError naming the file at once when it is missing, not a model or truncated. */
export function createLocalModel(opts: LocalModelOptions): LocalModel {
  checkGgufFile(opts.file);
  const maxTokens = opts.maxTokens ?? 1024;
  const settings = runtimeOptions(opts);
  let runtime: LocalRuntime;
  let use: <T>(work: () => Promise<T>) => Promise<T>;
  if (opts.shared) ({ runtime, use } = sharedRuntime(settings));
  else {
    runtime = createLocalRuntime(settings);
    use = (work) => work();
  }
  let callSeq = 0;

  async function complete(req: CompletionRequest): Promise<Completion> {
    if (req.signal?.aborted) throw new ModelError('Stopped.', 'aborted');
    const info = await use(() => runtime.load());
    const tools = req.tools ?? [];
    const mode = info.nativeTools && tools.length ? 'native' : 'grammar';
    const history = toChatHistory(req.messages, mode, mode === 'grammar' ? grammarInstructions(tools) : undefined);
    let requestId = 0;
    const build = (id: number): GenerateRequest => {
      requestId = id;
      return {
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
                tools.map((t) => [
                  t.function.name,
                  { description: t.function.description, params: toGrammarSchema(t.function.parameters) },
                ]),
              ),
            }),
      };
    };
    const done: Done = await use(() =>
      runtime.generate(
        build,
        {
          // The grammar's reply is JSON: its answer is passed on once parsed, not streamed raw.
          ...(mode === 'native' && req.onText ? { onText: req.onText } : {}),
          ...(req.onReasoning ? { onReasoning: req.onReasoning } : {}),
          toError: (m) => processError(m, opts, maxTokens),
        },
        req.signal,
      ),
    );
    return toCompletion(done, mode, () => `call_local_${requestId}_${callSeq++}`, req);
  }

  return {
    id: opts.id,
    complete,
    load: () => use(() => runtime.load()),
    dispose: () => (opts.shared ? Promise.resolve() : runtime.dispose()),
    get pid() {
      return runtime.pid;
    },
  };
}

function processError(m: ProcessErrorReply, opts: LocalModelOptions, maxTokens: number): ModelError {
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

function toCompletion(d: Done, mode: 'native' | 'grammar', newId: () => string, req: CompletionRequest): Completion {
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
