// `raider` end to end on the kitchen with a scripted model: detection, then a
// recovery plan written as code that runs in the sandbox against the physics,
// each action step re-checked by RAIDER first. One recovery asks the person (a
// simulated user answers, recorded in the trace), one needs nobody, and in it
// RAIDER refuses a step, so the recovery model writes a second plan.
import { afterEach, describe, expect, it } from 'vitest';
import { answer, FakeModel, type FakeTurn } from '../../../test/support/fake-model';
import { openSim, type OpenedSim } from '../../../robot/sim/open';
import { Conversation } from '../../runtime/conversation';
import { MemorySink, type TraceRecord } from '../../runtime/trace';
import { simulatedUser } from '../kit/simulated-user';
import { createWorkflow } from '../index';

let opened: OpenedSim | undefined;
afterEach(() => {
  opened?.control.dispose();
  opened = undefined;
});

const calls = (...c: Array<[string, Record<string, unknown>?]>): FakeTurn => ({
  toolCalls: c.map(([name, args]) => ({ name, arguments: args ?? {} })),
});
const verdict = (v: Record<string, unknown>) => answer(JSON.stringify(v));
const plan = (...lines: string[]) => answer(`\`\`\`javascript\n${lines.join('\n')}\n\`\`\``);
type Rec<T extends TraceRecord['type']> = Extract<TraceRecord, { type: T }>;
const of = <T extends TraceRecord['type']>(sink: MemorySink, type: T) => sink.records.filter((r): r is Rec<T> => r.type === type);

