// The OpenAI-compatible adapter against a local server, when things go wrong:
// retries and Retry-After, streams that break, aborts and timeouts, servers that
// reject tool_choice or stream_options, and errors that name the endpoint and
// the fix.
import { describe, expect, it } from 'vitest';
import { caught, serverPerTest } from '../../test/support/model-tests';
import { model, tools, user, waitFor } from '../../test/support/openai-adapter';
import { type RetryInfo } from './model';
import { createOpenAICompatibleModel, retryAfter } from './openai-compatible';

const start = serverPerTest();

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

describe('retryAfter', () => {
  it('reads ms, seconds and HTTP dates', () => {
    expect(retryAfter(new Headers({ 'retry-after-ms': '120' }))).toBe(120);
    expect(retryAfter(new Headers({ 'retry-after': '2' }))).toBe(2000);
    const later = retryAfter(new Headers({ 'retry-after': new Date(Date.now() + 5000).toUTCString() })) ?? 0;
    expect(later).toBeGreaterThan(3000);
    expect(retryAfter(new Headers())).toBeUndefined();
  });
});
