import { describe, expect, it } from 'vitest';
import { caught, serverPerTest } from '../../test/support/model-tests';
import { raiderCall, type OpenAIServer } from '../../test/support/openai-server';
import { type ChatMessage, type ModelTool, type RetryInfo } from './model';
import { createOpenAICompatibleModel, retryAfter, ToolCallAssembler, type OpenAICompatibleOptions } from './openai-compatible';

const start = serverPerTest();

function model(s: OpenAIServer, opts: Partial<OpenAICompatibleOptions> = {}) {
  return createOpenAICompatibleModel({
    id: 'test',
    baseURL: s.url,
    model: 'test-model',
    timeoutMs: 2000,
    retryBaseMs: 5,
    retryMaxMs: 20,
    ...opts,
  });
}

const user: ChatMessage[] = [{ role: 'user', content: 'hi' }];
const tool = (name: string, props: Record<string, unknown> = {}): ModelTool => ({
  type: 'function',
  function: { name, description: `${name} tool`, parameters: { type: 'object', properties: props } },
});
const tools = [tool('dist_to_target', { target: { type: 'string' } }), tool('pick', { object: { type: 'string' } })];

describe('OpenAI-compatible adapter: answers', () => {
  it('streams text through onText and reports usage (asking for it with stream_options)', async () => {
    const s = await start([{ content: 'Hello there, robot.', textChunkSize: 4, usage: { prompt_tokens: 7, completion_tokens: 3 } }]);
    const deltas: string[] = [];
    const r = await model(s).complete({ messages: user, temperature: 0.2, onText: (d) => deltas.push(d) });
    expect(deltas.length).toBeGreaterThan(3);
    expect(deltas.join('')).toBe('Hello there, robot.');
    expect(r.message).toEqual({ role: 'assistant', content: 'Hello there, robot.' });
    expect(r.toolCalls).toEqual([]);
    expect(r.usage).toEqual({ promptTokens: 7, completionTokens: 3, totalTokens: 10 });
    expect(r.finishReason).toBe('stop');
    expect(s.chatRequests()[0]?.body).toMatchObject({
      model: 'test-model',
      stream: true,
      stream_options: { include_usage: true },
      temperature: 0.2,
    });
  });

  it("keeps the request's price where the provider reports it (usage.cost)", async () => {
    const s = await start([{ content: 'ok', usage: { prompt_tokens: 7, completion_tokens: 3, cost: 0.00042 } }]);
    const r = await model(s).complete({ messages: user });
    expect(r.usage).toEqual({ promptTokens: 7, completionTokens: 3, totalTokens: 10, costUsd: 0.00042 });
  });

  it('sends the history and tools in the OpenAI shape', async () => {
    const s = await start([{ content: 'done' }]);
    const messages: ChatMessage[] = [
      { role: 'system', content: 'sys' },
      { role: 'user', content: 'pick the lemon' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 'c1', type: 'function', function: { name: 'pick', arguments: '{"object":"lemon_1"}' } }],
      },
      { role: 'tool', tool_call_id: 'c1', content: 'picked' },
    ];
    await model(s).complete({ messages, tools, toolChoice: 'auto' });
    const body = s.chatRequests()[0]?.body as Record<string, unknown>;
    expect(body['messages']).toEqual([
      { role: 'system', content: 'sys' },
      { role: 'user', content: 'pick the lemon' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 'c1', type: 'function', function: { name: 'pick', arguments: '{"object":"lemon_1"}' } }],
      },
      { role: 'tool', tool_call_id: 'c1', content: 'picked' },
    ]);
    expect(body['tools']).toEqual(tools);
    expect(body['tool_choice']).toBe('auto');
  });

  it('non-streaming: returns content and tool calls, and calls onText once', async () => {
    const s = await start([{ content: 'Checking.', toolCalls: [{ id: 'x1', name: 'pick', arguments: { object: 'lemon_1' } }] }]);
    const deltas: string[] = [];
    const r = await model(s, { stream: false }).complete({ messages: user, tools, onText: (d) => deltas.push(d) });
    expect(deltas).toEqual(['Checking.']);
    expect(r.toolCalls).toEqual([{ id: 'x1', type: 'function', function: { name: 'pick', arguments: '{"object":"lemon_1"}' } }]);
    expect(r.message.tool_calls).toEqual(r.toolCalls);
    expect(r.toolCallSource).toBe('native');
    expect(r.usage?.totalTokens).toBe(15);
    expect(s.chatRequests()[0]?.body).toMatchObject({ stream: false });
  });
});

