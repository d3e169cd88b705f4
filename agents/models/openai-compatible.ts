// The Chat Completions adapter for OpenAI and every local server that speaks
// its dialect (Ollama, LM Studio, llama.cpp, vLLM), on the official `openai`
// SDK. It hides their quirks (research/ecosystem.md §3.3): streamed tool calls
// that reuse `index: 0` or omit ids, `finish_reason: "stop"` beside tool calls,
// `tool_choice` rejected with a 400, calls leaked into the text. Retries are
// ours, not the SDK's, so backoff honours Retry-After and stops on abort.
import type OpenAI from 'openai';
import type {
  ChatCompletionCreateParamsNonStreaming,
  ChatCompletionCreateParamsStreaming,
  ChatCompletionFunctionTool,
  ChatCompletionMessageParam,
} from 'openai/resources/chat/completions';
import { ModelError, type ChatMessage, type Completion, type CompletionRequest, type Model } from './model';
import { aborted, classify, type ErrorContext, RetryableError, type Sdk, sleep, timeoutError } from './openai-errors';
import { fromCompletion, generatedCallId, StreamAssembler } from './openai-response';
import { textToolCallFallback } from './text-tool-calls';

export { retryAfter } from './openai-errors';
export { generatedCallId, MAX_COMPLETION_CHARS, ToolCallAssembler } from './openai-response';

export interface OpenAICompatibleOptions {
  /** The spec this model was made from (never holds a key). */
  id: string;
  /** e.g. http://127.0.0.1:11434/v1 */
  baseURL: string;
  /** A key, or a function resolving one per request (keys kept in a secret store). Local servers ignore it. */
  apiKey?: string | (() => Promise<string | undefined>);
  /** The server's model name, e.g. qwen3:8b. */
  model: string;
  /** 'images': the model takes image parts (a vision-language model); default 'text'. */
  input?: 'text' | 'images';
  stream?: boolean;
  /** Longest wait for the server to start answering or send the next chunk (default 120 s). */
  timeoutMs?: number;
  /** Retries after 429, 5xx or a dropped connection (default 2). */
  maxRetries?: number;
  /** false: never send tool_choice (Ollama ignores it; vLLM may 400). Undefined: send, and learn from a 400. */
  supportsToolChoice?: boolean;
  /**
   * Parse tool calls the server left in `content` (tools named in the request
   * only). Default false. The raw text has already gone to onText by then.
   */
  textToolCallFallback?: boolean;
  fetch?: (input: string | URL | Request, init?: RequestInit) => Promise<Response>;
  /** First backoff delay (default 500 ms); doubles per retry, with ±25 % jitter. */
  retryBaseMs?: number;
  /** Longest backoff delay (default 8 s). */
  retryMaxMs?: number;
  /** Longest Retry-After honoured (default 30 s); longer requests are capped to this. */
  retryAfterMaxMs?: number;
  /** Provider-specific advice for error messages. */
  hints?: { start?: string; pull?: string; key?: string };
  defaultHeaders?: Record<string, string>;
}

const DEFAULT_TIMEOUT_MS = 120_000;
/** The SDK insists on a key; this one is never sent (the header is removed per request). */
const NO_KEY = 'not-needed';

let sdkLoading: Promise<Sdk> | undefined;
/**
 * The SDK loads on the first request, not at import: it is hundreds of modules
 * (~0.3 s), and the app's worker and the CLI start without needing it.
 */
function loadSdk(): Promise<Sdk> {
  sdkLoading ??= import('openai');
  return sdkLoading;
}

