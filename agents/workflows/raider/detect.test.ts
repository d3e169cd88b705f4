// RAIDER's issue detection on the kitchen with scripted models: each verdict,
// each prompt ablation, the program flow manager's behaviour (every call of a
// reply runs, fuzzy tool names, a reply without a verdict gets another turn),
// asserted on the tool results the physics-backed perception gave and on the trace.
import { afterEach, describe, expect, it } from 'vitest';
import { answer, FakeModel, type FakeTurn } from '../../../test/support/fake-model';
import { openSim, type OpenedSim } from '../../../robot/sim/open';
import { Conversation } from '../../runtime/conversation';
import { MemorySink, type TraceRecord } from '../../runtime/trace';
import { createWorkflow } from '../index';
import { VARIANTS } from './prompts';
import { parseVerdict } from './verdict';

let opened: OpenedSim | undefined;
afterEach(() => {
  opened?.control.dispose();
  opened = undefined;
});

const calls = (...c: Array<[string, Record<string, unknown>?]>): FakeTurn => ({
  content: 'Step 1: ground the objects. Step 2: questions about the preconditions. Step 3: tool calls.',
  toolCalls: c.map(([name, args]) => ({ name, arguments: args ?? {} })),
});
const verdict = (v: Record<string, unknown>) => answer(`Step 4: decision.\n${JSON.stringify(v)}`);
const results = (sink: MemorySink) =>
  sink.records.filter((r): r is Extract<TraceRecord, { type: 'tool_result' }> => r.type === 'tool_result');

async function run(id: string, query: string, turns: FakeTurn[]) {
  opened = await openSim('kitchen');
  const model = new FakeModel(turns);
  const sink = new MemorySink();
  const workflow = await createWorkflow(id, opened.robot);
  const c = new Conversation({ model, workflow, robot: opened.robot, traceSinks: () => [sink] });
  const r = await c.send(query);
  return { r, model, sink, workflow };
}

