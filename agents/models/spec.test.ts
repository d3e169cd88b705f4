import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { raiderCall, startOpenAIServer, type OpenAIServer } from '../../test/support/openai-server';
import { errorOf } from '../../test/support/model-tests';
import type { ModelTool } from './model';
import { createModel, parseModelSpec, resolveApiKey } from './spec';

describe('parseModelSpec', () => {
  it('knows each provider and its default endpoint', () => {
    expect(parseModelSpec('openai:gpt-4o-mini')).toEqual({
      provider: 'openai',
      model: 'gpt-4o-mini',
      baseURL: 'https://api.openai.com/v1',
      spec: 'openai:gpt-4o-mini',
    });
    expect(parseModelSpec('ollama:qwen3:8b')).toMatchObject({
      provider: 'ollama',
      model: 'qwen3:8b',
      baseURL: 'http://127.0.0.1:11434/v1',
    });
    expect(parseModelSpec('lmstudio:qwen2.5-7b-instruct')).toMatchObject({
      model: 'qwen2.5-7b-instruct',
      baseURL: 'http://127.0.0.1:1234/v1',
    });
    expect(parseModelSpec('llamacpp:any')).toMatchObject({ baseURL: 'http://127.0.0.1:8080/v1' });
    expect(parseModelSpec('vllm:Qwen/Qwen2.5-7B-Instruct')).toMatchObject({
      model: 'Qwen/Qwen2.5-7B-Instruct',
      baseURL: 'http://127.0.0.1:8000/v1',
    });
    expect(parseModelSpec('scripted:demo/pick.json')).toEqual({
      provider: 'scripted',
      file: 'demo/pick.json',
      spec: 'scripted:demo/pick.json',
    });
    expect(parseModelSpec('scripted:C:\\runs\\a.json')).toMatchObject({ file: 'C:\\runs\\a.json' });
  });

  it('splits openai-compatible at the last @', () => {
    expect(parseModelSpec('openai-compatible:org@model:q4@http://10.0.0.5:8000/v1/')).toMatchObject({
      provider: 'openai-compatible',
      model: 'org@model:q4',
      baseURL: 'http://10.0.0.5:8000/v1',
    });
  });

  it('explains bad specs and lists the accepted forms', () => {
    for (const [spec, why] of [
      ['gpt-4o', 'expected PROVIDER:MODEL'],
      ['mistral:large', 'unknown provider "mistral"'],
      ['ollama:', 'needs a model name'],
      ['openai-compatible:model', 'MODEL@BASE_URL'],
      ['openai-compatible:@http://x/v1', 'model name is empty'],
      ['openai-compatible:m@localhost:8000', 'not an http(s) URL'],
      ['ollama:http://127.0.0.1:11434/v1', 'openai-compatible:MODEL@BASE_URL'],
      ['scripted:', 'scripted:FILE'],
    ]) {
      const e = errorOf(() => parseModelSpec(spec ?? ''));
      expect(e.kind).toBe('config');
      expect(e.message).toContain(why ?? '');
      expect(e.message).toContain('Accepted forms: openai:MODEL, ollama:MODEL');
      expect(e.message).toContain('scripted:FILE');
    }
  });
});

describe('keys', () => {
  it('come from the secret store first, then the environment, never the spec', async () => {
    const openai = parseModelSpec('openai:gpt-4o');
    expect(await resolveApiKey(openai, { env: { OPENAI_API_KEY: 'env-key' } })).toBe('env-key');
    expect(await resolveApiKey(openai, { env: { SKILLBRIDGE_API_KEY: 'sb' } })).toBe('sb');
    expect(
      await resolveApiKey(openai, {
        env: { OPENAI_API_KEY: 'env-key' },
        secrets: async (k) => (k.baseURL === 'https://api.openai.com/v1' ? 'stored' : undefined),
      }),
    ).toBe('stored');
    const local = parseModelSpec('ollama:llama3.2');
    expect(await resolveApiKey(local, { env: { OPENAI_API_KEY: 'not-for-ollama' } })).toBeUndefined();
  });

  it('openai without any key fails at creation, naming the variables', () => {
    const e = errorOf(() => createModel('openai:gpt-4o', { env: {} }));
    expect(e.kind).toBe('auth');
    expect(e.message).toContain('OPENAI_API_KEY');
    expect(e.message).not.toContain('undefined');
  });
});

