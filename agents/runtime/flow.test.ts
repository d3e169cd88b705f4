import { describe, expect, it } from 'vitest';
import { answer, call, FakeModel } from '../../test/support/fake-model';
import { broken, expectValidHistory, look, noRobot, wave } from '../../test/support/runtime-tools';
import type { ChatMessage } from '../models/model';
import { ModelError } from '../models/model';
import { openSimRobot } from '../../robot/sim/open';
import { findToolSet } from '../tools/sets';
import type { Tool } from '../tools/tool';
import { DEFAULT_LIMITS, type FlowEvent, type FlowOptions, looksLikeFinalAnswer, mergeLimits, runFlow, suggestTools } from './flow';
import { MemorySink, Trace } from './trace';

const start = (text = 'What do you see?'): ChatMessage[] => [
  { role: 'system', content: 'You control a robot.' },
  { role: 'user', content: text },
];

function setup(model: FakeModel, tools: readonly Tool[] = [look, wave, broken], extra: Partial<FlowOptions> = {}) {
  const sink = new MemorySink();
  const trace = new Trace({ sinks: [sink] });
  const run = runFlow({ model, messages: start(), tools: () => tools, robot: noRobot, trace, ...extra });
  return { sink, run };
}

const usage = { promptTokens: 10, completionTokens: 5, totalTokens: 15 };