describe('raider/qgen-grnd verdicts', () => {
  it('ambiguity: two mugs match; every call of the reply runs on the kitchen’s perception', async () => {
    const { r, model, sink } = await run('raider/qgen-grnd', 'Pick the mug.', [
      calls(['object_detection'], ['get_obj_state', { obj: 'mug_1' }], ['get_obj_state', { obj: 'mug_2' }]),
      verdict({
        final_response: 'ambiguity',
        explanation: 'Two mugs are in sight: mug_1 and mug_2.',
        category: 'IA',
        objects: ['mug_1', 'mug_2'],
      }),
    ]);
    expect(r.reason).toBe('final');
    expect(parseVerdict(r.final!)).toMatchObject({
      ok: true,
      verdict: { final_response: 'ambiguity', category: 'IA', objects: ['mug_1', 'mug_2'] },
    });
    expect(results(sink).map((x) => [x.stage, x.name, x.ok])).toEqual([
      ['detect', 'object_detection', true],
      ['detect', 'get_obj_state', true],
      ['detect', 'get_obj_state', true],
    ]);
    expect(results(sink)[0]!.result).toMatch(/mug_1 \(white mug\).*mug_2 \(blue mug\)/);
    expect(results(sink)[1]!.result).toBe('mug_1 (white mug) is dirty, empty.');
    // All three results were in the conversation the model read next.
    expect(model.requests[1]!.messages.filter((m) => m.role === 'tool')).toHaveLength(3);
    expect(sink.records.find((x) => x.type === 'note')).toMatchObject({
      stage: 'detect',
      text: expect.stringMatching(/^verdict: ambiguity \(IA\)/),
    });
  });

  it('unfeasibility: the bread on the cutting board blocks picking the board', async () => {
    const { r, sink } = await run('raider/qgen-grnd', 'Pick up the cutting board.', [
      calls(['check_obj_relationship', { relationship: 'on top of', obj: 'cutting board' }], ['robot_holding']),
      verdict({
        final_response: 'unfeasibility',
        explanation: 'bread_1 is on top of the cutting board.',
        category: 'IU2',
        objects: ['cutting_board_1'],
      }),
    ]);
    expect(results(sink)[0]!.result).toMatch(/^Objects on top of cutting_board_1 \(cutting board\): bread_1/);
    expect(results(sink)[1]!.result).toBe('The robot is not holding anything.');
    expect(JSON.parse(r.final!)).toMatchObject({ final_response: 'unfeasibility', category: 'IU2' });
  });

  it('none: the blue mug is free and within reach; a misspelt tool name still runs (fuzzy matching)', async () => {
    const { r, sink, model } = await run('raider/qgen-grnd', 'pick(blue mug)', [
      calls(
        ['dist_to_target', { target: 'blue mug' }],
        ['Robot_Holding'],
        ['check_obj_relationship', { relationship: 'on top of', obj: 'mug_2' }],
      ),
      verdict({ final_response: 'none', explanation: 'The blue mug is free and within reach.', category: 'IN', objects: ['mug_2'] }),
    ]);
    expect(JSON.parse(r.final!)).toEqual({
      final_response: 'none',
      explanation: 'The blue mug is free and within reach.',
      category: 'IN',
      objects: ['mug_2'],
    });
    expect(results(sink)[0]!.result).toMatch(/^mug_2 \(blue mug\) is 0\.\d\d m from the robot\.$/);
    const tools = model.requests[1]!.messages.filter((m) => m.role === 'tool').map((m) => m.content);
    expect(tools[1]).toBe('(There is no tool named "Robot_Holding"; ran robot_holding.) The robot is not holding anything.');
  });

  it('a reply without a readable verdict gets one more turn to write it; a verdict beside tool calls is Warning 1', async () => {
    const { r, model, sink } = await run('raider/qgen-grnd', 'Pick the knife.', [
      { content: '{"final_response": "none", "explanation": "guess"}', toolCalls: [{ name: 'robot_holding' }] },
      answer('The knife can be picked.'),
      verdict({ final_response: 'none', explanation: 'The knife is free and the hand is empty.' }),
    ]);
    expect(JSON.parse(r.final!)).toMatchObject({ explanation: 'The knife is free and the hand is empty.' });
    expect(sink.records.filter((x) => x.type === 'warning').map((x) => (x.type === 'warning' ? x.code : ''))).toEqual([
      'made_up_tool_response',
    ]);
    expect(model.requests[2]!.messages.at(-1)).toMatchObject({ role: 'user', content: expect.stringContaining('must end with the JSON') });
  });
});

describe('prompt ablations (§4.2.2)', () => {
  it.each(VARIANTS)('raider/%s runs its procedure variant with the same tools and answers the verdict', async (variant) => {
    const { r, model, workflow } = await run(`raider/${variant}`, 'Open the fridge.', [
      calls(['get_obj_state', { obj: 'fridge' }]),
      verdict({ final_response: 'none', explanation: 'The fridge is closed and the hand is empty.' }),
    ]);
    expect(JSON.parse(r.final!)).toMatchObject({ final_response: 'none' });
    const system = String(model.requests[0]!.messages[0]!.content);
    expect(system).toBe(workflow.systemPrompt(opened!.robot));
    expect(system.includes('GROUND - instance grounding')).toBe(variant === 'qgen-grnd' || variant === 'grnd');
    expect(system.includes('ASK - question generation')).toBe(variant === 'qgen-grnd' || variant === 'qgen');
    expect(system.includes('Think about what you need to know')).toBe(variant === 'basic');
    // Every variant keeps the objective, the tools, the robot's own constraints and the final format.
    expect(system).toContain('- check_obj_relationship(relationship, obj):');
    expect(system).toMatch(/single arm with a 1\.\d\d m reach/);
    expect(system).toContain('"final_response": "ambiguity" | "unfeasibility" | "none"');
    expect(model.requests[0]!.tools).toEqual(expect.arrayContaining(['robot_holding', 'object_detection', 'retrieve_user_information']));
  });
});