describe('createModel', () => {
  let server: OpenAIServer | undefined;
  const dir = mkdtempSync(join(tmpdir(), 'skillbridge-spec-'));
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it('makes a working model from an openai-compatible spec, sending the key from env', async () => {
    server = await startOpenAIServer([{ content: 'hello' }], { apiKey: 'k-123', models: ['my-model'], strictModels: true });
    const m = createModel(`openai-compatible:my-model@${server.url}`, { env: { SKILLBRIDGE_API_KEY: 'k-123' } });
    expect(m.id).toBe(`openai-compatible:my-model@${server.url}`);
    const r = await m.complete({ messages: [{ role: 'user', content: 'hi' }] });
    expect(r.message.content).toBe('hello');
    expect(server.chatRequests()[0]?.headers['authorization']).toBe('Bearer k-123');
  });

  it('asks the secret store per request', async () => {
    server = await startOpenAIServer([{ content: 'a' }], { apiKey: 'stored' });
    const asked: string[] = [];
    const m = createModel(`openai-compatible:m@${server.url}/`, {
      env: {},
      secrets: (k) => {
        asked.push(`${k.provider} ${k.baseURL}`);
        return 'stored';
      },
    });
    await m.complete({ messages: [{ role: 'user', content: 'hi' }] });
    // By the server's base URL, normalised: the key stored for it and no other.
    expect(asked).toEqual([`openai-compatible ${server.url}`]);
  });

  it('a required key missing from env and store is an auth error at the first request', async () => {
    const m = createModel('openai:gpt-4o', { env: {}, secrets: () => undefined });
    await expect(m.complete({ messages: [{ role: 'user', content: 'hi' }] })).rejects.toMatchObject({ kind: 'auth' });
  });

  it('wraps with a text tool-call format on request, and local providers parse calls leaked into text', async () => {
    const tools: ModelTool[] = [
      {
        type: 'function',
        function: { name: 'dist_to_target', description: 'd', parameters: { type: 'object', properties: { target: { type: 'string' } } } },
      },
    ];
    server = await startOpenAIServer([
      { content: raiderCall('dist_to_target', ['Bowl']) },
      { content: '<tool_call>{"name": "dist_to_target", "arguments": {"target": "Cup"}}</tool_call>' },
    ]);
    const text = createModel(`openai-compatible:m@${server.url}`, { env: {}, textToolCalls: 'raider' });
    const r = await text.complete({ messages: [{ role: 'user', content: 'x' }], tools });
    expect(r.toolCallSource).toBe('text');
    expect((server.chatRequests()[0]?.body as Record<string, unknown>)['tools']).toBeUndefined();
    const native = createModel(`openai-compatible:m@${server.url}`, { env: {} });
    const leaked = await native.complete({ messages: [{ role: 'user', content: 'x' }], tools });
    expect(leaked.toolCalls[0]?.function).toEqual({ name: 'dist_to_target', arguments: '{"target":"Cup"}' });
    expect((server.chatRequests()[1]?.body as Record<string, unknown>)['tools']).toBeDefined();
  });

  it('makes a scripted model from a file', async () => {
    const file = join(dir, 's.json');
    writeFileSync(file, JSON.stringify([{ content: 'scripted hello' }]));
    const m = createModel(`scripted:${file}`);
    expect((await m.complete({ messages: [] })).message.content).toBe('scripted hello');
    rmSync(dir, { recursive: true, force: true });
  });
});