describe('OpenAI-compatible adapter: streamed tool-call assembly', () => {
  it('concatenates arguments split across chunks, for several calls', async () => {
    const s = await start([
      {
        toolCalls: [
          { id: 'a', name: 'dist_to_target', arguments: '{"target": "Bowl", "note": "split me into pieces"}' },
          { id: 'b', name: 'pick', arguments: '{"object": "lemon_1"}' },
        ],
        argChunks: 5,
      },
    ]);
    const r = await model(s).complete({ messages: user, tools });
    expect(r.toolCalls).toEqual([
      { id: 'a', type: 'function', function: { name: 'dist_to_target', arguments: '{"target": "Bowl", "note": "split me into pieces"}' } },
      { id: 'b', type: 'function', function: { name: 'pick', arguments: '{"object": "lemon_1"}' } },
    ]);
    expect(r.message.content).toBeNull();
  });

  it('starts a new call when a server reuses index 0 with a new id, and ignores finish_reason "stop"', async () => {
    const s = await start([
      {
        content: 'Let me look.',
        toolCalls: [
          { id: 'call_1', name: 'dist_to_target', arguments: { target: 'Bowl' } },
          { id: 'call_2', name: 'dist_to_target', arguments: { target: 'Cup' } },
          { id: 'call_3', name: 'pick', arguments: { object: 'Cup' } },
        ],
        reuseIndexZero: true,
        finishReason: 'stop',
      },
    ]);
    const r = await model(s).complete({ messages: user, tools });
    expect(r.toolCalls.map((c) => [c.id, c.function.name, c.function.arguments])).toEqual([
      ['call_1', 'dist_to_target', '{"target":"Bowl"}'],
      ['call_2', 'dist_to_target', '{"target":"Cup"}'],
      ['call_3', 'pick', '{"object":"Cup"}'],
    ]);
    expect(r.finishReason).toBe('tool_calls');
    expect(r.message.content).toBe('Let me look.');
  });

  it('handles reused index 0 with split arguments', async () => {
    const s = await start([
      {
        toolCalls: [
          { id: 'p', name: 'pick', arguments: '{"object": "lemon_1"}' },
          { id: 'q', name: 'pick', arguments: '{"object": "lemon_2"}' },
        ],
        reuseIndexZero: true,
        argChunks: 3,
      },
    ]);
    const r = await model(s).complete({ messages: user, tools });
    expect(r.toolCalls.map((c) => JSON.parse(c.function.arguments) as unknown)).toEqual([{ object: 'lemon_1' }, { object: 'lemon_2' }]);
  });

  it('gives calls without ids unique generated ids', async () => {
    const s = await start([
      {
        toolCalls: [
          { name: 'pick', arguments: '{"object": "a"}' },
          { name: 'pick', arguments: '{"object": "b"}' },
        ],
        omitToolCallIds: true,
        argChunks: 2,
      },
    ]);
    const r = await model(s).complete({ messages: user, tools });
    expect(r.toolCalls).toHaveLength(2);
    const ids = r.toolCalls.map((c) => c.id);
    expect(new Set(ids).size).toBe(2);
    for (const id of ids) expect(id).toMatch(/^call_/);
    expect(r.toolCalls.map((c) => c.function.arguments)).toEqual(['{"object": "a"}', '{"object": "b"}']);
  });

  it('keeps finish_reason "length" beside a call cut off by the token limit', async () => {
    const s = await start([{ toolCalls: [{ id: 'l', name: 'pick', arguments: '{"obj' }], finishReason: 'length' }]);
    const r = await model(s).complete({ messages: user, tools });
    expect(r.finishReason).toBe('length');
    expect(r.toolCalls).toHaveLength(1);
  });

  it('passes malformed arguments through for the runtime to report, without failing', async () => {
    const s = await start([{ toolCalls: [{ id: 'm', name: 'pick', arguments: '{"object": "lemon_1",' }], argChunks: 2 }]);
    const r = await model(s).complete({ messages: user, tools });
    expect(r.toolCalls[0]?.function.arguments).toBe('{"object": "lemon_1",');
  });

  it('assembler: no ids and no indexes, one complete call per chunk', () => {
    const a = new ToolCallAssembler();
    a.push({ function: { name: 'pick', arguments: '{"object":"a"}' } });
    a.push({ function: { name: 'pick', arguments: '{"object":"b"}' } });
    // An empty fragment makes no call.
    a.push({ index: 3, id: 'empty', function: { arguments: '' } });
    const calls = a.result();
    expect(calls.map((c) => c.function.arguments)).toEqual(['{"object":"a"}', '{"object":"b"}']);
    expect(calls[0]?.id).not.toBe(calls[1]?.id);
  });

  it('assembler: an id arriving after the name joins the call begun at that index', () => {
    const a = new ToolCallAssembler();
    a.push({ index: 0, function: { arguments: '{"x"' } });
    a.push({ index: 0, id: 'i1', function: { name: 'f', arguments: ':1}' } });
    expect(a.result()).toEqual([{ id: 'i1', type: 'function', function: { name: 'f', arguments: '{"x":1}' } }]);
  });
});

