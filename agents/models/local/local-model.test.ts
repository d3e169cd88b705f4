// The local provider on a real llama.cpp runtime and a tiny generated model
// (random weights: only the grammar makes its replies parse).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeTinyGguf } from '../../../test/support/tiny-gguf';
import { ModelError, type ChatMessage, type ModelTool } from '../model';
import { createLocalModel, type LocalModel } from './local-model';
import { localModelFromSpec } from './local-spec';
import { loadedLocalModels, unloadLocalModels } from './model-cache';
import { forkLauncher, setModelProcessLauncher } from './process-launcher';

const tools: ModelTool[] = [
  {
    type: 'function',
    function: {
      name: 'pick',
      description: 'Pick up an object.',
      parameters: { type: 'object', properties: { object: { type: 'string', enum: ['apple', 'lemon'] } }, required: ['object'] },
    },
  },
  {
    type: 'function',
    function: { name: 'look', description: 'Describe the scene.', parameters: { type: 'object', properties: {} } },
  },
];

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

let dir: string;
let file: string;
let model: LocalModel;

beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'sb-local-'));
  file = writeTinyGguf(path.join(dir, 'tiny.gguf'));
  model = createLocalModel({ id: 'local:tiny', file, maxTokens: 160 });
});

afterAll(async () => {
  await model.dispose();
  rmSync(dir, { recursive: true, force: true });
});