describe('a key goes only to the base URL it is for', () => {
  const servers: OpenAIServer[] = [];
  afterEach(async () => {
    for (const s of servers.splice(0)) await s.close();
  });
  const ask = async (spec: string, opts: Parameters<typeof createModel>[1]) => {
    await createModel(spec, opts).complete({ messages: [{ role: 'user', content: 'hi' }] });
  };
  const auth = (s: OpenAIServer) => s.chatRequests().map((r) => r.headers['authorization'] ?? null);

  it('SKILLBRIDGE_API_KEY bound to a base URL: that server gets it, a server at another port gets no Authorization header', async () => {
    const a = await startOpenAIServer([{ content: 'a' }]);
    const b = await startOpenAIServer([{ content: 'b' }]);
    servers.push(a, b);
    const env = { SKILLBRIDGE_API_KEY: 'sk-local', SKILLBRIDGE_API_BASE_URL: `${a.url}/` };
    await ask(`openai-compatible:m@${a.url}`, { env });
    await ask(`openai-compatible:m@${b.url}`, { env, allowEnvKeyFor: () => true });
    expect(auth(a)).toEqual(['Bearer sk-local']);
    expect(auth(b)).toEqual([null]);
  });

  it('unbound, it goes to a new base URL only when the host allows it', async () => {
    const b = await startOpenAIServer([{ content: 'b' }, { content: 'b' }]);
    servers.push(b);
    const env = { SKILLBRIDGE_API_KEY: 'sk-x' };
    const asked: string[] = [];
    await ask(`openai-compatible:m@${b.url}`, { env, allowEnvKeyFor: (u) => (asked.push(u), false) });
    await ask(`openai-compatible:m@${b.url}`, { env, allowEnvKeyFor: () => true });
    expect(asked).toEqual([b.url]);
    expect(auth(b)).toEqual([null, 'Bearer sk-x']);
    // OPENAI_API_KEY is OpenAI's: never sent to another server, whatever the host allows.
    expect(
      await resolveApiKey(parseModelSpec(`openai-compatible:m@${b.url}`), {
        env: { OPENAI_API_KEY: 'sk-openai' },
        allowEnvKeyFor: () => true,
      }),
    ).toBeUndefined();
  });

  it('a stored key is looked up by the base URL: a server at another port gets none', async () => {
    const a = await startOpenAIServer([{ content: 'a' }]);
    const b = await startOpenAIServer([{ content: 'b' }]);
    servers.push(a, b);
    const secrets = (k: { baseURL: string }) => (k.baseURL === a.url ? 'sk-stored' : undefined);
    await ask(`openai-compatible:m@${a.url}`, { env: {}, secrets });
    await ask(`openai-compatible:m@${b.url}`, { env: {}, secrets });
    expect(auth(a)).toEqual(['Bearer sk-stored']);
    expect(auth(b)).toEqual([null]);
  });
});

describe('scripted models from a host serving pages', () => {
  const dir = mkdtempSync(join(tmpdir(), 'skillbridge-scripts-'));
  writeFileSync(join(dir, 'demo.json'), '\uFEFF[{"content": "from the folder"}]');
  const secret = join(tmpdir(), `skillbridge-other-${process.pid}.json`);
  writeFileSync(secret, '{"OPENAI_API_KEY_NAME": "sk-do-not-leak"}');

  it('read only names in the scripts folder: no absolute paths, no ..', async () => {
    const m = createModel('scripted:demo.json', { scriptFiles: { dir } });
    expect((await m.complete({ messages: [] })).message.content).toBe('from the folder');
    for (const bad of [secret, '../demo.json', 'sub/demo.json', '.hidden.json', 'demo.txt']) {
      const e = errorOf(() => createModel(`scripted:${bad}`, { scriptFiles: { dir } }));
      expect(e.kind).toBe('config');
      expect(e.message).not.toMatch(/OPENAI_API_KEY_NAME|sk-do-not/);
    }
    expect(errorOf(() => createModel(`scripted:${secret}`, { scriptFiles: 'none' })).message).toMatch(/upload the script/);
  });

  it('read no file a name in the folder links to elsewhere (where it leads counts, not how it is spelled)', () => {
    symlinkSync(secret, join(dir, 'escape.json'));
    const e = errorOf(() => createModel('scripted:escape.json', { scriptFiles: { dir } }));
    expect(e.kind).toBe('config');
    expect(e.message).toMatch(/leads outside it/);
    expect(e.message).not.toMatch(/OPENAI_API_KEY_NAME|sk-do-not/);
  });

  it('take uploaded content instead of a file (a UTF-8 BOM is fine)', async () => {
    const m = createModel('scripted:mine.json', { scriptFiles: 'none', scriptText: '\uFEFF[{"content": "uploaded"}]' });
    expect((await m.complete({ messages: [] })).message.content).toBe('uploaded');
  });
});
