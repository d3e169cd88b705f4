import { describe, expect, it } from 'vitest';
import { serverPerTest } from '../../test/support/model-tests';
import { raiderCall, type RecordedRequest } from '../../test/support/openai-server';
import { probeModel, probeSpec } from './probe';

const start = serverPerTest();

const body = (r: RecordedRequest) => r.body as { tools?: unknown[]; messages: Array<{ role: string; content: string }> };

describe('probeModel', () => {
  it('reports a model with native tool calls', async () => {
    const s = await start([(r) => (body(r).tools ? { toolCalls: [{ name: 'add', arguments: { a: 2, b: 3 } }] } : { content: '5' })], {
      models: ['qwen3:8b', 'llama3.2'],
    });
    const r = await probeModel({ baseURL: s.url });
    expect(r).toMatchObject({
      reachable: true,
      models: ['qwen3:8b', 'llama3.2'],
      model: 'qwen3:8b',
      nativeToolCalls: true,
      textToolCalls: false,
    });
    expect(r.error).toBeUndefined();
    expect(r.latencyMs).toBeGreaterThanOrEqual(0);
    expect(r.completionMs).toBeGreaterThanOrEqual(0);
    expect(s.chatRequests()).toHaveLength(1);
    expect(body(s.chatRequests()[0] as RecordedRequest).tools).toHaveLength(1);
  });

  it('falls back to the RAIDER text format when the model answers without calling', async () => {
    const s = await start([
      { content: 'The answer is 5.' },
      (r) =>
        body(r).tools === undefined && body(r).messages[0]?.content.includes('call_tool{')
          ? { content: raiderCall('add', [2, 3]) }
          : { content: 'no' },
    ]);
    const r = await probeModel({ baseURL: s.url, model: 'test-model' });
    expect(r).toMatchObject({ nativeToolCalls: false, textToolCalls: true });
    expect(r.notes.join(' ')).toMatch(/textToolCalls: "raider"/);
  });

  it('tries the text format when the server rejects tools with a 400', async () => {
    const s = await start([
      { status: 400, error: 'registry.ollama.ai/library/gemma:2b does not support tools' },
      { content: raiderCall('add', [2, 3]) },
    ]);
    const r = await probeModel({ baseURL: s.url, model: 'gemma:2b' });
    expect(r).toMatchObject({ reachable: true, nativeToolCalls: false, textToolCalls: true });
    expect(r.notes.join(' ')).toMatch(/does not support tools/);
  });

  it('counts a call the server left in the text, without a second request', async () => {
    const s = await start([{ content: '<tool_call>{"name": "add", "arguments": {"a": 2, "b": 3}}</tool_call>' }]);
    const r = await probeModel({ baseURL: s.url });
    expect(r).toMatchObject({ nativeToolCalls: false, textToolCalls: true });
    expect(s.chatRequests()).toHaveLength(1);
  });

  it('reports a model that calls no tools at all', async () => {
    const s = await start([{ content: '5' }, { content: '5' }]);
    const r = await probeModel({ baseURL: s.url });
    expect(r).toMatchObject({ reachable: true, nativeToolCalls: false, textToolCalls: false });
    expect(r.notes.join(' ')).toMatch(/no tool call/);
  });

  it('reports an unreachable server with the fix', async () => {
    const s = await start([]);
    const url = s.url;
    await s.close(); // closing again after the test is harmless
    const r = await probeModel({ baseURL: url, model: 'm' });
    expect(r.reachable).toBe(false);
    expect(r.error?.kind).toBe('unreachable');
    expect(r.error?.message).toBe(`${url} could not be reached: nothing is listening there.`);
    // The fix says what to do, and does not repeat the message.
    expect(r.error?.fix).toBe(`Start the server at ${url}, or correct the base URL.`);
    const hinted = await probeModel({ baseURL: url, model: 'm', hints: { start: 'Start it with `ollama serve`.' } });
    expect(hinted.error?.fix).toBe('Start it with `ollama serve`.');
  });

  it('names the provider start command when the preset server is down', async () => {
    const r = await probeSpec('ollama:qwen3:8b', { env: { SKILLBRIDGE_API_BASE_URL: undefined }, timeoutMs: 3000, localModels: 'any' });
    if (r.reachable) return; // an Ollama runs on this machine: nothing to check
    expect(r.error?.fix).toBe('Start it with `ollama serve`.');
  });

  it('reports a refused key', async () => {
    const s = await start([], { apiKey: 'right' });
    const r = await probeModel({ baseURL: s.url, apiKey: 'wrong' });
    expect(r.reachable).toBe(true);
    expect(r.error?.kind).toBe('auth');
    expect(r.error?.fix).toMatch(/API key/);
  });

  it('reports an unknown model, noting what is listed', async () => {
    const s = await start([], { models: ['llama3.2'], strictModels: true });
    const r = await probeModel({ baseURL: s.url, model: 'qwen3:8b' });
    expect(r.error?.kind).toBe('config');
    expect(r.error?.message).toContain('"qwen3:8b"');
    expect(r.notes.join(' ')).toContain('llama3.2');
  });

  it('times out on a hanging model', async () => {
    const s = await start([{ hang: true }]);
    const r = await probeModel({ baseURL: s.url, timeoutMs: 150 });
    expect(r.reachable).toBe(true);
    expect(r.error?.kind).toBe('timeout');
  });
});

describe('probeSpec', () => {
  it('probes the endpoint a spec names, with the key from the environment', async () => {
    const s = await start([{ toolCalls: [{ name: 'add', arguments: { a: 2, b: 3 } }] }], { apiKey: 'k', models: ['m'] });
    const r = await probeSpec(`openai-compatible:m@${s.url}`, { env: { SKILLBRIDGE_API_KEY: 'k' }, localModels: 'any' });
    expect(r).toMatchObject({ reachable: true, model: 'm', nativeToolCalls: true });
  });
});
