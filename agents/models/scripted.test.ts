import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { errorOf } from '../../test/support/model-tests';
import type { ChatMessage } from './model';
import { createScriptedModel, fromFunction, loadScriptedModel } from './scripted';

const user: ChatMessage[] = [{ role: 'user', content: 'go' }];
const dir = mkdtempSync(join(tmpdir(), 'skillbridge-scripted-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('scripted model', () => {
  it('replays turns in order, normalising object arguments to strings and assigning ids', async () => {
    const m = createScriptedModel([
      { role: 'assistant', content: null, tool_calls: [{ function: { name: 'pick', arguments: { object: 'lemon_1' } } }] },
      { content: 'Done.' },
    ]);
    const r1 = await m.complete({ messages: user });
    expect(r1.toolCalls).toEqual([{ id: 'call_0_0', type: 'function', function: { name: 'pick', arguments: '{"object":"lemon_1"}' } }]);
    expect(r1.message).toEqual({ role: 'assistant', content: null, tool_calls: r1.toolCalls });
    expect(r1.finishReason).toBe('tool_calls');
    expect(r1.toolCallSource).toBe('native');
    const texts: string[] = [];
    const r2 = await m.complete({ messages: user, onText: (d) => texts.push(d) });
    expect(r2.message).toEqual({ role: 'assistant', content: 'Done.' });
    expect(texts).toEqual(['Done.']);
    expect(m.requests).toHaveLength(2);
    expect(m.remaining()).toBe(0);
  });

  it('keeps string arguments and given ids as they are', async () => {
    const m = createScriptedModel([{ tool_calls: [{ id: 'mine', type: 'function', function: { name: 'f', arguments: '{"a": 1}' } }] }]);
    const r = await m.complete({ messages: user });
    expect(r.toolCalls[0]).toEqual({ id: 'mine', type: 'function', function: { name: 'f', arguments: '{"a": 1}' } });
  });

  it('fails clearly when the script runs out', async () => {
    const m = createScriptedModel([{ content: 'only one' }]);
    await m.complete({ messages: user });
    await expect(m.complete({ messages: user })).rejects.toThrow(/has no turn 1 \(it has 1\)/);
    await expect(m.complete({ messages: user })).rejects.toMatchObject({ kind: 'config' });
  });

  it('names the turn index and field of an invalid script', () => {
    expect(errorOf(() => createScriptedModel({ turns: [] })).message).toMatch(/expected a JSON array/);
    const e = errorOf(() => createScriptedModel([{ content: 'ok' }, { tool_calls: [{ function: { name: 7 } }] }]));
    expect(e.kind).toBe('config');
    expect(e.message).toContain('scripted[1].tool_calls.0.function.name');
    expect(errorOf(() => createScriptedModel([{ role: 'user', content: 'x' }])).message).toContain('scripted[0].role');
    expect(errorOf(() => createScriptedModel([{ content: 'x', extra: true }])).message).toMatch(/scripted\[0\].*extra/);
  });

  it('honours abort signals, before and during a simulated delay', async () => {
    const m = createScriptedModel([{ content: 'a' }, { content: 'b' }], { delayMs: 5000 });
    await expect(m.complete({ messages: user, signal: AbortSignal.abort() })).rejects.toMatchObject({ kind: 'aborted' });
    const ctl = new AbortController();
    const t0 = Date.now();
    setTimeout(() => ctl.abort(), 20);
    await expect(m.complete({ messages: user, signal: ctl.signal })).rejects.toMatchObject({ kind: 'aborted' });
    expect(Date.now() - t0).toBeLessThan(1000);
  });

  it('loads a script file, naming the file in errors', async () => {
    const good = join(dir, 'good.json');
    writeFileSync(good, JSON.stringify([{ content: 'from file' }]));
    const m = loadScriptedModel(good);
    expect(m.id).toBe(`scripted:${good}`);
    expect((await m.complete({ messages: user })).message.content).toBe('from file');
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, '[{"content": 3}]');
    expect(errorOf(() => loadScriptedModel(bad)).message).toContain(`scripted:${bad}[0].content`);
    writeFileSync(join(dir, 'broken.json'), '[{');
    expect(errorOf(() => loadScriptedModel(join(dir, 'broken.json'))).message).toMatch(/is not valid JSON at line 1/);
    expect(errorOf(() => loadScriptedModel(join(dir, 'missing.json'))).message).toMatch(/Cannot read the script/);
  });
});

describe('fromFunction', () => {
  it('computes each turn from the request and validates it', async () => {
    const m = fromFunction((req, turn) => ({ content: `turn ${turn}: ${req.messages.length} messages` }));
    expect((await m.complete({ messages: user })).message.content).toBe('turn 0: 1 messages');
    expect((await m.complete({ messages: [...user, ...user] })).message.content).toBe('turn 1: 2 messages');
    const bad = fromFunction(() => ({ tool_calls: [{ function: { name: '' } }] }));
    await expect(bad.complete({ messages: user })).rejects.toThrow(/scripted\[0\]\.tool_calls\.0\.function\.name/);
  });
});
