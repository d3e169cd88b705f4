// Adversarial model text: the text-tool-call parser must stay linear and capped.
// These inputs took seconds to minutes with the old parser (16 k `[` ~ 3-10 s,
// 60 k past two minutes); the suite's timeout is what fails them, never a timed
// assertion. `skillbridge bench agent` prints the parse times.
import { describe, expect, it } from 'vitest';
import { HeldBackText } from './held-back-text';
import type { ModelTool } from './model';
import { createScriptedModel, fromFunction } from './scripted';
import { MAX_TEXT_TOOL_CALL_INPUT, parseTextToolCalls, withTextToolCalls } from './text-tool-calls';
import { Brackets } from './text-scan';

const tools: ModelTool[] = [
  {
    type: 'function',
    function: {
      name: 'pick',
      description: 'Picks an object.',
      parameters: { type: 'object', properties: { object_name: { type: 'string' } }, required: ['object_name'] },
    },
  },
];
const CALL = '{"name": "pick", "arguments": {"object_name": "lemon"}}';

/** Inputs that made the old parser scan to the end from every bracket, or re-parse every nesting level. */
export const ADVERSARIAL: Record<string, (n: number) => string> = {
  'unclosed [': (n) => '['.repeat(n),
  'unclosed {': (n) => '{'.repeat(n),
  'nested invalid objects': (n) => '{"a":'.repeat(Math.floor(n / 5)),
  'quote and bracket': (n) => '["'.repeat(Math.floor(n / 2)),
  'call_tool{': (n) => 'call_tool{'.repeat(Math.floor(n / 10)),
  '<tool_call>': (n) => '<tool_call>['.repeat(Math.floor(n / 12)),
  'blank line after a call': (n) => `call_tool{tool: pick, args: [lemon]}${' '.repeat(n)}x`,
};

describe('the text-tool-call parser on adversarial input', () => {
  for (const [name, make] of Object.entries(ADVERSARIAL)) {
    it(`${name}: 60 k characters parse, and a real call before them is still found`, () => {
      const r = parseTextToolCalls(`${CALL}\n${make(60_000)}`, { tools });
      expect(r.calls.length).toBeGreaterThan(0);
      expect(r.calls.map((c) => [c.name, JSON.parse(c.arguments) as unknown])[0]).toEqual(['pick', { object_name: 'lemon' }]);
    });
  }

  it('reads calls in the first MAX_TEXT_TOOL_CALL_INPUT characters only, and keeps all the text', () => {
    const filler = 'x'.repeat(MAX_TEXT_TOOL_CALL_INPUT);
    const r = parseTextToolCalls(`${CALL}\n${filler}\n${CALL}`, { tools });
    expect(r.calls).toHaveLength(1);
    expect(r.text.endsWith(CALL)).toBe(true);
    expect(r.text.length).toBe(filler.length + 1 + CALL.length);
  });

  it('matches brackets as before: quotes skipped, an apostrophe inside a word is not a quote', () => {
    const s = `[a, {"b": "]"}, robot's (c)]`;
    const b = new Brackets(s);
    expect(b.closeOf(0)).toBe(s.length - 1);
    expect(b.closeOf(4)).toBe(s.indexOf('}'));
    expect(new Brackets('[ ( ]').closeOf(0)).toBe(-1);
    expect(new Brackets('{"a": "unterminated}').closeOf(0)).toBe(-1);
  });

  it('Hermes blocks missing their close tags end at the next block: each call once', () => {
    const r = parseTextToolCalls(`<tool_call>${CALL}<tool_call>{"name": "pick", "arguments": {"object_name": "peach"}}`, { tools });
    expect(r.calls.map((c) => JSON.parse(c.arguments) as unknown)).toEqual([{ object_name: 'lemon' }, { object_name: 'peach' }]);
  });

  it('an unclosed call_tool is read to the end only when it is the last one', () => {
    expect(parseTextToolCalls('call_tool{tool: pick, args: ["lemon"]', { tools }).calls).toHaveLength(1);
    const r = parseTextToolCalls('call_tool{tool: pick, args: ["lemon"]\ncall_tool{tool: pick, args: ["peach"]}', { tools });
    expect(r.calls.map((c) => JSON.parse(c.arguments) as unknown)).toEqual([{ object_name: 'peach' }]);
  });

  it('deeply nested lists and objects are no call, and do not overflow the stack', () => {
    const deep = `${'['.repeat(50_000)}${']'.repeat(50_000)} <tool_call>${'['.repeat(50_000)}${']'.repeat(50_000)}</tool_call>`;
    expect(parseTextToolCalls(deep, { tools }).calls).toEqual([]);
  });
});

describe('streaming text past held-back calls', () => {
  it('a million one-character deltas come out as the same text', () => {
    const seen: string[] = [];
    const h = new HeldBackText((d) => seen.push(d));
    const text = `${'word '.repeat(200_000)}done`;
    for (const ch of text) h.push(ch);
    h.end(text);
    expect(seen.join('')).toBe(text);
  });

  it('a letterless line is held back until it ends, then the call is cut out', () => {
    const seen: string[] = [];
    const h = new HeldBackText((d) => seen.push(d));
    const text = `Looking.\n- ${'['.repeat(50_000)}`;
    for (const ch of text) h.push(ch);
    expect(seen.join('')).toBe('Looking.');
    h.end('Looking.');
    expect(seen.join('')).toBe('Looking.');
  });
});

describe('text tool calls and Stop', () => {
  it('a Stop that came while the reply was parsed wins over the parsed calls', async () => {
    const ctl = new AbortController();
    const inner = fromFunction(() => {
      ctl.abort();
      return { content: `call_tool{tool: pick, args: ["lemon"]}` };
    });
    const m = withTextToolCalls(inner, { format: 'raider' });
    await expect(m.complete({ messages: [{ role: 'user', content: 'x' }], tools, signal: ctl.signal })).rejects.toMatchObject({
      kind: 'aborted',
    });
  });
});

describe('scripted models', () => {
  it('read calls a turn wrote as text, as a local server adapter does (only tools offered)', async () => {
    const m = createScriptedModel([{ content: 'I will pick it.\ncall_tool{tool: pick, args: ["lemon"]}' }, { content: CALL }]);
    const r = await m.complete({ messages: [{ role: 'user', content: 'x' }], tools });
    expect(r.toolCallSource).toBe('text');
    expect(r.toolCalls.map((c) => [c.function.name, c.function.arguments])).toEqual([['pick', '{"object_name":"lemon"}']]);
    expect(r.message.content).toBe('I will pick it.');
    // No tools offered: the text is the answer.
    const r2 = await m.complete({ messages: [{ role: 'user', content: 'x' }] });
    expect(r2.toolCalls).toEqual([]);
    expect(r2.message.content).toBe(CALL);
  });
});