describe('OpenAI-compatible adapter: retries', () => {
  it('retries 500s with backoff and reports each retry', async () => {
    const s = await start([{ status: 500 }, { status: 503 }, { content: 'ok' }]);
    const retries: RetryInfo[] = [];
    const r = await model(s).complete({ messages: user, onRetry: (i) => retries.push(i) });
    expect(r.message.content).toBe('ok');
    expect(s.chatRequests()).toHaveLength(3);
    expect(retries.map((x) => x.attempt)).toEqual([1, 2]);
    expect(retries[0]?.reason).toMatch(/500/);
  });

  it('gives up after maxRetries with a server error naming the endpoint', async () => {
    const s = await start([
      { status: 500, error: 'CUDA out of memory' },
      { status: 500, error: 'CUDA out of memory' },
    ]);
    const e = await caught(model(s, { maxRetries: 1 }).complete({ messages: user }));
    expect(e.kind).toBe('server');
    expect(e.status).toBe(500);
    expect(e.message).toContain(s.url);
    expect(e.message).toContain('CUDA out of memory');
    expect(s.chatRequests()).toHaveLength(2);
  });

  it('honours Retry-After on 429', async () => {
    const s = await start([{ status: 429, retryAfter: '0.25' }, { content: 'ok' }]);
    const retries: RetryInfo[] = [];
    const t0 = Date.now();
    const r = await model(s, { retryBaseMs: 1 }).complete({ messages: user, onRetry: (i) => retries.push(i) });
    expect(r.message.content).toBe('ok');
    expect(Date.now() - t0).toBeGreaterThanOrEqual(240);
    expect(retries).toEqual([{ attempt: 1, delayMs: 250, reason: '429 rate limited' }]);
    const gap = (s.chatRequests()[1]?.at ?? 0) - (s.chatRequests()[0]?.at ?? 0);
    expect(gap).toBeGreaterThanOrEqual(240);
  });

  it('caps a long Retry-After', async () => {
    const s = await start([{ status: 429, retryAfter: '3600' }, { content: 'ok' }]);
    const t0 = Date.now();
    await model(s, { retryAfterMaxMs: 30 }).complete({ messages: user });
    expect(Date.now() - t0).toBeLessThan(1000);
  });

  it('reports a rate limit once retries run out', async () => {
    const s = await start([{ status: 429, retryAfter: '0', error: 'Rate limit reached' }]);
    const e = await caught(model(s, { maxRetries: 0 }).complete({ messages: user }));
    expect(e.kind).toBe('rate_limit');
    expect(e.status).toBe(429);
  });

  it('retries a connection dropped mid-stream', async () => {
    const s = await start([{ content: 'a long answer that is cut off', dropAfterChunks: 3 }, { content: 'complete' }]);
    const retries: RetryInfo[] = [];
    const r = await model(s).complete({ messages: user, onRetry: (i) => retries.push(i) });
    expect(r.message.content).toBe('complete');
    expect(s.chatRequests()).toHaveLength(2);
    expect(retries[0]?.reason).toBe('connection dropped');
  });

  it('retries a connection dropped before a non-streamed answer', async () => {
    const s = await start([{ content: 'x', dropAfterChunks: 0 }, { content: 'second' }]);
    const r = await model(s, { stream: false }).complete({ messages: user });
    expect(r.message.content).toBe('second');
  });

  it('does not retry after a drop once retries are spent', async () => {
    const s = await start([{ content: 'cut', dropAfterChunks: 1 }]);
    const e = await caught(model(s, { maxRetries: 0 }).complete({ messages: user }));
    expect(e.kind).toBe('server');
    expect(e.message).toMatch(/dropped/);
  });
});

