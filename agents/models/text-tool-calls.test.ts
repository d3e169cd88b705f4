import { afterEach, describe, expect, it } from 'vitest';
import { raiderCall, startOpenAIServer, type OpenAIServer } from '../../test/support/openai-server';
import type { ChatMessage, ModelTool, ToolCall } from './model';
import { createOpenAICompatibleModel } from './openai-compatible';
import { fromFunction } from './scripted';
import { parseJsonish, parseTextToolCalls, renderTextToolCall, textHistory, withTextToolCalls } from './text-tool-calls';

const tool = (name: string, properties: Record<string, unknown>, required: string[] = Object.keys(properties)): ModelTool => ({
  type: 'function',
  function: { name, description: `${name} does things.`, parameters: { type: 'object', properties, required } },
});
const tools: ModelTool[] = [
  tool('check_obj_relationship', {
    relationship: { type: 'string', enum: ['blocking', 'inside', 'on top of'] },
    obj: { type: 'string', description: 'object id' },
  }),
  tool('dist_to_target', { target: { type: 'string' } }),
  tool('robot_holding', {}),
  tool('move_arm', { x: { type: 'number' }, y: { type: 'number' }, open: { type: 'boolean' } }, ['x', 'y']),
];

const calls = (text: string, onlyKnown = false) =>
  parseTextToolCalls(text, { tools, onlyKnown }).calls.map((c) => [c.name, JSON.parse(c.arguments) as unknown]);

describe('parseTextToolCalls: RAIDER call_tool{…}', () => {
  it('maps positional args to the schema property order', () => {
    expect(calls('call_tool{tool: check_obj_relationship, args: ["inside", "Bowl"]}')).toEqual([
      ['check_obj_relationship', { relationship: 'inside', obj: 'Bowl' }],
    ]);
  });

  it('tolerates single quotes, bare words, quoted names, spaces and trailing text', () => {
    expect(calls("call_tool{tool: 'dist_to_target', args: ['Bowl']} and then I will decide.")).toEqual([
      ['dist_to_target', { target: 'Bowl' }],
    ]);
    expect(calls('call_tool{tool: check_obj_relationship, args: [on top of, Book]}')).toEqual([
      ['check_obj_relationship', { relationship: 'on top of', obj: 'Book' }],
    ]);
    expect(calls('call_tool{"tool": "dist_to_target", "args": ["Cup",]}')).toEqual([['dist_to_target', { target: 'Cup' }]]);
    expect(calls('call_tool { tool : robot_holding , args : [ ] }')).toEqual([['robot_holding', {}]]);
    expect(calls('call_tool{tool: robot_holding}')).toEqual([['robot_holding', {}]]);
    expect(calls('call_tool(tool: dist_to_target, args: [“Bowl”])')).toEqual([['dist_to_target', { target: 'Bowl' }]]);
    expect(calls("call_tool{tool: dist_to_target, args: [robot's cup]}")).toEqual([['dist_to_target', { target: "robot's cup" }]]);
  });

  it('finds several calls among reasoning, as in the paper', () => {
    const text = [
      '3. Information Gathering for Question Answering',
      '- call_tool{tool: check_obj_relationship, args: ["inside", "Bowl"]}',
      '- call_tool{tool: dist_to_target, args: ["Bowl"]}',
      '- call_tool{tool: check_obj_relationship, args: ["blocking", "Bowl"]}',
    ].join('\n');
    const r = parseTextToolCalls(text, { tools });
    expect(r.calls.map((c) => c.name)).toEqual(['check_obj_relationship', 'dist_to_target', 'check_obj_relationship']);
    expect(r.calls.every((c) => c.format === 'raider')).toBe(true);
    expect(r.text).toBe('3. Information Gathering for Question Answering');
  });

  it('coerces numbers and booleans by schema type; extra args keep a visible name', () => {
    expect(calls('call_tool{tool: move_arm, args: ["0.5", -1, "true"]}')).toEqual([['move_arm', { x: 0.5, y: -1, open: true }]]);
    expect(calls('call_tool{tool: dist_to_target, args: ["Bowl", "extra"]}')).toEqual([
      ['dist_to_target', { target: 'Bowl', arg1: 'extra' }],
    ]);
  });

  it('accepts named args and a single unbracketed arg', () => {
    expect(calls('call_tool{tool: dist_to_target, args: {target: "Bowl"}}')).toEqual([['dist_to_target', { target: 'Bowl' }]]);
    expect(calls('call_tool{tool: dist_to_target, args: "Bowl"}')).toEqual([['dist_to_target', { target: 'Bowl' }]]);
  });

  it('keeps calls to unknown tools unless asked not to (the flow manager warns about them)', () => {
    expect(calls('call_tool{tool: fly, args: ["moon"]}')).toEqual([['fly', { arg0: 'moon' }]]);
    expect(calls('call_tool{tool: fly, args: ["moon"]}', true)).toEqual([]);
  });

  it('ignores text that only mentions call_tool', () => {
    expect(calls('I will use call_tool to check.')).toEqual([]);
    expect(calls('call_tool{not a call}')).toEqual([]);
  });
});