export function createOpenAICompatibleModel(opts: OpenAICompatibleOptions): Model {
  const endpoint = opts.baseURL.replace(/\/+$/, '');
  const timeoutMs = Math.max(1, Math.round(opts.timeoutMs ?? DEFAULT_TIMEOUT_MS));
  const maxRetries = Math.max(0, opts.maxRetries ?? 2);
  // The SDK insists on a key; local servers accept any. A key function is
  // resolved by complete() first, so a missing key is a clear ModelError.
  // A server given no key gets no Authorization header at all (not a placeholder key).
  let currentKey = typeof opts.apiKey === 'string' && opts.apiKey ? opts.apiKey : NO_KEY;
  const auth = (): { headers?: Record<string, null> } => (currentKey === NO_KEY ? { headers: { Authorization: null } } : {});
  let sdk: Sdk | undefined;
  let client: OpenAI | undefined;
  const getClient = async (): Promise<OpenAI> => {
    sdk ??= await loadSdk();
    client ??= new sdk.default({
      baseURL: endpoint,
      apiKey: typeof opts.apiKey === 'function' ? () => Promise.resolve(currentKey) : currentKey,
      // Explicit nulls keep the SDK from reading OPENAI_* variables behind our back.
      organization: null,
      project: null,
      adminAPIKey: null,
      timeout: timeoutMs,
      maxRetries: 0,
      logLevel: 'off',
      defaultHeaders: opts.defaultHeaders,
      ...(opts.fetch ? { fetch: opts.fetch } : {}),
    });
    return client;
  };
  // Learned per model: parameters this server rejected once are not sent again.
  const rejected = new Set<'tool_choice' | 'stream_options'>();
  if (opts.supportsToolChoice === false) rejected.add('tool_choice');
  const ctx: ErrorContext = { endpoint, model: opts.model, timeoutMs, hints: opts.hints ?? {} };

  async function attempt(req: CompletionRequest): Promise<Completion> {
    const ctl = new AbortController();
    let timedOut = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const arm = (): void => {
      clearTimeout(timer);
      timer = setTimeout(() => {
        timedOut = true;
        ctl.abort();
      }, timeoutMs);
    };
    const onAbort = (): void => ctl.abort();
    req.signal?.addEventListener('abort', onAbort, { once: true });
    arm();
    try {
      const client = await getClient();
      const base = buildParams(req, opts.model, rejected, opts.input === 'images');
      let result: Completion;
      if (opts.stream ?? true) {
        const params: ChatCompletionCreateParamsStreaming = {
          ...base,
          stream: true,
          ...(rejected.has('stream_options') ? {} : { stream_options: { include_usage: true } }),
        };
        const stream = await client.chat.completions.create(params, { signal: ctl.signal, ...auth() });
        const asm = new StreamAssembler(endpoint, req.onText, req.onReasoning);
        for await (const chunk of stream) {
          arm();
          asm.push(chunk as unknown);
        }
        // The SDK ends a stream quietly when its request is aborted.
        if (ctl.signal.aborted) throw ctl.signal.reason ?? new Error('aborted');
        if (!asm.finished) {
          throw new RetryableError(
            new ModelError(`${endpoint} closed the stream before the answer was complete.`, 'server', undefined, {
              endpoint,
              fix: 'The server may have crashed or run out of memory; check its log.',
            }),
            'stream ended early',
          );
        }
        result = asm.result();
      } else {
        const params: ChatCompletionCreateParamsNonStreaming = { ...base, stream: false };
        const raw: unknown = await client.chat.completions.create(params, { signal: ctl.signal, ...auth() });
        result = fromCompletion(raw, endpoint);
        if (result.reasoning) req.onReasoning?.(result.reasoning);
        if (result.message.content) req.onText?.(result.message.content);
      }
      if (opts.textToolCallFallback && req.tools?.length && !result.toolCalls.length && result.message.content) {
        result = textToolCallFallback(result, req, generatedCallId);
      }
      return result;
    } catch (e) {
      if (req.signal?.aborted) throw aborted(endpoint, e);
      if (timedOut) throw timeoutError(ctx, e);
      throw e;
    } finally {
      clearTimeout(timer);
      req.signal?.removeEventListener('abort', onAbort);
    }
  }

  return {
    id: opts.id,
    ...(opts.input ? { input: opts.input } : {}),
    async complete(req: CompletionRequest): Promise<Completion> {
      if (req.signal?.aborted) throw aborted(endpoint);
      if (typeof opts.apiKey === 'function') {
        try {
          currentKey = (await opts.apiKey()) || NO_KEY;
        } catch (e) {
          if (e instanceof ModelError) throw e;
          const fix = opts.hints?.key ?? 'Check the stored API key.';
          throw new ModelError(`Could not read the API key for ${endpoint}: ${String(e)}. ${fix}`, 'auth', undefined, {
            endpoint,
            fix,
            cause: e,
          });
        }
      }
      let retries = 0;
      for (;;) {
        try {
          return await attempt(req);
        } catch (e) {
          const c = classify(e, ctx, req, sdk);
          if (c.rejectedParam && !rejected.has(c.rejectedParam)) {
            // vLLM without --enable-auto-tool-choice; old servers without stream_options.
            rejected.add(c.rejectedParam);
            continue;
          }
          if (!c.retry || retries >= maxRetries || req.signal?.aborted) throw c.error;
          retries++;
          const backoff = Math.min(opts.retryMaxMs ?? 8000, (opts.retryBaseMs ?? 500) * 2 ** (retries - 1)) * (0.75 + Math.random() * 0.5);
          const delayMs = Math.round(c.retryAfterMs !== undefined ? Math.min(c.retryAfterMs, opts.retryAfterMaxMs ?? 30_000) : backoff);
          req.onRetry?.({ attempt: retries, delayMs, reason: c.reason });
          await sleep(delayMs, req.signal, endpoint);
        }
      }
    },
  };
}

// --- request --------------------------------------------------------------------

function buildParams(
  req: CompletionRequest,
  model: string,
  rejected: ReadonlySet<string>,
  images: boolean,
): ChatCompletionCreateParamsNonStreaming {
  const tools: ChatCompletionFunctionTool[] | undefined = req.tools?.length
    ? req.tools.map((t) => ({
        type: 'function',
        function: { name: t.function.name, description: t.function.description, parameters: t.function.parameters },
      }))
    : undefined;
  return {
    model,
    messages: req.messages.map((m) => toSdkMessage(m, images)),
    ...(tools ? { tools } : {}),
    ...(tools && req.toolChoice && !rejected.has('tool_choice') ? { tool_choice: req.toolChoice } : {}),
    ...(req.temperature !== undefined ? { temperature: req.temperature } : {}),
  };
}

/** `images`: the model reads them; a text model gets the text alone (many servers answer image parts with a 400). */
function toSdkMessage(m: ChatMessage, images: boolean): ChatCompletionMessageParam {
  switch (m.role) {
    case 'system':
      return { role: 'system', content: m.content };
    case 'user':
      // Chat Completions carries images only in user messages (not tool messages), as content parts.
      if (!images || !m.images?.length) return { role: 'user', content: m.content };
      return {
        role: 'user',
        content: [
          { type: 'text', text: m.content },
          ...m.images.map((i) => ({ type: 'image_url' as const, image_url: { url: `data:${i.mimeType};base64,${i.data}` } })),
        ],
      };
    case 'tool':
      return { role: 'tool', tool_call_id: m.tool_call_id, content: m.content };
    case 'assistant':
      if (!m.tool_calls?.length) return { role: 'assistant', content: m.content ?? '' };
      return {
        role: 'assistant',
        content: m.content ?? null,
        tool_calls: m.tool_calls.map((tc) => ({
          id: tc.id,
          type: 'function',
          function: { name: tc.function.name, arguments: tc.function.arguments },
        })),
      };
  }
}