describe('OpenAI-compatible adapter: broken streams', () => {
  it('treats a stream that ends without finishing as dropped, and retries it', async () => {
    const s = await start([{ content: 'half an ans', omitFinish: true }, { content: 'whole answer' }]);
    const r = await model(s).complete({ messages: user });
    expect(r.message.content).toBe('whole answer');
    expect(s.chatRequests()).toHaveLength(2);
  });

  it('reports an error event inside the stream, without retrying', async () => {
    const s = await start([
      { content: 'partial', injectRaw: { afterChunks: 2, data: '{"error":{"message":"model runner has unexpectedly stopped"}}' } },
      { content: 'no' },
    ]);
    const e = await caught(model(s).complete({ messages: user }));
    expect(e.kind).toBe('server');
    expect(e.message).toContain('model runner has unexpectedly stopped');
    expect(s.chatRequests()).toHaveLength(1);
  });

  it('reports a chunk that is not JSON as a bad response', async () => {
    const s = await start([{ content: 'x', injectRaw: { afterChunks: 1, data: '<html>proxy error</html>' } }]);
    const e = await caught(model(s).complete({ messages: user }));
    expect(e.kind).toBe('bad_response');
    expect(e.message).toContain(s.url);
  });

  it('reports a non-streamed answer that is not a chat completion', async () => {
    const s = await start([{ content: 'x' }]);
    const notChat = createOpenAICompatibleModel({
      id: 't',
      baseURL: s.url,
      model: 'm',
      stream: false,
      fetch: () => Promise.resolve(new Response(JSON.stringify({ hello: 'world' }), { headers: { 'content-type': 'application/json' } })),
    });
    const e = await caught(notChat.complete({ messages: user }));
    expect(e.kind).toBe('bad_response');
    expect(e.message).toMatch(/choices/);
  });
});