describe('parseTextToolCalls: JSON and Hermes', () => {
  it('reads {"name", "arguments"} and {"tool", "args"} objects, fenced or bare', () => {
    expect(calls('```json\n{"name": "dist_to_target", "arguments": {"target": "Bowl"}}\n```')).toEqual([
      ['dist_to_target', { target: 'Bowl' }],
    ]);
    expect(calls('Sure. {"tool": "dist_to_target", "args": {"target": "Cup"}} Done.')).toEqual([['dist_to_target', { target: 'Cup' }]]);
    expect(calls('{"name": "dist_to_target", "parameters": {"target": "Cup"}}')).toEqual([['dist_to_target', { target: 'Cup' }]]);
    expect(calls('{"name": "dist_to_target", "arguments": "{\\"target\\": \\"Cup\\"}"}')).toEqual([['dist_to_target', { target: 'Cup' }]]);
    expect(calls('{"type": "function", "function": {"name": "robot_holding", "arguments": {}}}')).toEqual([['robot_holding', {}]]);
    expect(calls('[{"name": "robot_holding", "arguments": {}}, {"name": "dist_to_target", "arguments": {"target": "A"}}]')).toEqual([
      ['robot_holding', {}],
      ['dist_to_target', { target: 'A' }],
    ]);
  });

  it('does not take ordinary JSON for a call (RAIDER final answers, data)', () => {
    expect(calls('{"final_response": "ambiguity", "explanation": "two cups"}')).toEqual([]);
    expect(calls('{"name": "Bowl", "colour": "red"}')).toEqual([]);
    expect(calls('The list is [1, 2, 3] and {a} is a set.')).toEqual([]);
  });

  it('reads Hermes <tool_call> blocks, with or without the closing tag', () => {
    const text =
      'Checking.\n<tool_call>\n{"name": "dist_to_target", "arguments": {"target": "Bowl"}}\n</tool_call>\n<tool_call>{"name": "robot_holding"}';
    const r = parseTextToolCalls(text, { tools });
    expect(r.calls.map((c) => [c.name, c.format])).toEqual([
      ['dist_to_target', 'hermes'],
      ['robot_holding', 'hermes'],
    ]);
    expect(r.text).toBe('Checking.');
  });

  it('removes content that is only the call', () => {
    expect(parseTextToolCalls('```json\n{"name": "robot_holding", "arguments": {}}\n```', { tools }).text).toBe('');
    expect(parseTextToolCalls('`call_tool{tool: robot_holding, args: []}`', { tools }).text).toBe('');
    expect(parseTextToolCalls('I will call_tool{tool: robot_holding, args: []} now.', { tools }).text).toBe('I will now.');
  });

  it('parses JSON-ish text leniently', () => {
    expect(parseJsonish("{a: 'b', c: [1, True, None,],}")).toEqual({ a: 'b', c: [1, true, null] });
    expect(parseJsonish('{"unterminated')).toBeUndefined();
  });
});

