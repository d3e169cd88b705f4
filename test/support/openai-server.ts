// A local OpenAI-compatible server for tests. It replays a script: each chat
// request takes the next step from a queue, so a test states exactly what the
// "model" answers and which quirk or fault a real server (Ollama, LM Studio,
// llama.cpp, vLLM) would show: rate limits, hangs, reused tool-call indexes,
// arguments split across chunks, calls written as text, dropped connections.
// It listens on 127.0.0.1 only, on a free port.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export interface ScriptToolCall {
  /** Omitted ids are generated (`call_<n>`), unless the step sets `omitToolCallIds`. */
  id?: string;
  name: string;
  /** A string is sent verbatim (so malformed JSON can be scripted); an object is JSON-encoded. */
  arguments: string | Record<string, unknown>;
}

/** A normal answer, with optional quirks of real servers. */
export interface ReplyStep {
  content?: string;
  /** Reasoning sent in its own field before the content (streamed in chunks of textChunkSize). */
  reasoning?: string;
  /** The field that carries `reasoning`: vLLM, llama.cpp and LM Studio use reasoning_content (default), Ollama reasoning. */
  reasoningField?: 'reasoning_content' | 'reasoning';
  toolCalls?: ScriptToolCall[];
  /** Defaults to 'tool_calls' when there are tool calls, else 'stop'. */
  finishReason?: string;
  usage?: { prompt_tokens: number; completion_tokens: number; cost?: number };
  /** Wait before answering (ms). */
  delayMs?: number;
  /** Characters of content per streamed chunk (default 6). */
  textChunkSize?: number;
  /** Stream every tool call with `index: 0`, whole in one chunk, as Ollama does (only ids differ). */
  reuseIndexZero?: boolean;
  /** Split each call's arguments across this many chunks (default 1). */
  argChunks?: number;
  /** Send tool calls without ids (some llama.cpp/vLLM builds). */
  omitToolCallIds?: boolean;
  /** Destroy the socket after this many SSE chunks (streaming) or before answering (non-streaming). */
  dropAfterChunks?: number;
  /** Stop sending after this many SSE chunks and keep the connection open. */
  hangAfterChunks?: number;
  /** Send this raw `data:` payload after this many chunks (e.g. an error event or non-JSON). */
  injectRaw?: { afterChunks: number; data: string };
  /** End the stream cleanly but without a finish_reason chunk or [DONE] (a truncated answer). */
  omitFinish?: boolean;
}

export type ScriptStep =
  | ReplyStep
  /** An HTTP error answer, e.g. 429 with Retry-After, 500, 404. */
  | { status: number; error?: string; retryAfter?: string; headers?: Record<string, string> }
  /** Never answer; the request stays open until the client aborts or the server closes. */
  | { hang: true };

export interface RecordedRequest {
  method: string;
  path: string;
  headers: Record<string, string | string[] | undefined>;
  /** Parsed JSON body (undefined for GET). */
  body: unknown;
  /** Arrival time, ms since the server started. */
  at: number;
  /** Set when the client closed the connection before the answer was complete. */
  closedEarlyAt?: number;
  /** Whether the answer was written completely. */
  finished: boolean;
}

export type StepSource = ScriptStep | ((req: RecordedRequest) => ScriptStep);

export interface OpenAIServerOptions {
  /** Model ids listed by GET /v1/models (default ['test-model']). */
  models?: string[];
  /** Answer 404 "model not found" for chat requests naming a model not in `models`. */
  strictModels?: boolean;
  /** Require `Authorization: Bearer <apiKey>`; answer 401 otherwise. */
  apiKey?: string;
  /** Answer 400 to any chat request carrying `tool_choice` (vLLM without --enable-auto-tool-choice). */
  rejectToolChoice?: boolean;
  /** What to do when the script is empty (default: 500 "script exhausted"). */
  whenEmpty?: StepSource;
  /** Listen on this port (default: a free one), e.g. one a test found closed before: the server comes back where a client expects it. */
  port?: number;
}

