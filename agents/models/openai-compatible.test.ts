// The OpenAI-compatible adapter against a local server, when answers arrive:
// text and usage, the request's shape, streamed tool calls assembled, calls a
// model left in its text, and reasoning kept apart from the answer. Failures
// (retries, broken streams, aborts, errors) are in openai-compatible-failures.test.ts.
import { describe, expect, it } from 'vitest';
import { serverPerTest } from '../../test/support/model-tests';
import { model, tools, user } from '../../test/support/openai-adapter';
import { raiderCall } from '../../test/support/openai-server';
import type { ChatMessage } from './model';
import { ToolCallAssembler } from './openai-compatible';

const start = serverPerTest();

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