describe('rendering calls back into text', () => {
  const call = (name: string, args: unknown): ToolCall => ({
    id: 'c1',
    type: 'function',
    function: { name, arguments: JSON.stringify(args) },
  });
  it('round-trips through the parser in each format', () => {
    for (const format of ['raider', 'json', 'hermes'] as const) {
      const text = renderTextToolCall(call('check_obj_relationship', { relationship: 'inside', obj: 'Bowl' }), format, tools);
      expect(calls(text)).toEqual([['check_obj_relationship', { relationship: 'inside', obj: 'Bowl' }]]);
    }
    expect(renderTextToolCall(call('check_obj_relationship', { relationship: 'inside', obj: 'Bowl' }), 'raider', tools)).toBe(
      'call_tool{tool: check_obj_relationship, args: ["inside","Bowl"]}',
    );
    // Positional would lose the name of a skipped optional argument: written named instead.
    expect(renderTextToolCall(call('move_arm', { x: 1, open: true }), 'raider', tools)).toBe(
      'call_tool{tool: move_arm, args: {"x":1,"open":true}}',
    );
  });
});

describe('textHistory', () => {
  it('puts tools and the format into the system message and turns tool traffic into text', () => {
    const messages: ChatMessage[] = [
      { role: 'system', content: 'You are RAIDER.' },
      { role: 'user', content: 'Can I pick the bowl?' },
      {
        role: 'assistant',
        content: 'Checking.',
        tool_calls: [
          { id: 'a', type: 'function', function: { name: 'dist_to_target', arguments: '{"target":"Bowl"}' } },
          { id: 'b', type: 'function', function: { name: 'robot_holding', arguments: '{}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'a', content: '0.4 m' },
      { role: 'tool', tool_call_id: 'b', content: 'nothing' },
      { role: 'user', content: 'Warning 4: awaiting a final response.' },
    ];
    const out = textHistory(messages, tools, 'raider');
    expect(out).toHaveLength(4);
    const sys = out[0];
    expect(sys?.role).toBe('system');
    expect(sys?.content).toContain('You are RAIDER.');
    expect(sys?.content).toContain(
      '- check_obj_relationship(relationship: "blocking" | "inside" | "on top of", obj: string): check_obj_relationship does things.',
    );
    expect(sys?.content).toContain('    obj: object id');
    expect(sys?.content).toContain('move_arm(x: number, y: number, open?: boolean)');
    expect(sys?.content).toContain('call_tool{tool: tool_name, args: ["first argument", 2]}');
    expect(out[2]).toEqual({
      role: 'assistant',
      content: 'Checking.\ncall_tool{tool: dist_to_target, args: ["Bowl"]}\ncall_tool{tool: robot_holding, args: []}',
    });
    expect(out[3]).toEqual({
      role: 'user',
      content: 'Result of dist_to_target (a):\n0.4 m\n\nResult of robot_holding (b):\nnothing\n\nWarning 4: awaiting a final response.',
    });
  });

  it('adds a system message when there is none, with JSON schemas for json/hermes', () => {
    const out = textHistory([{ role: 'user', content: 'hi' }], tools, 'hermes', 'required');
    expect(out[0]?.role).toBe('system');
    expect(out[0]?.content).toContain('"properties":{"target":{"type":"string"}}');
    expect(out[0]?.content).toContain('<tool_call>');
    expect(out[0]?.content).toContain('You must call at least one tool now.');
  });
});

describe('withTextToolCalls', () => {
  it('sends no tools, prompts for the format, and returns parsed calls with ids', async () => {
    const inner = fromFunction(() => ({ content: 'I will check.\n' + raiderCall('dist_to_target', ['Bowl']) }));
    const m = withTextToolCalls(inner, { format: 'raider' });
    const r = await m.complete({ messages: [{ role: 'user', content: 'Is the bowl reachable?' }], tools, toolChoice: 'required' });
    expect(inner.requests[0]?.tools).toBeUndefined();
    expect(inner.requests[0]?.toolChoice).toBeUndefined();
    expect(inner.requests[0]?.messages[0]?.content).toContain('call_tool{tool: tool_name');
    expect(r.toolCallSource).toBe('text');
    expect(r.finishReason).toBe('tool_calls');
    expect(r.toolCalls).toEqual([
      { id: 'call_text_1_1', type: 'function', function: { name: 'dist_to_target', arguments: '{"target":"Bowl"}' } },
    ]);
    expect(r.message).toEqual({ role: 'assistant', content: 'I will check.', tool_calls: r.toolCalls });
    const r2 = await m.complete({ messages: [{ role: 'user', content: 'again' }], tools });
    expect(r2.toolCalls[0]?.id).toBe('call_text_2_1');
  });

  it('passes a final answer through, and streams text while holding back calls', async () => {
    const inner = fromFunction((_req, turn) =>
      turn === 0
        ? { content: 'Let me see.\n- call_tool{tool: robot_holding, args: []}' }
        : { content: '{"final_response": "none", "explanation": "ok"}' },
    );
    const m = withTextToolCalls(inner, { format: 'raider' });
    const seen: string[] = [];
    const r1 = await m.complete({ messages: [{ role: 'user', content: 'x' }], tools, onText: (d) => seen.push(d) });
    expect(seen.join('')).toBe('Let me see.');
    expect(r1.toolCalls).toHaveLength(1);
    seen.length = 0;
    const r2 = await m.complete({ messages: [{ role: 'user', content: 'x' }], tools, onText: (d) => seen.push(d) });
    expect(r2.toolCalls).toEqual([]);
    expect(r2.message.content).toBe('{"final_response": "none", "explanation": "ok"}');
    expect(seen.join('')).toBe('{"final_response": "none", "explanation": "ok"}');
  });

  describe('against the local server (real openai client)', () => {
    let server: OpenAIServer | undefined;
    afterEach(async () => {
      await server?.close();
      server = undefined;
    });

    it('streams, parses RAIDER calls from the content and never sends tools', async () => {
      server = await startOpenAIServer([
        {
          content: `Grounding done.\n${raiderCall('check_obj_relationship', ['blocking', 'Book'])}\n${raiderCall('dist_to_target', ['Book'])}`,
          textChunkSize: 5,
        },
      ]);
      const base = createOpenAICompatibleModel({ id: 'llamacpp:x', baseURL: server.url, model: 'test-model' });
      const deltas: string[] = [];
      const r = await withTextToolCalls(base, { format: 'raider' }).complete({
        messages: [{ role: 'user', content: 'pick the book' }],
        tools,
        toolChoice: 'auto',
        onText: (d) => deltas.push(d),
      });
      const body = server.chatRequests()[0]?.body as Record<string, unknown>;
      expect(body['tools']).toBeUndefined();
      expect(body['tool_choice']).toBeUndefined();
      expect(r.toolCalls.map((c) => c.function.name)).toEqual(['check_obj_relationship', 'dist_to_target']);
      expect(r.message.content).toBe('Grounding done.');
      expect(deltas.join('')).toBe('Grounding done.');
      expect(deltas.length).toBeGreaterThan(1);
    });

    it('reads JSON-format calls from a model that writes them fenced', async () => {
      server = await startOpenAIServer([{ content: '```json\n{"name": "robot_holding", "arguments": {}}\n```' }]);
      const base = createOpenAICompatibleModel({ id: 'x', baseURL: server.url, model: 'test-model', stream: false });
      const r = await withTextToolCalls(base, { format: 'json' }).complete({ messages: [{ role: 'user', content: 'x' }], tools });
      expect(r.toolCalls.map((c) => c.function.name)).toEqual(['robot_holding']);
      expect(r.message.content).toBeNull();
    });
  });
});
