// The Chat Completions adapter for OpenAI and every local server that speaks
// its dialect (Ollama, LM Studio, llama.cpp, vLLM), on the official `openai`
// SDK. It hides their quirks (research/ecosystem.md §3.3): streamed tool calls
// that reuse `index: 0` or omit ids, `finish_reason: "stop"` beside tool calls,
// `tool_choice` rejected with a 400, calls leaked into the text. Retries are
// ours, not the SDK's, so backoff honours Retry-After and stops on abort.
import type OpenAI from 'openai';
import type { APIError } from 'openai';
import type {
  ChatCompletionCreateParamsNonStreaming,
  ChatCompletionCreateParamsStreaming,
  ChatCompletionFunctionTool,
  ChatCompletionMessageParam,
} from 'openai/resources/chat/completions';
import { z } from 'zod';
import { ModelError, type ChatMessage, type Completion, type CompletionRequest, type Model, type ToolCall, type Usage } from './model';
import { splitThink, ThinkSplitter } from './reasoning';
import { parseTextToolCalls } from './text-tool-calls';

export interface OpenAICompatibleOptions {
  /** The spec this model was made from (never holds a key). */
  id: string;
  /** e.g. http://127.0.0.1:11434/v1 */
  baseURL: string;
  /** A key, or a function resolving one per request (keys kept in a secret store). Local servers ignore it. */
  apiKey?: string | (() => Promise<string | undefined>);
  /** The server's model name, e.g. qwen3:8b. */
  model: string;
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

type Sdk = typeof import('openai');
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
  let currentKey = typeof opts.apiKey === 'string' && opts.apiKey ? opts.apiKey : 'not-needed';
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
      const base = buildParams(req, opts.model, rejected);
      let result: Completion;
      if (opts.stream ?? true) {
        const params: ChatCompletionCreateParamsStreaming = {
          ...base,
          stream: true,
          ...(rejected.has('stream_options') ? {} : { stream_options: { include_usage: true } }),
        };
        const stream = await client.chat.completions.create(params, { signal: ctl.signal });
        const asm = new StreamAssembler(req.onText, req.onReasoning);
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
        const raw: unknown = await client.chat.completions.create(params, { signal: ctl.signal });
        result = fromCompletion(raw, endpoint);
        if (result.reasoning) req.onReasoning?.(result.reasoning);
        if (result.message.content) req.onText?.(result.message.content);
      }
      if (opts.textToolCallFallback && req.tools?.length && !result.toolCalls.length && result.message.content) {
        result = textFallback(result, req);
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
    async complete(req: CompletionRequest): Promise<Completion> {
      if (req.signal?.aborted) throw aborted(endpoint);
      if (typeof opts.apiKey === 'function') {
        try {
          currentKey = (await opts.apiKey()) || 'not-needed';
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

function buildParams(req: CompletionRequest, model: string, rejected: ReadonlySet<string>): ChatCompletionCreateParamsNonStreaming {
  const tools: ChatCompletionFunctionTool[] | undefined = req.tools?.length
    ? req.tools.map((t) => ({
        type: 'function',
        function: { name: t.function.name, description: t.function.description, parameters: t.function.parameters },
      }))
    : undefined;
  return {
    model,
    messages: req.messages.map(toSdkMessage),
    ...(tools ? { tools } : {}),
    ...(tools && req.toolChoice && !rejected.has('tool_choice') ? { tool_choice: req.toolChoice } : {}),
    ...(req.temperature !== undefined ? { temperature: req.temperature } : {}),
  };
}

function toSdkMessage(m: ChatMessage): ChatCompletionMessageParam {
  switch (m.role) {
    case 'system':
      return { role: 'system', content: m.content };
    case 'user':
      return { role: 'user', content: m.content };
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

// --- response -------------------------------------------------------------------

// Lenient schemas: local servers omit fields the SDK types call required, and
// some send arguments as an object rather than a JSON string.
const ArgsZ = z.union([z.string(), z.record(z.string(), z.unknown())]).nullish();
const UsageZ = z
  .object({ prompt_tokens: z.number().nullish(), completion_tokens: z.number().nullish(), total_tokens: z.number().nullish() })
  .nullish();
const ChunkZ = z.object({
  choices: z
    .array(
      z.object({
        delta: z
          .object({
            content: z.string().nullish(),
            reasoning_content: z.string().nullish(),
            reasoning: z.string().nullish(),
            tool_calls: z
              .array(
                z.object({
                  index: z.number().nullish(),
                  id: z.string().nullish(),
                  function: z.object({ name: z.string().nullish(), arguments: ArgsZ }).nullish(),
                }),
              )
              .nullish(),
          })
          .nullish(),
        finish_reason: z.string().nullish(),
      }),
    )
    .nullish(),
  usage: UsageZ,
});
const CompletionZ = z.object({
  choices: z
    .array(
      z.object({
        message: z.object({
          content: z.string().nullish(),
          reasoning_content: z.string().nullish(),
          reasoning: z.string().nullish(),
          tool_calls: z.array(z.object({ id: z.string().nullish(), function: z.object({ name: z.string(), arguments: ArgsZ }) })).nullish(),
        }),
        finish_reason: z.string().nullish(),
      }),
    )
    .min(1),
  usage: UsageZ,
});

type ChunkDelta = NonNullable<NonNullable<z.infer<typeof ChunkZ>['choices']>[number]['delta']>;
type ToolCallDelta = NonNullable<ChunkDelta['tool_calls']>[number];

function argsText(a: z.infer<typeof ArgsZ>): string {
  return a === undefined || a === null ? '' : typeof a === 'string' ? a : JSON.stringify(a);
}

function toUsage(u: z.infer<typeof UsageZ>): Usage | undefined {
  if (!u) return undefined;
  const promptTokens = u.prompt_tokens ?? 0;
  const completionTokens = u.completion_tokens ?? 0;
  return { promptTokens, completionTokens, totalTokens: u.total_tokens ?? promptTokens + completionTokens };
}

let idSeq = 0;
/** Ids for calls the server sent without one (the history needs them to pair results). */
export function generatedCallId(): string {
  return `call_gen_${Date.now().toString(36)}_${(++idSeq).toString(36)}`;
}

/**
 * Assembles streamed tool calls. Keyed by id when present, else by index: a new
 * id at an occupied index starts a new call (Ollama sends every call at index 0),
 * split arguments are concatenated, and a nameless continuation joins the
 * latest call at its index.
 */
export class ToolCallAssembler {
  private readonly calls: Array<{ id?: string; name: string; args: string }> = [];
  private readonly byId = new Map<string, number>();
  private readonly byIndex = new Map<number, number>();

  push(tc: ToolCallDelta): void {
    const index = tc.index ?? undefined;
    const id = tc.id || undefined;
    const name = tc.function?.name || undefined;
    const args = argsText(tc.function?.arguments);
    let at: number | undefined;
    if (id !== undefined) {
      at = this.byId.get(id);
      if (at === undefined && index !== undefined) {
        // A call begun without an id may receive it later (same index, no id yet).
        const prev = this.byIndex.get(index);
        if (prev !== undefined && this.calls[prev]?.id === undefined && !this.calls[prev]?.name) at = prev;
      }
    } else {
      at = index !== undefined ? this.byIndex.get(index) : this.calls.length - 1;
      const prev = at !== undefined ? this.calls[at] : undefined;
      // No id, but a second name on a call whose arguments are complete: a new call.
      if (prev && name && prev.name && (prev.name !== name || isCompleteJson(prev.args))) at = undefined;
      if (at !== undefined && at < 0) at = undefined;
    }
    if (at === undefined) {
      at = this.calls.length;
      this.calls.push({ name: '', args: '' });
    }
    const call = this.calls[at];
    if (!call) return;
    if (id !== undefined && call.id === undefined) {
      call.id = id;
      this.byId.set(id, at);
    }
    if (index !== undefined) this.byIndex.set(index, at);
    if (name && !call.name) call.name = name;
    call.args += args;
  }

  result(): ToolCall[] {
    return this.calls
      .filter((c) => c.name || c.args)
      .map((c) => ({
        id: c.id ?? generatedCallId(),
        type: 'function',
        function: { name: c.name, arguments: c.args.trim() ? c.args : '{}' },
      }));
  }
}

function isCompleteJson(s: string): boolean {
  if (!s.trim()) return false;
  try {
    JSON.parse(s);
    return true;
  } catch {
    return false;
  }
}

class StreamAssembler {
  private text = '';
  private reasoning = '';
  private readonly tools = new ToolCallAssembler();
  private readonly think: ThinkSplitter;
  private finishReason: string | undefined;
  private usage: Usage | undefined;
  /** A finish_reason arrived: the stream was not cut short. */
  finished = false;

  constructor(
    onText: ((d: string) => void) | undefined,
    private readonly onReasoning: ((d: string) => void) | undefined,
  ) {
    // Inline <think> text goes to onReasoning as it streams; the whole text is split again at the end.
    this.think = new ThinkSplitter(
      (d) => onText?.(d),
      (d) => onReasoning?.(d),
    );
  }

  push(raw: unknown): void {
    const parsed = ChunkZ.safeParse(raw);
    if (!parsed.success) return; // keep-alives and vendor events carry nothing we use
    const chunk = parsed.data;
    if (chunk.usage) this.usage = toUsage(chunk.usage);
    for (const choice of chunk.choices ?? []) {
      const d = choice.delta;
      const r = d?.reasoning_content || d?.reasoning;
      if (r) {
        this.reasoning += r;
        this.onReasoning?.(r);
      }
      if (d?.content) {
        this.text += d.content;
        this.think.push(d.content);
      }
      for (const tc of d?.tool_calls ?? []) this.tools.push(tc);
      if (choice.finish_reason) {
        this.finishReason = choice.finish_reason;
        this.finished = true;
      }
    }
  }

  result(): Completion {
    this.think.end();
    return completion(this.text, this.reasoning, this.tools.result(), this.finishReason, this.usage);
  }
}

function completion(
  content: string,
  fieldReasoning: string,
  toolCalls: ToolCall[],
  finishReason: string | undefined,
  usage: Usage | undefined,
): Completion {
  const split = splitThink(content);
  const text = split.text;
  const reasoning = [fieldReasoning.trim(), split.reasoning].filter(Boolean).join('\n\n');
  // Tool calls decide, not finish_reason: Ollama says "stop" beside calls.
  const has = toolCalls.length > 0;
  return {
    message: has ? { role: 'assistant', content: text || null, tool_calls: toolCalls } : { role: 'assistant', content: text },
    toolCalls,
    ...(reasoning ? { reasoning } : {}),
    ...(usage ? { usage } : {}),
    // 'length' survives: a call cut off by the token limit has broken arguments.
    ...(has && finishReason !== 'length' ? { finishReason: 'tool_calls' } : finishReason ? { finishReason } : {}),
    ...(has ? { toolCallSource: 'native' as const } : {}),
  };
}

function fromCompletion(raw: unknown, endpoint: string): Completion {
  const parsed = CompletionZ.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new ModelError(
      `${endpoint} sent an answer that is not a chat completion (${issue ? `${issue.path.join('.') || 'body'}: ${issue.message}` : 'invalid'}).`,
      'bad_response',
      undefined,
      { endpoint, fix: 'Check that the base URL points at an OpenAI-compatible /v1 endpoint.' },
    );
  }
  const choice = parsed.data.choices[0];
  const calls = (choice?.message.tool_calls ?? []).map((tc): ToolCall => ({
    id: tc.id || generatedCallId(),
    type: 'function',
    function: { name: tc.function.name, arguments: argsText(tc.function.arguments) || '{}' },
  }));
  return completion(
    choice?.message.content ?? '',
    choice?.message.reasoning_content || choice?.message.reasoning || '',
    calls,
    choice?.finish_reason ?? undefined,
    toUsage(parsed.data.usage),
  );
}

/** Guarded: only calls to tools the request offered, only when no native call came. */
function textFallback(result: Completion, req: CompletionRequest): Completion {
  const parsed = parseTextToolCalls(result.message.content ?? '', { tools: req.tools ?? [], onlyKnown: true });
  if (!parsed.calls.length) return result;
  const toolCalls: ToolCall[] = parsed.calls.map((c) => ({
    id: generatedCallId(),
    type: 'function',
    function: { name: c.name, arguments: c.arguments },
  }));
  return {
    ...result,
    message: { role: 'assistant', content: parsed.text || null, tool_calls: toolCalls },
    toolCalls,
    finishReason: 'tool_calls',
    toolCallSource: 'text',
  };
}

// --- errors and retries ---------------------------------------------------------------

interface ErrorContext {
  endpoint: string;
  model: string;
  timeoutMs: number;
  hints: { start?: string; pull?: string; key?: string };
}

/** An error worth retrying, with the reason reported to onRetry. */
class RetryableError extends Error {
  constructor(
    readonly error: ModelError,
    readonly reason: string,
  ) {
    super(error.message);
  }
}

interface Classified {
  error: ModelError;
  retry: boolean;
  reason: string;
  retryAfterMs?: number;
  rejectedParam?: 'tool_choice' | 'stream_options';
}

function aborted(endpoint: string, cause?: unknown): ModelError {
  return new ModelError(`The request to ${endpoint} was aborted.`, 'aborted', undefined, { endpoint, cause });
}

function timeoutError(ctx: ErrorContext, cause?: unknown): ModelError {
  const fix = `Increase the timeout, use a smaller model, or check that ${ctx.endpoint} is not stuck.`;
  return new ModelError(`${ctx.endpoint} did not answer within ${ctx.timeoutMs} ms. ${fix}`, 'timeout', undefined, {
    endpoint: ctx.endpoint,
    fix,
    cause,
  });
}

function classify(e: unknown, ctx: ErrorContext, req: CompletionRequest, sdk: Sdk | undefined): Classified {
  const { endpoint } = ctx;
  const err = (kind: ConstructorParameters<typeof ModelError>[1], what: string, fix: string, status?: number): ModelError =>
    new ModelError(`${what} ${fix}`, kind, status, { endpoint, fix, cause: e });
  if (e instanceof RetryableError) return { error: e.error, retry: true, reason: e.reason };
  if (e instanceof ModelError) return { error: e, retry: false, reason: e.message };
  if (!sdk) {
    const fix = 'Reinstall the dependencies (npm ci).';
    return {
      error: err('config', `The openai client library could not be loaded (${e instanceof Error ? e.message : String(e)}).`, fix),
      retry: false,
      reason: 'sdk missing',
    };
  }
  const { APIUserAbortError, APIConnectionTimeoutError, APIConnectionError, APIError } = sdk;
  if (e instanceof APIUserAbortError) return { error: aborted(endpoint, e), retry: false, reason: 'aborted' };
  if (e instanceof APIConnectionTimeoutError) return { error: timeoutError(ctx, e), retry: false, reason: 'timeout' };
  if (e instanceof APIConnectionError) {
    const detail = causeCode(e);
    const fix = `Is the server running at ${endpoint}?${ctx.hints.start ? ` ${ctx.hints.start}` : ''}`;
    return {
      error: err('unreachable', `Could not reach ${endpoint}${detail ? ` (${detail})` : ''}.`, fix),
      retry: true,
      reason: 'connection failed',
    };
  }
  if (e instanceof APIError) {
    const status = e.status;
    const said = serverMessage(e);
    if (status === 401 || status === 403) {
      const fix = ctx.hints.key ?? 'Check the API key (OPENAI_API_KEY or SKILLBRIDGE_API_KEY, or the key stored in settings).';
      return {
        error: err('auth', `${endpoint} refused the API key (${status}${said ? `: ${said}` : ''}).`, fix, status),
        retry: false,
        reason: 'auth',
      };
    }
    if (status === 404) {
      if (/model/i.test(said)) {
        const fix = `Check the model name (GET ${endpoint}/models lists them).${ctx.hints.pull ? ` ${ctx.hints.pull}` : ''}`;
        return {
          error: err('config', `Model "${ctx.model}" was not found at ${endpoint} (${said}).`, fix, 404),
          retry: false,
          reason: 'not found',
        };
      }
      const fix = 'Check the base URL; OpenAI-compatible servers usually serve under /v1.';
      return { error: err('config', `${endpoint}/chat/completions does not exist (404).`, fix, 404), retry: false, reason: 'not found' };
    }
    if (status === 400 || status === 422) {
      const param =
        /tool.?choice/i.test(said) && req.toolChoice
          ? 'tool_choice'
          : /stream.?options|include.?usage/i.test(said)
            ? 'stream_options'
            : undefined;
      const fix = 'The server rejected the request; check that this model supports tools and the context fits.';
      return {
        error: err('config', `${endpoint} rejected the request (${status}: ${said || 'bad request'}).`, fix, status),
        retry: false,
        reason: 'bad request',
        ...(param ? { rejectedParam: param } : {}),
      };
    }
    if (status === 429) {
      const retryAfterMs = retryAfter(e.headers);
      const fix = 'Wait a moment, lower the request rate, or check your plan\u2019s limits.';
      return {
        error: err('rate_limit', `${endpoint} is rate limiting requests (429${said ? `: ${said}` : ''}).`, fix, 429),
        retry: true,
        reason: '429 rate limited',
        ...(retryAfterMs !== undefined ? { retryAfterMs } : {}),
      };
    }
    if (status === 408 || (status !== undefined && status >= 500)) {
      const retryAfterMs = retryAfter(e.headers);
      const fix = 'The server failed; check its log (out of memory? model still loading?).';
      return {
        error: err('server', `${endpoint} failed (${status}${said ? `: ${said}` : ''}).`, fix, status),
        retry: true,
        reason: `${status} server error`,
        ...(retryAfterMs !== undefined ? { retryAfterMs } : {}),
      };
    }
    if (status === undefined) {
      // An error event inside the stream (e.g. Ollama reporting a crashed runner).
      return {
        error: err('server', `${endpoint} reported an error while answering: ${said || e.message}.`, 'Check the server log.'),
        retry: false,
        reason: 'stream error',
      };
    }
    return {
      error: err('server', `${endpoint} answered ${status}${said ? `: ${said}` : ''}.`, 'Check the server log.', status),
      retry: false,
      reason: `${status}`,
    };
  }
  if (e instanceof SyntaxError) {
    return {
      error: err(
        'bad_response',
        `${endpoint} sent a stream chunk that is not JSON.`,
        'Check that the base URL points at an OpenAI-compatible /v1 endpoint.',
      ),
      retry: false,
      reason: 'bad chunk',
    };
  }
  // undici's "terminated" and socket errors: the connection dropped mid-answer.
  const msg = e instanceof Error ? `${e.message}${causeCode(e) ? ` (${causeCode(e)})` : ''}` : String(e);
  return {
    error: err(
      'server',
      `The connection to ${endpoint} dropped mid-answer (${msg}).`,
      'The server may have crashed or restarted; check its log.',
    ),
    retry: true,
    reason: 'connection dropped',
  };
}

function serverMessage(e: APIError): string {
  const body: unknown = e.error;
  if (typeof body === 'object' && body !== null && 'message' in body && typeof body.message === 'string') return body.message;
  if (typeof body === 'string') return body;
  return e.message.replace(/^\d{3}\s*/, '').replace(/^status code \(no body\)$/, '');
}

function causeCode(e: unknown): string | undefined {
  let cur: unknown = e;
  for (let i = 0; i < 5 && typeof cur === 'object' && cur !== null; i++) {
    if ('code' in cur && typeof cur.code === 'string' && cur.code) return cur.code;
    cur = 'cause' in cur ? cur.cause : undefined;
  }
  return undefined;
}

/** Retry-After as ms: `retry-after-ms`, seconds, or an HTTP date. */
export function retryAfter(headers: Headers | undefined): number | undefined {
  const ms = Number.parseFloat(headers?.get('retry-after-ms') ?? '');
  if (Number.isFinite(ms) && ms >= 0) return ms;
  const ra = headers?.get('retry-after');
  if (!ra) return undefined;
  const s = Number.parseFloat(ra);
  if (Number.isFinite(s) && s >= 0) return s * 1000;
  const at = Date.parse(ra);
  return Number.isFinite(at) ? Math.max(0, at - Date.now()) : undefined;
}

function sleep(ms: number, signal: AbortSignal | undefined, endpoint: string): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(aborted(endpoint));
    const done = (): void => {
      signal?.removeEventListener('abort', stop);
      resolve();
    };
    const t = setTimeout(done, ms);
    const stop = (): void => {
      clearTimeout(t);
      reject(aborted(endpoint));
    };
    signal?.addEventListener('abort', stop, { once: true });
  });
}