describe('local provider on a tiny generated model', () => {
  it('loads through the chat template and returns a required tool call in OpenAI form, with tokens and timing', async () => {
    const info = await model.load();
    expect(info.trainContextSize).toBe(16384);
    expect(info.nativeTools).toBe(false);
    const c = await model.complete({ messages: [{ role: 'user', content: 'Pick up the apple.' }], tools, toolChoice: 'required' });
    expect(c.toolCalls.length).toBeGreaterThan(0);
    for (const call of c.toolCalls) {
      expect(['pick', 'look']).toContain(call.function.name);
      const args = JSON.parse(call.function.arguments) as Record<string, unknown>;
      if (call.function.name === 'pick') expect(['apple', 'lemon']).toContain(args['object']);
      else expect(args).toEqual({});
    }
    expect(c.message.tool_calls).toEqual(c.toolCalls);
    expect(c.toolCallSource).toBe('text');
    expect(c.usage?.promptTokens).toBeGreaterThan(20);
    expect(c.usage?.completionTokens).toBeGreaterThan(3);
    expect(c.usage?.timeToFirstTokenMs).toBeGreaterThan(0);
    expect(c.usage?.tokensPerSecond).toBeGreaterThan(0);
  }, 120_000);

  it('takes the tool result back into the conversation', async () => {
    const first = await model.complete({ messages: [{ role: 'user', content: 'Pick up the apple.' }], tools, toolChoice: 'required' });
    const call = first.toolCalls[0];
    if (!call) throw new Error('no call');
    const history: ChatMessage[] = [
      { role: 'user', content: 'Pick up the apple.' },
      first.message,
      { role: 'tool', tool_call_id: call.id, content: 'ok: holding the apple' },
    ];
    const next = await model.complete({ messages: history, tools });
    expect(next.usage?.promptTokens).toBeGreaterThan(first.usage?.promptTokens ?? 0);
    expect(next.finishReason).toMatch(/stop|tool_calls|length/);
  }, 120_000);

  it('stops generating on abort, and the model still answers afterwards', async () => {
    const long = createLocalModel({ id: 'local:tiny', file, maxTokens: 1500 });
    try {
      await long.load();
      const ac = new AbortController();
      const p = long.complete({ messages: [{ role: 'user', content: 'Say a lot.' }], signal: ac.signal });
      // Abort once the request is on its way (the model is loaded, so it is sent within a tick): the
      // process gets it queued or running, and either way must drop it. Waiting a set time instead
      // let a fast machine finish the whole reply first.
      setTimeout(() => ac.abort(), 0);
      await expect(p).rejects.toMatchObject({ kind: 'aborted' });
      const after = await long.complete({ messages: [{ role: 'user', content: 'hi' }], tools, toolChoice: 'required' });
      expect(after.toolCalls.length).toBeGreaterThan(0);
      // Aborted while the model was still loading: refused at once, nothing sent.
      const fresh = createLocalModel({ id: 'local:tiny', file, maxTokens: 1500 });
      try {
        const ac2 = new AbortController();
        const q = fresh.complete({ messages: [{ role: 'user', content: 'Say a lot.' }], signal: ac2.signal });
        ac2.abort();
        await expect(q).rejects.toMatchObject({ kind: 'aborted' });
      } finally {
        await fresh.dispose();
      }
    } finally {
      await long.dispose();
    }
  }, 120_000);

  it('says when a conversation no longer fits the context instead of cutting it', async () => {
    const small = createLocalModel({ id: 'local:tiny', file, maxTokens: 32, maxContext: 256 });
    try {
      const err = await small.complete({ messages: [{ role: 'user', content: 'apple '.repeat(400) }] }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ModelError);
      expect((err as ModelError).message).toMatch(/no longer fits .* > 256 tokens/);
    } finally {
      await small.dispose();
    }
  }, 120_000);

  it('names the file when it is not a model, or a truncated one, before starting a process', () => {
    const junk = path.join(dir, 'junk.gguf');
    writeFileSync(junk, 'not a model at all, just text');
    expect(() => createLocalModel({ id: 'local:junk', file: junk })).toThrow(
      `${junk} is not a usable GGUF model: it does not start with "GGUF"`,
    );
    const cut = path.join(dir, 'cut.gguf');
    const whole = readFileSync(file);
    writeFileSync(cut, whole.subarray(0, Math.floor(whole.length / 2)));
    let err: unknown;
    try {
      createLocalModel({ id: 'local:cut', file: cut });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ModelError);
    expect((err as ModelError).message).toMatch(
      new RegExp(`^${cut.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} is not a usable GGUF model: .* truncated`),
    );
    expect((err as ModelError).kind).toBe('config');
    expect(() => createLocalModel({ id: 'local:none', file: path.join(dir, 'none.gguf') })).toThrow('No model file at');
  });

  it('ends the model process on dispose, releasing its memory', async () => {
    const m = createLocalModel({ id: 'local:tiny', file });
    await m.load();
    const pid = m.pid;
    expect(pid && alive(pid)).toBe(true);
    await m.dispose();
    expect(m.pid).toBeUndefined();
    expect(alive(pid ?? 0)).toBe(false);
  }, 120_000);

  it('runs of one model share one loaded process (real processes, counted at the launcher)', async () => {
    const pids: number[] = [];
    let starts = 0;
    setModelProcessLauncher((script) => {
      starts++;
      return forkLauncher(script);
    });
    try {
      const env = { SKILLBRIDGE_LOCAL_MAX_TOKENS: '48' };
      for (let run = 0; run < 2; run++) {
        const m = localModelFromSpec('local:tiny', file, 'any', env);
        const c = await m.complete({ messages: [{ role: 'user', content: 'Pick up the apple.' }], tools, toolChoice: 'required' });
        // 48 tokens may cut the random model's call short: what counts here is that the process answered.
        expect(c.usage?.completionTokens).toBeGreaterThan(0);
        pids.push((m as LocalModel).pid ?? 0);
        // A run's own dispose lets go of the shared process, it does not end it.
        await (m as LocalModel).dispose();
      }
      expect(starts).toBe(1);
      expect(pids[0]).toBeGreaterThan(0);
      expect(pids[1]).toBe(pids[0]);
      expect(alive(pids[0]!)).toBe(true);
      await unloadLocalModels();
      expect(loadedLocalModels()).toBe(0);
      expect(alive(pids[0]!)).toBe(false);
    } finally {
      setModelProcessLauncher();
      await unloadLocalModels();
    }
  }, 120_000);
});