describe('runFlow', () => {
  it('runs a tool call, feeds its result back, and ends on a plain text answer', async () => {
    const model = new FakeModel([call('look', {}, { usage }), answer('A lemon and a bowl.', { usage })]);
    const events: FlowEvent[] = [];
    const { sink, run } = setup(model, [look], { onEvent: (e) => events.push(e) });
    const r = await run;
    expect(r).toMatchObject({ reason: 'final', final: 'A lemon and a bowl.', iterations: 2, toolCalls: 1, toolCallsRun: 1, warnings: [] });
    expect(r.usage).toEqual({ promptTokens: 20, completionTokens: 10, totalTokens: 30 });
    expect(r.messages.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'tool', 'assistant']);
    expect(r.messages[3]).toMatchObject({ role: 'tool', content: 'I see a lemon and a bowl.' });
    expect(model.requests[0]!.tools).toEqual(['look']);
    expect(model.requests[1]!.messages.at(-1)).toMatchObject({ role: 'tool', content: 'I see a lemon and a bowl.' });
    expect(sink.records.map((x) => x.type)).toEqual([
      'message',
      'message',
      'message',
      'tool_call',
      'tool_result',
      'message',
      'final',
      'end',
    ]);
    expect(events.map((e) => e.type)).toEqual([
      'history',
      'iteration',
      'assistant',
      'tool_start',
      'tool_end',
      'iteration',
      'text',
      'assistant',
      'final',
      'end',
    ]);
    expectValidHistory(r.messages);
  });

  it("records the model's reasoning in the trace and the events, but keeps it out of the history", async () => {
    const model = new FakeModel([
      { reasoning: 'I should look first.', toolCalls: [{ name: 'look' }] },
      { reasoning: 'A lemon and a bowl: answer.', content: 'A lemon and a bowl.' },
    ]);
    const events: FlowEvent[] = [];
    const { sink, run } = setup(model, [look], { onEvent: (e) => events.push(e) });
    const r = await run;
    expect(r.final).toBe('A lemon and a bowl.');
    const assistants = sink.records.filter((x) => x.type === 'message' && x.role === 'assistant');
    expect(assistants.map((x) => (x.type === 'message' ? x.reasoning : undefined))).toEqual([
      'I should look first.',
      'A lemon and a bowl: answer.',
    ]);
    expect(events.filter((e) => e.type === 'reasoning').map((e) => (e.type === 'reasoning' ? e.delta : ''))).toEqual([
      'I should look first.',
      'A lemon and a bowl: answer.',
    ]);
    expect(JSON.stringify(model.requests[1]!.messages)).not.toContain('look first');
    expect(JSON.stringify(r.messages)).not.toContain('look first');
  });

  it('Warning 1: a final answer sent with tool calls is discarded, the calls still run, and the model is told', async () => {
    const model = new FakeModel([
      { content: 'Final answer: there is a lemon.', toolCalls: [{ name: 'look' }] },
      answer('There is a lemon and a bowl.'),
    ]);
    const { sink, run } = setup(model);
    const r = await run;
    expect(r.final).toBe('There is a lemon and a bowl.');
    expect(r.toolCallsRun).toBe(1);
    expect(r.warnings.map((w) => w.code)).toEqual(['made_up_tool_response']);
    // Order: assistant(calls) -> tool result -> the warning as a user message.
    const seen = model.requests[1]!.messages.slice(2);
    expect(seen.map((m) => m.role)).toEqual(['assistant', 'tool', 'user']);
    expect(seen[2]!.content).toMatch(/^Warning \(made_up_tool_response\): .*discarded/);
    expect(sink.records.find((x) => x.type === 'warning')).toMatchObject({ code: 'made_up_tool_response', via: 'user', iteration: 0 });
    expectValidHistory(r.messages);
  });

  it('does not flag ordinary commentary beside tool calls as a made-up answer', async () => {
    const model = new FakeModel([{ content: "I'll look around first.", toolCalls: [{ name: 'look' }] }, answer('A lemon.')]);
    const r = await setup(model).run;
    expect(r.warnings).toEqual([]);
    expect(looksLikeFinalAnswer('{"final_response": "feasible"}')).toBe(true);
  });

  it('Warning 2: a made-up tool name is answered with the available tools and a did-you-mean', async () => {
    const model = new FakeModel([call('look_around'), call('look'), answer('A lemon.')]);
    const { sink, run } = setup(model);
    const r = await run;
    expect(r.reason).toBe('final');
    const reply = model.requests[1]!.messages.at(-1)!;
    expect(reply.role).toBe('tool');
    expect(reply.content).toContain('Warning (made_up_tool_name): there is no tool named "look_around". Did you mean "look"?');
    expect(reply.content).toContain('Available tools: look, wave, read_sensor.');
    const w = sink.records.find((x) => x.type === 'warning');
    expect(w).toMatchObject({ code: 'made_up_tool_name', via: 'tool', toolCallId: 'fake_1' });
    expect(sink.records.find((x) => x.type === 'tool_result')).toMatchObject({ status: 'unknown_tool', ok: false });
    expect(suggestTools('pick_up', ['pick', 'place', 'get_objects'])).toEqual(['pick']);
  });

  it('Warning 3: invalid arguments and a tool that throws come back as unsuccessful_tool_call with the reason', async () => {
    const model = new FakeModel([call('wave', { hand: 'middle' }), call('read_sensor'), call('wave', { hand: 'left' }), answer('Waved.')]);
    const { sink, run } = setup(model);
    const r = await run;
    expect(r.reason).toBe('final');
    const invalid = model.requests[1]!.messages.at(-1)!.content!;
    expect(invalid).toMatch(/^Warning \(unsuccessful_tool_call\): Invalid arguments for wave:/);
    expect(invalid).toContain('- hand:');
    const threw = model.requests[2]!.messages.at(-1)!.content!;
    expect(threw).toContain('Warning (unsuccessful_tool_call): read_sensor raised an error: sensor offline.');
    expect(sink.records.filter((x) => x.type === 'warning').map((x) => x.type === 'warning' && x.code)).toEqual([
      'unsuccessful_tool_call',
      'unsuccessful_tool_call',
    ]);
    expect(sink.records.filter((x) => x.type === 'tool_result').map((x) => x.type === 'tool_result' && x.status)).toEqual([
      'invalid_arguments',
      'exception',
      'ok',
    ]);
    expect(r.toolCallsRun).toBe(2);
  });

  it('Warning 4: a reply with neither tool calls nor text gets a warning and another turn', async () => {
    const model = new FakeModel([{ content: '  ' }, answer('A lemon.')]);
    const { sink, run } = setup(model);
    const r = await run;
    expect(r.reason).toBe('final');
    expect(model.requests[1]!.messages.slice(2)).toEqual([
      { role: 'assistant', content: '' },
      { role: 'user', content: expect.stringMatching(/^Warning \(missing_tool_call_or_final_response\)/) },
    ]);
    expect(sink.records.find((x) => x.type === 'warning')).toMatchObject({ code: 'missing_tool_call_or_final_response', via: 'user' });
  });

  it('ends at the time limit, aborting the slow model request, with a stop record', async () => {
    const model = new FakeModel(() => ({ ...call('look'), delayMs: 80 }));
    const t0 = performance.now();
    const { sink, run } = setup(model, [look], { limits: { timeLimitMs: 150, maxIterations: 50 } });
    const r = await run;
    expect(r.reason).toBe('time_limit');
    expect(r.stopped).toMatchObject({ kind: 'time_limit' });
    expect(performance.now() - t0).toBeLessThan(1000);
    expect(r.iterations).toBeGreaterThanOrEqual(1);
    expect(sink.records.find((x) => x.type === 'stop')).toMatchObject({ reason: 'time_limit', message: expect.stringContaining('0.15 s') });
    expect(sink.records.at(-1)).toMatchObject({ type: 'end', reason: 'time_limit' });
    expectValidHistory(r.messages);
  });

  it('uses the paper’s 20 s time limit by default, and null turns it off', async () => {
    const r = await setup(new FakeModel([answer('hi')])).run;
    expect(r.reason).toBe('final');
    const slow = await setup(new FakeModel([answer('late', { delayMs: 30 })]), [look], { limits: { timeLimitMs: null } }).run;
    expect(slow.reason).toBe('final');
    // A workflow leaving a limit undefined keeps the default rather than switching it off.
    expect(mergeLimits({ timeLimitMs: undefined }, { maxIterations: 3 })).toEqual({ ...DEFAULT_LIMITS, maxIterations: 3 });
    expect(DEFAULT_LIMITS).toMatchObject({ timeLimitMs: 20_000, maxToolCallsPerIteration: 1 });
  });

  it('ends after maxIterations model turns without a final answer', async () => {
    const model = new FakeModel(() => call('look'));
    const { sink, run } = setup(model, [look], { limits: { maxIterations: 3 } });
    const r = await run;
    expect(r).toMatchObject({ reason: 'max_iterations', iterations: 3, toolCalls: 3, final: undefined });
    expect(r.messages.filter((m) => m.role === 'tool')).toHaveLength(3);
    expect(sink.records.at(-1)).toMatchObject({ type: 'end', reason: 'max_iterations', iterations: 3 });
  });

  it('runs one call per iteration by default (MAYA) and answers the extra call as skipped', async () => {
    const two = { toolCalls: [{ name: 'look' }, { name: 'wave', arguments: { hand: 'left' } }] };
    const model = new FakeModel([two, answer('done')]);
    const { sink, run } = setup(model);
    const r = await run;
    expect(r).toMatchObject({ toolCalls: 2, toolCallsRun: 1 });
    const [first, second] = r.messages.filter((m) => m.role === 'tool');
    expect(first!.content).toBe('I see a lemon and a bowl.');
    expect(second!.content).toMatch(/^Not run: only 1 tool call per turn is allowed here, and this was call 2\..*call wave again/);
    expect(sink.records.filter((x) => x.type === 'tool_result').map((x) => x.type === 'tool_result' && x.status)).toEqual([
      'ok',
      'skipped',
    ]);
    expectValidHistory(r.messages);
  });

  it('runs several calls per iteration up to the limit (TORO)', async () => {
    const two = { toolCalls: [{ name: 'look' }, { name: 'wave', arguments: { hand: 'left' } }] };
    const r = await setup(new FakeModel([two, answer('done')]), [look, wave], { limits: { maxToolCallsPerIteration: 3 } }).run;
    expect(r).toMatchObject({ toolCalls: 2, toolCallsRun: 2 });
    expect(r.messages.filter((m) => m.role === 'tool').map((m) => m.content)).toEqual(['I see a lemon and a bowl.', 'waved the left hand']);
  });

  it('offers the tools the tools function gives for each iteration (a hierarchy)', async () => {
    const model = new FakeModel([call('wave', { hand: 'right' }), call('wave', { hand: 'right' }), answer('Waved.')]);
    const seen: number[] = [];
    const r = await runFlow({
      model,
      messages: start('Wave!'),
      robot: noRobot,
      tools: (iteration, view) => {
        seen.push(view.messages.length);
        return iteration === 0 ? [look] : [look, wave];
      },
    });
    expect(model.requests.map((q) => q.tools)).toEqual([['look'], ['look', 'wave'], ['look', 'wave']]);
    // Not offered at iteration 0, so calling it then is a made-up name.
    expect(r.warnings.map((w) => [w.code, w.iteration])).toEqual([['made_up_tool_name', 0]]);
    expect(r.messages.filter((m) => m.role === 'tool').at(-1)!.content).toBe('waved the right hand');
    expect(seen).toEqual([2, 4, 6]);
  });

  it('runs a classify step first and lets the tools function branch on its route', async () => {
    const model = new FakeModel([call('wave', { hand: 'left' }), answer('Waved.')]);
    const sink = new MemorySink();
    const r = await runFlow({
      model,
      messages: start('Wave!'),
      robot: noRobot,
      trace: new Trace({ sinks: [sink] }),
      classify: async () => ({ route: 'action', usage }),
      tools: (_i, view) => (view.route === 'action' ? [wave] : [look]),
    });
    expect(model.requests[0]!.tools).toEqual(['wave']);
    expect(r.usage.totalTokens).toBe(15);
    expect(sink.records.find((x) => x.type === 'route')).toMatchObject({ route: 'action' });
  });

  it('reports an unreachable model as model_error with the reason, in the result and the trace', async () => {
    const model = new FakeModel([
      { error: new ModelError('cannot reach http://127.0.0.1:9/v1', 'unreachable', undefined, { fix: 'Start the server.' }) },
    ]);
    const { sink, run } = setup(model);
    const r = await run;
    expect(r).toMatchObject({
      reason: 'model_error',
      iterations: 1,
      error: { kind: 'unreachable', message: 'cannot reach http://127.0.0.1:9/v1 Start the server.' },
    });
    expect(sink.records.find((x) => x.type === 'error')).toMatchObject({ kind: 'unreachable', where: 'model' });
  });

  it('keeps running when a UI listener throws, and notes it in the trace', async () => {
    const model = new FakeModel([answer('ok')]);
    const { sink, run } = setup(model, [look], {
      onEvent: () => {
        throw new Error('render failed');
      },
    });
    expect((await run).reason).toBe('final');
    expect(sink.records.some((x) => x.type === 'error' && x.message.includes('render failed'))).toBe(true);
  });

  it('gives missing or repeated tool-call ids unique ones so every call can be answered', async () => {
    const model = new FakeModel([
      {
        toolCalls: [
          { id: 'x', name: 'look' },
          { id: 'x', name: 'look' },
        ],
      },
      answer('ok'),
    ]);
    const r = await setup(model, [look], { limits: { maxToolCallsPerIteration: 2 } }).run;
    const ids = r.messages.filter((m) => m.role === 'tool').map((m) => (m.role === 'tool' ? m.tool_call_id : ''));
    expect(ids).toEqual(['x', 'call_0_1']);
    expectValidHistory(r.messages);
  });
});