describe('OpenAI-compatible adapter: abort and timeout', () => {
  it('aborts mid-stream promptly: the request is closed and nothing is retried', async () => {
    const s = await start([
      { content: 'streaming a long, long answer', textChunkSize: 3, hangAfterChunks: 3 },
      { content: 'must not be used' },
    ]);
    const ctl = new AbortController();
    let abortedAt = 0;
    const t0 = Date.now();
    const p = model(s, { timeoutMs: 5000 }).complete({
      messages: user,
      signal: ctl.signal,
      onText: () => {
        if (!abortedAt) {
          abortedAt = Date.now();
          ctl.abort();
        }
      },
    });
    const e = await caught(p);
    expect(e.kind).toBe('aborted');
    expect(Date.now() - t0).toBeLessThan(1000);
    await waitFor(() => s.chatRequests()[0]?.closedEarlyAt !== undefined);
    expect(s.chatRequests()).toHaveLength(1);
    expect(s.remaining()).toBe(1);
  });

  it('aborts while waiting for the first byte', async () => {
    const s = await start([{ hang: true }]);
    const ctl = new AbortController();
    setTimeout(() => ctl.abort(), 50);
    const t0 = Date.now();
    const e = await caught(model(s, { timeoutMs: 5000 }).complete({ messages: user, signal: ctl.signal }));
    expect(e.kind).toBe('aborted');
    expect(Date.now() - t0).toBeLessThan(1000);
    await waitFor(() => s.chatRequests()[0]?.closedEarlyAt !== undefined);
  });

  it('aborts during a retry backoff without another request', async () => {
    const s = await start([{ status: 429, retryAfter: '10' }, { content: 'never' }]);
    const ctl = new AbortController();
    const t0 = Date.now();
    const p = model(s).complete({ messages: user, signal: ctl.signal, onRetry: () => setTimeout(() => ctl.abort(), 20) });
    const e = await caught(p);
    expect(e.kind).toBe('aborted');
    expect(Date.now() - t0).toBeLessThan(1000);
    expect(s.chatRequests()).toHaveLength(1);
  });

  it('does not send a request when already aborted', async () => {
    const s = await start([{ content: 'x' }]);
    const e = await caught(model(s).complete({ messages: user, signal: AbortSignal.abort() }));
    expect(e.kind).toBe('aborted');
    expect(s.requests).toHaveLength(0);
  });

  it('times out on a server that never answers, without retrying', async () => {
    const s = await start([{ hang: true }, { content: 'never' }]);
    const t0 = Date.now();
    const e = await caught(model(s, { timeoutMs: 150 }).complete({ messages: user }));
    expect(e.kind).toBe('timeout');
    expect(e.message).toContain('150 ms');
    expect(e.message).toContain(s.url);
    expect(Date.now() - t0).toBeLessThan(1000);
    expect(s.chatRequests()).toHaveLength(1);
  });

  it('times out when a stream stalls', async () => {
    const s = await start([{ content: 'starts then stalls', hangAfterChunks: 2 }]);
    const e = await caught(model(s, { timeoutMs: 150 }).complete({ messages: user }));
    expect(e.kind).toBe('timeout');
  });
});

describe('OpenAI-compatible adapter: tool_choice', () => {
  it('retries once without tool_choice after a 400 naming it, and remembers', async () => {
    const s = await start([{ content: 'first' }, { content: 'second' }], { rejectToolChoice: true });
    const m = model(s);
    const r1 = await m.complete({ messages: user, tools, toolChoice: 'required' });
    expect(r1.message.content).toBe('first');
    const bodies = s.chatRequests().map((r) => r.body as Record<string, unknown>);
    expect(bodies[0]?.['tool_choice']).toBe('required');
    expect(bodies[1]?.['tool_choice']).toBeUndefined();
    expect(bodies[1]?.['tools']).toEqual(tools);
    await m.complete({ messages: user, tools, toolChoice: 'required' });
    expect(s.chatRequests()).toHaveLength(3);
    expect((s.chatRequests()[2]?.body as Record<string, unknown>)['tool_choice']).toBeUndefined();
  });

  it('drops stream_options for a server that rejects it', async () => {
    const s = await start([
      (r) =>
        (r.body as Record<string, unknown>)['stream_options']
          ? { status: 400, error: 'Unrecognized request argument supplied: stream_options' }
          : { content: 'unexpected' },
      { content: 'ok' },
    ]);
    const r = await model(s).complete({ messages: user });
    expect(r.message.content).toBe('ok');
    expect((s.chatRequests()[1]?.body as Record<string, unknown>)['stream_options']).toBeUndefined();
  });

  it('never sends tool_choice when told the server does not support it, nor without tools', async () => {
    const s = await start([{ content: 'a' }, { content: 'b' }]);
    await model(s, { supportsToolChoice: false }).complete({ messages: user, tools, toolChoice: 'required' });
    await model(s).complete({ messages: user, toolChoice: 'required' });
    for (const r of s.chatRequests()) expect((r.body as Record<string, unknown>)['tool_choice']).toBeUndefined();
  });
});