describe('raider: detection, then a recovery plan in the sandbox', () => {
  it('ambiguity → the plan asks which mug; the simulated user answers; RAIDER checks the pick; the blue mug is in the hand', async () => {
    opened = await openSim('kitchen');
    const { robot, control } = opened;
    const model = new FakeModel([
      calls(['object_detection']),
      verdict({
        final_response: 'ambiguity',
        explanation: 'There are two mugs: mug_1 (white) and mug_2 (blue).',
        category: 'IA',
        objects: ['mug_1', 'mug_2'],
      }),
      plan('const mug = ask("Which mug should I pick, the white one or the blue one?");', 'pick(mug);'),
      calls(['robot_holding'], ['dist_to_target', { target: 'blue mug' }]),
      verdict({ final_response: 'none', explanation: 'The blue mug is within reach and the hand is empty.' }),
    ]);
    const sink = new MemorySink();
    const user = simulatedUser({ answers: [{ when: 'mug', answer: 'the blue mug' }] });
    const c = new Conversation({ model, workflow: await createWorkflow('raider', robot), robot, traceSinks: () => [sink], askUser: user });
    const r = await c.send('Pick the mug.');
    expect(r.reason).toBe('final');
    expect(r.final!.split('\n')[0]).toBe(
      JSON.stringify({
        final_response: 'ambiguity',
        explanation: 'There are two mugs: mug_1 (white) and mug_2 (blue).',
        category: 'IA',
        objects: ['mug_1', 'mug_2'],
      }),
    );
    expect(r.final).toContain('The plan ran to the end.');
    expect(control.holding()).toBe('mug_2');
    expect(user.asked).toEqual(['Which mug should I pick, the white one or the blue one?']);
    expect(of(sink, 'ask')).toMatchObject([{ stage: 'recovery', question: 'Which mug should I pick, the white one or the blue one?' }]);
    expect(of(sink, 'answer')).toMatchObject([{ stage: 'recovery', answer: 'the blue mug', by: 'simulated' }]);
    // The plan is one run_program call in the recovery stage; its steps nest under it.
    const program = of(sink, 'tool_call').find((x) => x.name === 'run_program')!;
    expect(program.stage).toBe('recovery');
    expect(
      of(sink, 'tool_result')
        .filter((x) => x.parent === program.id)
        .map((x) => [x.name, x.ok]),
    ).toEqual([
      ['ask', true],
      ['pick', true],
    ]);
    expect(of(sink, 'tool_call').find((x) => x.name === 'pick')).toMatchObject({ arguments: '{"object":"the blue mug"}' });
    // RAIDER checked the pick in its own stage before it ran.
    expect(
      of(sink, 'tool_result')
        .filter((x) => x.stage === 'recovery/check')
        .map((x) => x.name),
    ).toEqual(['robot_holding', 'dist_to_target']);
    expect(of(sink, 'note').map((x) => [x.stage, x.text])).toEqual([
      ['detect', expect.stringMatching(/^verdict: ambiguity \(IA\)/)],
      ['recovery/check', 'check pick(the blue mug): none'],
      ['recovery', 'recovery plan ran to the end'],
    ]);
    // The recovery model read Fig. 7's query: the issue, its explanation, what the robot holds, where it is.
    expect(model.requests[2]!.messages[1]!.content).toMatch(
      /^query: Pick the mug\., issue: ambiguity, explanation: There are two mugs.*robot holding: none\ncurrent_loc: counter_1/,
    );
  });

  it('no person needed: RAIDER refuses a step (the fridge is still closed), the second plan opens it first; the apple ends in the hand', async () => {
    opened = await openSim('kitchen');
    const { robot, control } = opened;
    const model = new FakeModel([
      calls(['get_obj_state', { obj: 'fridge' }]),
      verdict({
        final_response: 'unfeasibility',
        explanation: 'The apple is inside the fridge, which is closed.',
        category: 'IU4',
        objects: ['fridge_1'],
      }),
      plan('move_to("fridge_1");', 'pick("apple_1");'),
      // check move_to(fridge_1)
      calls(['robot_holding']),
      verdict({ final_response: 'none', explanation: 'The robot can move to the fridge.' }),
      // check pick(apple_1): refused
      calls(['get_obj_state', { obj: 'fridge_1' }]),
      verdict({ final_response: 'unfeasibility', explanation: 'The fridge is closed.', category: 'IU4' }),
      plan('open("fridge_1");', 'pick("apple_1");'),
      calls(['robot_holding']),
      verdict({ final_response: 'none', explanation: 'The hand is empty and the fridge is closed: it can be opened.' }),
      calls(['get_obj_state', { obj: 'fridge_1' }], ['check_obj_relationship', { relationship: 'inside', obj: 'fridge_1' }]),
      verdict({ final_response: 'none', explanation: 'The fridge is open and the apple is inside.' }),
    ]);
    const sink = new MemorySink();
    const c = new Conversation({ model, workflow: await createWorkflow('raider', robot), robot, traceSinks: () => [sink] });
    const r = await c.send('Pick the apple from the fridge.');
    expect(r.final).toContain('The plan ran to the end.');
    expect(control.holding()).toBe('apple_1');
    expect(control.facts()).toContain('open(fridge_1)');
    expect(of(sink, 'ask')).toEqual([]);
    const steps = of(sink, 'tool_result').filter((x) => x.stage === 'recovery' && x.parent);
    expect(steps.map((x) => [x.name, x.ok])).toEqual([
      ['move_to', true],
      ['pick', false],
      ['open', true],
      ['pick', true],
    ]);
    expect(steps[1]!.error).toBe('RAIDER refused pick(apple_1): unfeasibility (IU4): The fridge is closed.');
    // The check saw the closed fridge through the perception tools, before the pick could run.
    expect(
      of(sink, 'tool_result')
        .filter((x) => x.stage === 'recovery/check' && x.name === 'get_obj_state')
        .map((x) => x.result),
    ).toEqual(['fridge_1 (fridge) is closed.', 'fridge_1 (fridge) is open.']);
    // The refusal went back to the recovery model, which wrote the second plan.
    expect(model.requests[7]!.messages.at(-1)).toMatchObject({
      role: 'user',
      content: expect.stringMatching(/^The program failed:\n[\s\S]*RAIDER refused pick\(apple_1\)/),
    });
    expect(of(sink, 'tool_call').filter((x) => x.name === 'run_program')).toHaveLength(2);
  });

  it('no issue: the plan is the action itself, still checked before it runs', async () => {
    opened = await openSim('kitchen');
    const { robot, control } = opened;
    const model = new FakeModel([
      calls(['dist_to_target', { target: 'knife' }], ['robot_holding']),
      verdict({
        final_response: 'none',
        explanation: 'The knife is within reach and the hand is empty.',
        category: 'IN',
        objects: ['knife_1'],
      }),
      plan('pick("knife_1");'),
      calls(['robot_holding']),
      verdict({ final_response: 'none', explanation: 'Nothing changed.' }),
    ]);
    const c = new Conversation({ model, workflow: await createWorkflow('raider', robot), robot });
    const r = await c.send('pick(knife)');
    expect(JSON.parse(r.final!.split('\n')[0]!)).toMatchObject({ final_response: 'none' });
    expect(control.holding()).toBe('knife_1');
  });
});