describe('runFlow with real tools on a simulated robot', () => {
  it('looks, picks the lemon for real, and answers (ALRM tools, tabletop/fruits)', async () => {
    const robot = await openSimRobot('tabletop/fruits');
    const tools = findToolSet('alrm')!.build(robot);
    const model = new FakeModel([call('get_objects'), call('pick', { object_name: 'lemon' }), answer('I picked up the lemon.')]);
    const r = await runFlow({ model, messages: start('Pick up the lemon.'), tools: () => tools, robot });
    expect(r.reason).toBe('final');
    const results = r.messages.filter((m) => m.role === 'tool').map((m) => m.content);
    expect(results[0]).toContain('lemon_1');
    expect(results[1]).toMatch(/^Success: /);
    expect(await robot.perception.holding()).toBe('lemon_1');
  });

  it('sends a real tool’s validation message back as Warning 3, and the model recovers', async () => {
    const robot = await openSimRobot('tabletop/fruits');
    const tools = findToolSet('alrm')!.build(robot);
    const model = new FakeModel([call('pick', { object: 'lemon' }), call('pick', { object_name: 'plum' }), answer('Holding the plum.')]);
    const r = await runFlow({ model, messages: start('Pick up the plum.'), tools: () => tools, robot });
    expect(r.warnings.map((w) => w.code)).toEqual(['unsuccessful_tool_call']);
    expect(r.warnings[0]!.message).toContain('- object_name: missing');
    expect(r.warnings[0]!.message).toContain('unknown argument(s) "object"');
    expect(await robot.perception.holding()).toBe('plum_1');
  });
});