describe('OpenAI-compatible adapter: errors name the endpoint and the fix', () => {
  it('unreachable server', async () => {
    const s = await start([]);
    const url = s.url;
    await s.close(); // closing again after the test is harmless
    const e = await caught(
      createOpenAICompatibleModel({
        id: 't',
        baseURL: url,
        model: 'm',
        maxRetries: 1,
        retryBaseMs: 1,
        hints: { start: 'Start it with `ollama serve`.' },
      }).complete({ messages: user }),
    );
    expect(e.kind).toBe('unreachable');
    expect(e.message).toContain(`Is the server running at ${url}?`);
    expect(e.message).toContain('ollama serve');
    expect(e.endpoint).toBe(url);
  });

  it('wrong key: auth, not retried', async () => {
    const s = await start([{ content: 'x' }], { apiKey: 'right' });
    const e = await caught(model(s, { apiKey: 'wrong' }).complete({ messages: user }));
    expect(e.kind).toBe('auth');
    expect(e.status).toBe(401);
    expect(e.message).toMatch(/API key/);
    expect(s.chatRequests()).toHaveLength(1);
    const ok = await model(s, { apiKey: async () => 'right' }).complete({ messages: user });
    expect(ok.message.content).toBe('x');
  });

  it('unknown model: names the model and how to list or pull one', async () => {
    const s = await start([], { strictModels: true });
    const e = await caught(
      model(s, { model: 'qwen3:8b', hints: { pull: 'Pull it with `ollama pull qwen3:8b`.' } }).complete({ messages: user }),
    );
    expect(e.kind).toBe('config');
    expect(e.message).toContain('"qwen3:8b"');
    expect(e.message).toContain(`${s.url}/models`);
    expect(e.message).toContain('ollama pull qwen3:8b');
  });

  it('a missing key from the key function is an auth error before any request', async () => {
    const s = await start([{ content: 'x' }]);
    const e = await caught(
      model(s, {
        apiKey: () => Promise.reject(new Error('keychain locked')),
        hints: { key: 'Store a key in the settings.' },
      }).complete({ messages: user }),
    );
    expect(e.kind).toBe('auth');
    expect(e.message).toContain('Store a key');
    expect(s.requests).toHaveLength(0);
  });
});

describe('OpenAI-compatible adapter: calls left in the text', () => {
  it('parses a RAIDER call from content when the fallback is on', async () => {
    const s = await start([
      { content: raiderCall('dist_to_target', ['Bowl']) },
      { content: '```json\n{"name": "pick", "arguments": {"object": "Cup"}}\n```' },
    ]);
    const m = model(s, { textToolCallFallback: true });
    const r = await m.complete({ messages: user, tools });
    expect(r.toolCallSource).toBe('text');
    expect(r.toolCalls[0]?.function).toEqual({ name: 'dist_to_target', arguments: '{"target":"Bowl"}' });
    expect(r.message.content).toBeNull();
    const j = await m.complete({ messages: user, tools });
    expect(j.toolCalls[0]?.function).toEqual({ name: 'pick', arguments: '{"object":"Cup"}' });
  });

  it('leaves text alone when the fallback is off or the named tool was not offered', async () => {
    const s = await start([{ content: raiderCall('dist_to_target', ['Bowl']) }, { content: raiderCall('fly', ['moon']) }]);
    const off = await model(s).complete({ messages: user, tools });
    expect(off.toolCalls).toEqual([]);
    const unknown = await model(s, { textToolCallFallback: true }).complete({ messages: user, tools });
    expect(unknown.toolCalls).toEqual([]);
    expect(unknown.message.content).toBe('call_tool{tool: fly, args: ["moon"]}');
  });
});