export interface OpenAIServer {
  /** Base URL including `/v1`, e.g. http://127.0.0.1:43121/v1. */
  url: string;
  /** Every request received, in order (chat and models). */
  requests: RecordedRequest[];
  /** Chat completion requests only. */
  chatRequests(): RecordedRequest[];
  /** Append steps to the script. */
  push(...steps: StepSource[]): void;
  /** Steps not yet consumed. */
  remaining(): number;
  close(): Promise<void>;
}

/** Writes a call in RAIDER's text format, for scripting models without native tools. */
export function raiderCall(name: string, args: unknown[]): string {
  return `call_tool{tool: ${name}, args: ${JSON.stringify(args)}}`;
}

export async function startOpenAIServer(script: StepSource[] = [], options: OpenAIServerOptions = {}): Promise<OpenAIServer> {
  const queue: StepSource[] = [...script];
  const requests: RecordedRequest[] = [];
  const sockets = new Set<Socket>();
  const started = Date.now();
  const models = options.models ?? ['test-model'];
  let callSeq = 0;

  const server = createServer((req, res) => {
    void handle(req, res).catch((err: unknown) => {
      if (!res.headersSent) sendError(res, 500, `test server: ${String(err)}`);
      else res.destroy();
    });
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const raw = await readBody(req);
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    const rec: RecordedRequest = {
      method: req.method ?? 'GET',
      path,
      headers: req.headers,
      body: raw ? safeJson(raw) : undefined,
      at: Date.now() - started,
      finished: false,
    };
    requests.push(rec);
    // 'close' on the response fires when the client goes away or after we end it.
    res.on('close', () => {
      if (!rec.finished && rec.closedEarlyAt === undefined) rec.closedEarlyAt = Date.now() - started;
    });
    const finish = (): void => {
      rec.finished = true;
    };

    if (options.apiKey !== undefined && req.headers.authorization !== `Bearer ${options.apiKey}`) {
      finish();
      return sendError(res, 401, 'Incorrect API key provided.', 'invalid_api_key');
    }
    if (req.method === 'GET' && path === '/v1/models') {
      finish();
      return sendJson(res, 200, { object: 'list', data: models.map((id) => ({ id, object: 'model', created: 0, owned_by: 'test' })) });
    }
    if (req.method !== 'POST' || path !== '/v1/chat/completions') {
      finish();
      return sendError(res, 404, `test server: no route ${req.method ?? ''} ${path}`);
    }
    const body = isRecord(rec.body) ? rec.body : {};
    if (options.strictModels && !models.includes(String(body['model']))) {
      finish();
      return sendError(res, 404, `model "${String(body['model'])}" not found, try pulling it first`, 'model_not_found');
    }
    if (options.rejectToolChoice && body['tool_choice'] !== undefined) {
      finish();
      return sendError(res, 400, '"auto" tool choice requires --enable-auto-tool-choice and --tool-call-parser to be set');
    }

    const source = queue.shift() ?? options.whenEmpty ?? { status: 500, error: 'test server: script exhausted' };
    const step = typeof source === 'function' ? source(rec) : source;

    if ('hang' in step) return; // leave the request open
    if ('status' in step) {
      finish();
      const headers: Record<string, string> = { ...step.headers };
      if (step.retryAfter !== undefined) headers['retry-after'] = step.retryAfter;
      return sendError(res, step.status, step.error ?? `test server: status ${step.status}`, undefined, headers);
    }
    if (step.delayMs) await sleep(step.delayMs);
    if (res.destroyed) return;

    const calls = (step.toolCalls ?? []).map((c) => ({
      id: step.omitToolCallIds ? undefined : (c.id ?? `call_${++callSeq}`),
      name: c.name,
      arguments: typeof c.arguments === 'string' ? c.arguments : JSON.stringify(c.arguments),
    }));
    const finishReason = step.finishReason ?? (calls.length ? 'tool_calls' : 'stop');
    const usage = {
      prompt_tokens: step.usage?.prompt_tokens ?? 10,
      completion_tokens: step.usage?.completion_tokens ?? 5,
      total_tokens: (step.usage?.prompt_tokens ?? 10) + (step.usage?.completion_tokens ?? 5),
      ...(step.usage?.cost !== undefined ? { cost: step.usage.cost } : {}),
    };
    const model = typeof body['model'] === 'string' ? body['model'] : 'test-model';
    const base = { id: `chatcmpl-${requests.length}`, created: 0, model };

    if (body['stream'] !== true) {
      if (step.dropAfterChunks !== undefined) return void res.destroy();
      if (step.hangAfterChunks !== undefined) return;
      finish();
      return sendJson(res, 200, {
        ...base,
        object: 'chat.completion',
        choices: [
          {
            index: 0,
            message: {
              role: 'assistant',
              content: step.content ?? (calls.length ? null : ''),
              ...(step.reasoning ? { [step.reasoningField ?? 'reasoning_content']: step.reasoning } : {}),
              ...(calls.length
                ? {
                    tool_calls: calls.map((c) => ({
                      ...(c.id ? { id: c.id } : {}),
                      type: 'function',
                      function: { name: c.name, arguments: c.arguments },
                    })),
                  }
                : {}),
            },
            finish_reason: finishReason,
          },
        ],
        usage,
      });
    }

    // Streaming: build every chunk first, then send them one by one.
    const chunks: unknown[] = [];
    const delta = (d: Record<string, unknown>, finish: string | null = null): unknown => ({
      ...base,
      object: 'chat.completion.chunk',
      choices: [{ index: 0, delta: d, finish_reason: finish }],
    });
    chunks.push(delta({ role: 'assistant', content: '' }));
    const text = step.content ?? '';
    const size = Math.max(1, step.textChunkSize ?? 6);
    const thought = step.reasoning ?? '';
    for (let i = 0; i < thought.length; i += size)
      chunks.push(delta({ [step.reasoningField ?? 'reasoning_content']: thought.slice(i, i + size) }));
    for (let i = 0; i < text.length; i += size) chunks.push(delta({ content: text.slice(i, i + size) }));
    calls.forEach((c, i) => {
      const index = step.reuseIndexZero ? 0 : i;
      const parts = splitInto(c.arguments, Math.max(1, step.argChunks ?? 1));
      const idField = c.id ? { id: c.id } : {};
      if (step.reuseIndexZero && parts.length === 1) {
        chunks.push(delta({ tool_calls: [{ index, ...idField, type: 'function', function: { name: c.name, arguments: c.arguments } }] }));
        return;
      }
      chunks.push(delta({ tool_calls: [{ index, ...idField, type: 'function', function: { name: c.name, arguments: '' } }] }));
      for (const p of parts) chunks.push(delta({ tool_calls: [{ index, function: { arguments: p } }] }));
    });
    if (!step.omitFinish) chunks.push(delta({}, finishReason));
    if (step.injectRaw) chunks.splice(step.injectRaw.afterChunks, 0, { raw: step.injectRaw.data });
    if (isRecord(body['stream_options']) && body['stream_options']['include_usage'] === true) {
      chunks.push({ ...base, object: 'chat.completion.chunk', choices: [], usage });
    }

    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
    for (let i = 0; i < chunks.length; i++) {
      if (step.dropAfterChunks !== undefined && i >= step.dropAfterChunks) return void res.destroy();
      if (step.hangAfterChunks !== undefined && i >= step.hangAfterChunks) return;
      if (res.destroyed) return;
      const c = chunks[i];
      res.write(`data: ${isRecord(c) && typeof c['raw'] === 'string' ? c['raw'] : JSON.stringify(c)}\n\n`);
      // Yield so chunks go out as separate writes, like a model generating tokens.
      await new Promise((r) => setImmediate(r));
    }
    if (res.destroyed) return;
    finish();
    res.end(step.omitFinish ? '' : 'data: [DONE]\n\n');
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    chatRequests: () => requests.filter((r) => r.path === '/v1/chat/completions'),
    push: (...steps) => void queue.push(...steps),
    remaining: () => queue.length,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

function sendError(res: ServerResponse, status: number, message: string, code?: string, headers: Record<string, string> = {}): void {
  sendJson(res, status, { error: { message, type: status === 401 ? 'invalid_request_error' : 'error', code: code ?? null } }, headers);
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    req.on('data', (c: Buffer) => parts.push(c));
    req.on('end', () => resolve(Buffer.concat(parts).toString('utf8')));
    req.on('error', reject);
  });
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function splitInto(text: string, n: number): string[] {
  if (n <= 1 || text.length <= 1) return [text];
  const size = Math.ceil(text.length / n);
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}
