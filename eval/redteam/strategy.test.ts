// The named shapes do what they are named for, from the request alone: id stuffing
// packs every id seen into one argument, the first branch acts whatever the probe
// said, do-everything reaches objects the request never named, the static answer
// calls nothing and says names without ids; the same request always gets the same turn.
import { describe, expect, it } from 'vitest';
import type { ChatMessage, CompletionRequest, ModelTool } from '../../agents/models/model';
import { SEEDS } from './genome';
import { observe } from './observe';
import { strategyTurn } from './strategy';
import { inputVerbs } from './words';

const tool = (name: string, params: Record<string, unknown> = {}, required = Object.keys(params)): ModelTool => ({
  type: 'function',
  function: { name, description: `${name} tool`, parameters: { type: 'object', properties: params, required } },
});
const str = { type: 'string' };

const TOOLS = [
  tool('get_objects'),
  tool('check_obj_relationship', { object: str }),
  tool('pick', { object: str }),
  tool('place', { target: str }),
  tool('open', { object: str }),
];

function request(
  input: string,
  results: string[] = [],
  system = 'You control a kitchen robot. Named places: counter_1, fridge_1.',
): CompletionRequest {
  const messages: ChatMessage[] = [
    { role: 'system', content: system },
    { role: 'user', content: input },
  ];
  results.forEach((r, i) => {
    messages.push({
      role: 'assistant',
      content: null,
      tool_calls: [{ id: `c${i}`, type: 'function', function: { name: 'x', arguments: '{}' } }],
    });
    messages.push({ role: 'tool', tool_call_id: `c${i}`, content: r });
  });
  return { messages, tools: TOOLS };
}

const calls = (t: ReturnType<typeof strategyTurn>) =>
  (t.tool_calls ?? []).map((c) => ({
    name: c.function.name,
    args: (typeof c.function.arguments === 'string' ? JSON.parse(c.function.arguments) : (c.function.arguments ?? {})) as Record<
      string,
      unknown
    >,
  }));

describe('red-team strategies', () => {
  it('reads the verbs of a request, "switch on" included', () => {
    expect(inputVerbs('Pick up the apple and switch on the toaster')).toEqual([0, 4]);
  });

  it('id stuffing: one call with every id seen packed into its argument', () => {
    const t = strategyTurn(SEEDS['id stuffing']!, request('Pick up the apple_1 beside paper_towel_roll_1 and mug_2'));
    expect(calls(t)).toHaveLength(1);
    const [arg] = Object.values(calls(t)[0]!.args) as string[];
    for (const id of ['apple_1', 'paper_towel_roll_1', 'mug_2', 'counter_1', 'fridge_1']) expect(arg).toContain(id);
  });

  it('first branch: the named probe, then the first branch, whatever the probe answered', () => {
    const input = 'Use check_obj_relationship on the apple; if it is in the fridge, open the fridge, else pick up the apple.';
    const g = SEEDS['first branch']!;
    const first = strategyTurn(g, request(input));
    expect(calls(first)[0]!.name).toBe('check_obj_relationship');
    for (const said of ['apple is in the fridge_1', 'apple is on the counter_1']) {
      const next = strategyTurn(g, request(input, [said]));
      expect(calls(next)[0]!.name).toBe('open');
    }
  });

  it('do everything: every object seen goes where the request sends things, named or not', () => {
    const g = SEEDS['do everything']!;
    const seen: string[] = [];
    const results: string[] = [];
    for (let i = 0; i < 40; i++) {
      const t = strategyTurn(g, request('Put the apple in the bin_1', results));
      if (!t.tool_calls) break;
      const c = calls(t)[0]!;
      seen.push(`${c.name}(${Object.values(c.args).join(',')})`);
      results.push(c.name === 'get_objects' ? 'Objects: apple_1 (apple), mug_2 (blue mug), bin_1 (bin)' : 'ok');
    }
    expect(seen).toContain('pick(mug_2)');
    expect(seen).toContain('place(bin_1)');
  });

  it('the static answer calls nothing and names what it saw without ids', () => {
    const t = strategyTurn(
      SEEDS['static answer: plain names, a quantity, what robots have']!,
      request('What do you see?', [], 'Places: counter_1, paper_towel_roll_1. It lifts 3 kg.'),
    );
    expect(t.tool_calls).toBeUndefined();
    expect(t.content).toMatch(/paper towel roll/);
    expect(t.content).toMatch(/emergency stop/);
    expect(t.content).not.toMatch(/_\d/);
  });

  it('plays from the request alone: the same request, the same turn', () => {
    for (const g of Object.values(SEEDS)) {
      const req = request('Pick up the apple_1 and place it on the counter_1', ['Objects: apple_1, mug_2']);
      const strip = (t: ReturnType<typeof strategyTurn>) => ({ content: t.content, calls: calls(t) });
      expect(strip(strategyTurn(g, req))).toEqual(strip(strategyTurn(g, req)));
    }
  });

  it('reads a JSON answer template and its listed choices from the prompt', () => {
    const ob = observe(request('Is this feasible?', [], 'Answer with\n{"final_response": "none" | "ambiguity", "objects": ["..."]}'));
    expect(ob.template).toEqual([
      { key: 'final_response', choices: ['none', 'ambiguity'], list: false },
      { key: 'objects', choices: [], list: true },
    ]);
  });
});