describe('retryAfter', () => {
  it('reads ms, seconds and HTTP dates', () => {
    expect(retryAfter(new Headers({ 'retry-after-ms': '120' }))).toBe(120);
    expect(retryAfter(new Headers({ 'retry-after': '2' }))).toBe(2000);
    const later = retryAfter(new Headers({ 'retry-after': new Date(Date.now() + 5000).toUTCString() })) ?? 0;
    expect(later).toBeGreaterThan(3000);
    expect(retryAfter(new Headers())).toBeUndefined();
  });
});

async function waitFor(cond: () => boolean, ms = 1000): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 5));
  }
}

describe('OpenAI-compatible adapter: reasoning ("thinking") models', () => {
  it('keeps reasoning_content out of the answer and streams it through onReasoning', async () => {
    const s = await start([{ reasoning: 'The user greets me; greet back.', content: 'Hello!', textChunkSize: 5 }]);
    const text: string[] = [];
    const thought: string[] = [];
    const r = await model(s).complete({ messages: user, onText: (d) => text.push(d), onReasoning: (d) => thought.push(d) });
    expect(thought.length).toBeGreaterThan(1);
    expect(thought.join('')).toBe('The user greets me; greet back.');
    expect(text.join('')).toBe('Hello!');
    expect(r.message).toEqual({ role: 'assistant', content: 'Hello!' });
    expect(r.reasoning).toBe('The user greets me; greet back.');
  });

  it("reads Ollama's `reasoning` field beside tool calls, non-streaming", async () => {
    const s = await start([
      { reasoning: 'Pick it.', reasoningField: 'reasoning', toolCalls: [{ id: 'p1', name: 'pick', arguments: { object: 'lemon_1' } }] },
    ]);
    const thought: string[] = [];
    const r = await model(s, { stream: false }).complete({ messages: user, tools, onReasoning: (d) => thought.push(d) });
    expect(thought).toEqual(['Pick it.']);
    expect(r.reasoning).toBe('Pick it.');
    expect(r.message).toEqual({
      role: 'assistant',
      content: null,
      tool_calls: [{ id: 'p1', type: 'function', function: { name: 'pick', arguments: '{"object":"lemon_1"}' } }],
    });
  });

  it('splits an inline <think> block from the streamed content (Qwen3, DeepSeek-R1 served raw)', async () => {
    const s = await start([{ content: '<think>\nThe lemon is closest.\n</think>\n\nThe lemon is closest.', textChunkSize: 3 }]);
    const text: string[] = [];
    const thought: string[] = [];
    const r = await model(s).complete({ messages: user, onText: (d) => text.push(d), onReasoning: (d) => thought.push(d) });
    expect(text.join('')).toBe('The lemon is closest.');
    expect(thought.join('')).toContain('The lemon is closest.');
    expect(r.message.content).toBe('The lemon is closest.');
    expect(r.reasoning).toBe('The lemon is closest.');
  });

  it('does not mistake a JSON example inside the thinking for a text tool call', async () => {
    const s = await start([
      {
        content:
          '<think>I could send {"name": "pick", "arguments": {"object": "lemon_1"}} but should ask first.</think>Shall I pick the lemon?',
      },
    ]);
    const r = await model(s, { textToolCallFallback: true }).complete({ messages: user, tools });
    expect(r.toolCalls).toEqual([]);
    expect(r.message.content).toBe('Shall I pick the lemon?');
    expect(r.reasoning).toContain('should ask first');
  });
});
