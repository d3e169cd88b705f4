import { afterEach, describe, expect, it } from 'vitest';
import { raiderCall, startOpenAIServer, type OpenAIServer } from './openai-server';

let server: OpenAIServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const chat = (body: Record<string, unknown>, init: RequestInit = {}) =>
  fetch(`${server?.url}/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'test-model', messages: [{ role: 'user', content: 'hi' }], ...body }),
    ...init,
  });

/** Reads an SSE body into its `data:` payloads. */
async function sse(res: Response): Promise<string[]> {
  const text = await res.text();
  return text
    .split('\n\n')
    .map((b) => b.trim())
    .filter(Boolean)
    .map((b) => b.replace(/^data: /, ''));
}

interface Chunk {
  choices: Array<{
    delta: { content?: string; tool_calls?: Array<{ index: number; id?: string; function: { name?: string; arguments?: string } }> };
    finish_reason: string | null;
  }>;
  usage?: { total_tokens: number };
}
const chunks = (data: string[]): Chunk[] => data.filter((d) => d !== '[DONE]').map((d) => JSON.parse(d) as Chunk);

describe('test OpenAI-compatible server', () => {
  it('lists models and listens on 127.0.0.1', async () => {
    server = await startOpenAIServer([], { models: ['a', 'b:7b'] });
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
    const res = await fetch(`${server.url}/models`);
    expect(res.status).toBe(200);
    const body = (await res.json()) as { data: Array<{ id: string }> };
    expect(body.data.map((m) => m.id)).toEqual(['a', 'b:7b']);
  });

  it('answers non-streaming with content, tool calls and usage, and records the body', async () => {
    server = await startOpenAIServer([{ content: 'ok', toolCalls: [{ id: 'c1', name: 'pick', arguments: { object: 'lemon_1' } }] }]);
    const res = await chat({ temperature: 0 });
    const body = (await res.json()) as {
      choices: Array<{ message: { content: string; tool_calls: unknown[] }; finish_reason: string }>;
      usage: unknown;
    };
    expect(body.choices[0]?.message.content).toBe('ok');
    expect(body.choices[0]?.message.tool_calls).toEqual([
      { id: 'c1', type: 'function', function: { name: 'pick', arguments: '{"object":"lemon_1"}' } },
    ]);
    expect(body.choices[0]?.finish_reason).toBe('tool_calls');
    expect(body.usage).toEqual({ prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 });
    expect(server.chatRequests()[0]?.body).toMatchObject({ temperature: 0 });
    expect(server.chatRequests()[0]?.finished).toBe(true);
  });

  it('streams text in chunks, then [DONE], with a usage chunk only when asked', async () => {
    server = await startOpenAIServer([{ content: 'hello world', textChunkSize: 4 }, { content: 'x' }]);
    const data = await sse(await chat({ stream: true, stream_options: { include_usage: true } }));
    expect(data.at(-1)).toBe('[DONE]');
    const cs = chunks(data);
    expect(cs.map((c) => c.choices[0]?.delta.content ?? '').join('')).toBe('hello world');
    expect(cs.filter((c) => c.choices[0]?.delta.content).length).toBe(3);
    expect(cs.at(-1)?.usage?.total_tokens).toBe(15);
    const plain = chunks(await sse(await chat({ stream: true })));
    expect(plain.some((c) => c.usage)).toBe(false);
  });

  it('streams tool calls with split arguments, reused index 0, missing ids and a wrong finish_reason', async () => {
    server = await startOpenAIServer([
      { toolCalls: [{ id: 'a', name: 'f', arguments: '{"x": 1, "y": 2}' }], argChunks: 3 },
      {
        toolCalls: [
          { id: 'a', name: 'f', arguments: '{}' },
          { id: 'b', name: 'g', arguments: '{}' },
        ],
        reuseIndexZero: true,
        finishReason: 'stop',
      },
      { toolCalls: [{ name: 'f', arguments: '{}' }], omitToolCallIds: true },
    ]);
    const split = chunks(await sse(await chat({ stream: true })));
    const argParts = split.flatMap((c) => c.choices[0]?.delta.tool_calls ?? []).map((t) => t.function.arguments ?? '');
    expect(argParts.filter(Boolean).length).toBe(3);
    expect(argParts.join('')).toBe('{"x": 1, "y": 2}');

    const reused = chunks(await sse(await chat({ stream: true })));
    const calls = reused.flatMap((c) => c.choices[0]?.delta.tool_calls ?? []);
    expect(calls.map((t) => [t.index, t.id])).toEqual([
      [0, 'a'],
      [0, 'b'],
    ]);
    expect(reused.at(-1)?.choices[0]?.finish_reason).toBe('stop');

    const noIds = chunks(await sse(await chat({ stream: true })));
    expect(noIds.flatMap((c) => c.choices[0]?.delta.tool_calls ?? []).every((t) => t.id === undefined)).toBe(true);
  });

  it('sends malformed arguments and text-format calls verbatim', async () => {
    server = await startOpenAIServer([
      { toolCalls: [{ name: 'f', arguments: '{"x": 1,' }] },
      { content: raiderCall('dist_to_target', ['Bowl']) },
    ]);
    const bad = (await (await chat({})).json()) as {
      choices: Array<{ message: { tool_calls: Array<{ function: { arguments: string } }> } }>;
    };
    expect(bad.choices[0]?.message.tool_calls[0]?.function.arguments).toBe('{"x": 1,');
    const text = (await (await chat({})).json()) as { choices: Array<{ message: { content: string } }> };
    expect(text.choices[0]?.message.content).toBe('call_tool{tool: dist_to_target, args: ["Bowl"]}');
  });

  it('injects HTTP errors with Retry-After, and 500 once the script is exhausted', async () => {
    server = await startOpenAIServer([{ status: 429, retryAfter: '1', error: 'slow down' }]);
    const limited = await chat({});
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('1');
    expect(((await limited.json()) as { error: { message: string } }).error.message).toBe('slow down');
    const empty = await chat({});
    expect(empty.status).toBe(500);
    expect(await empty.text()).toContain('script exhausted');
  });

  it('rejects tool_choice with a 400 without consuming the step; enforces keys and model names', async () => {
    server = await startOpenAIServer([{ content: 'fine' }], { rejectToolChoice: true, apiKey: 'k', strictModels: true });
    const auth = { authorization: 'Bearer k', 'content-type': 'application/json' };
    expect((await chat({ tool_choice: 'auto' }, { headers: auth })).status).toBe(400);
    expect((await chat({})).status).toBe(401);
    expect((await chat({ model: 'nope' }, { headers: auth })).status).toBe(404);
    const ok = await chat({}, { headers: auth });
    expect(ok.status).toBe(200);
    expect(server.remaining()).toBe(0);
  });

  it('hangs until the client aborts, and records when the client went away', async () => {
    server = await startOpenAIServer([{ hang: true }]);
    const ctl = new AbortController();
    const pending = chat({}, { signal: ctl.signal });
    await waitFor(() => server?.chatRequests().length === 1);
    ctl.abort();
    await expect(pending).rejects.toThrow();
    await waitFor(() => server?.chatRequests()[0]?.closedEarlyAt !== undefined);
    expect(server.chatRequests()[0]?.finished).toBe(false);
  });

  it('drops the connection mid-stream', async () => {
    server = await startOpenAIServer([{ content: 'a long answer that gets cut', dropAfterChunks: 2 }]);
    const res = await chat({ stream: true });
    expect(res.status).toBe(200);
    await expect(res.text()).rejects.toThrow();
  });

  it('injects raw stream payloads and truncated streams', async () => {
    server = await startOpenAIServer([
      { content: 'abc', injectRaw: { afterChunks: 1, data: 'not json' } },
      { content: 'abc', omitFinish: true },
    ]);
    const raw = await sse(await chat({ stream: true }));
    expect(raw[1]).toBe('not json');
    const cut = await sse(await chat({ stream: true }));
    expect(cut).not.toContain('[DONE]');
    expect(chunks(cut).some((c) => c.choices[0]?.finish_reason)).toBe(false);
  });

  it('runs a step function against the request', async () => {
    server = await startOpenAIServer([(r) => ({ content: JSON.stringify((r.body as { model: string }).model) })]);
    const body = (await (await chat({ model: 'm' })).json()) as { choices: Array<{ message: { content: string } }> };
    expect(body.choices[0]?.message.content).toBe('"m"');
  });
});

async function waitFor(cond: () => boolean, ms = 2000): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 5));
  }
}
