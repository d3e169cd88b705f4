// Composable workflows: a program that opens flows under stages, hands a task to
// another agent as a tool, asks the person, leaves notes and preempts a running
// skill. Asserted on the world's state and the trace's records.
import { describe, expect, it } from 'vitest';
import { answer, call, FakeModel } from '../../test/support/fake-model';
import { z } from 'zod';
import { expectValidHistory, holdOn, look, noRobot, wave } from '../../test/support/runtime-tools';
import { defineTool } from '../tools/tool';
import { openSim } from '../../robot/sim/open';
import { findToolSet } from '../tools/sets';
import { Conversation } from './conversation';
import { MemorySink } from './trace';
import type { Workflow } from './workflow';

/** A planner that delegates to an executor agent through a tool (paper 002's planner + executor). */
function plannerExecutor(executorModel: FakeModel): Workflow {
  return {
    id: 'test/planner-executor',
    title: 'planner and executor',
    description: 'The planner hands each sub-task to the executor.',
    stages: ['planner', 'planner/executor'],
    systemPrompt: () => 'You plan.',
    run: async (ctx) => {
      const alrm = await findToolSet('alrm')!.build(ctx.robot);
      const executor = ctx.agentTool({
        name: 'executor',
        description: 'Runs one sub-task on the robot and reports what happened.',
        stage: 'executor',
        system: 'You execute.',
        tools: alrm,
        model: executorModel,
      });
      ctx.note('plan: pick the lemon, then put it in the bowl', undefined, 'planner');
      const r = await ctx.flow({ stage: 'planner', memory: true, system: 'You plan.', tools: [executor] });
      return { reason: r.reason, final: r.final };
    },
  };
}

describe('composable workflows', () => {
  it('runs an agent as a tool under a nested stage; every record carries its stage and the world changes', async () => {
    const { robot, control } = await openSim('tabletop/fruits');
    const planner = new FakeModel([
      call('executor', { task: 'pick the lemon' }),
      call('executor', { task: 'put it in the bowl' }),
      answer('The lemon is in the bowl.'),
    ]);
    const executor = new FakeModel([
      call('pick', { object_name: 'lemon' }),
      answer('Picked the lemon.'),
      call('place', { target: 'bowl' }),
      answer('Placed it in the bowl.'),
    ]);
    const sink = new MemorySink();
    const c = new Conversation({ model: planner, workflow: plannerExecutor(executor), robot, traceSinks: () => [sink] });
    const r = await c.send('Put the lemon in the bowl.');
    expect(r).toMatchObject({ reason: 'final', final: 'The lemon is in the bowl.', toolCallsRun: 4, iterations: 7 });
    expect(control.facts()).toContain('in(lemon_1, bowl_1)');
    const stages = new Set(sink.records.map((x) => x.stage));
    expect(stages).toEqual(new Set(['planner', 'planner/executor']));
    expect(sink.records.find((x) => x.type === 'note')).toMatchObject({ stage: 'planner', text: expect.stringContaining('plan:') });
    const picks = sink.records.filter((x) => x.type === 'tool_result' && x.name === 'pick');
    expect(picks).toMatchObject([{ stage: 'planner/executor', ok: true }]);
    // The planner read the executor's report as the tool's result.
    const reports = sink.records.filter((x) => x.type === 'tool_result' && x.name === 'executor');
    expect(reports.map((x) => (x.type === 'tool_result' ? x.result : ''))).toEqual(['Picked the lemon.', 'Placed it in the bowl.']);
    // The executor got a fresh conversation for each task: its system prompt and the task only.
    expect(executor.requests[2]!.messages).toEqual([
      { role: 'system', content: 'You execute.' },
      { role: 'user', content: 'put it in the bowl' },
    ]);
    expectValidHistory(c.messages);
    control.dispose();
  });

  it('asks the person through the host and records the question and the answer', async () => {
    const asked: string[] = [];
    const wf: Workflow = {
      id: 'test/ask',
      title: 'ask',
      description: 'asks first',
      stages: ['agent'],
      systemPrompt: () => 'sys',
      run: async (ctx) => {
        const which = await ctx.askUser('Which fruit?');
        const r = await ctx.flow({ stage: 'agent', input: `The person chose: ${which}`, tools: [look] });
        return { reason: r.reason, final: r.final };
      },
    };
    const model = new FakeModel([answer('I will take the plum.')]);
    const sink = new MemorySink();
    const c = new Conversation({
      model,
      workflow: wf,
      robot: noRobot,
      traceSinks: () => [sink],
      askUser: async ({ question }) => {
        asked.push(question);
        return { answer: 'the plum', by: 'person' };
      },
    });
    const r = await c.send('bring me a fruit');
    expect(r.final).toBe('I will take the plum.');
    expect(asked).toEqual(['Which fruit?']);
    expect(model.requests[0]!.messages.at(-1)).toEqual({ role: 'user', content: 'The person chose: the plum' });
    expect(sink.records.filter((x) => x.type === 'ask' || x.type === 'answer')).toMatchObject([
      { type: 'ask', question: 'Which fruit?' },
      { type: 'answer', answer: 'the plum', by: 'person' },
    ]);
    // Without anyone to ask, the answer is empty and says so in the trace.
    const alone = new Conversation({ model: new FakeModel([answer('ok')]), workflow: wf, robot: noRobot, traceSinks: () => [sink] });
    await alone.send('bring me a fruit');
    expect(sink.records.filter((x) => x.type === 'answer').at(-1)).toMatchObject({ by: 'none', answer: '' });
  });

  it('preempts the running skill: the call ends with the reason as its result, the world stops, the flow goes on', async () => {
    const { robot, control } = await openSim('tabletop/fruits');
    const wf: Workflow = {
      id: 'test/preempt',
      title: 'preempt',
      description: 'a person says stop mid-pick',
      stages: ['agent'],
      systemPrompt: () => 'sys',
      run: async (ctx) => {
        const alrm = await findToolSet('alrm')!.build(ctx.robot);
        // A critical event arrives while the pick runs (paper 003 names this gap).
        setTimeout(() => ctx.preempt('a person said "stop"'), 5);
        const r = await ctx.flow({ stage: 'agent', tools: alrm, limits: { timeLimitMs: null } });
        return { reason: r.reason, final: r.final };
      },
    };
    const model = new FakeModel([call('pick', { object_name: 'lemon' }), answer('I stopped because you asked me to.')]);
    const sink = new MemorySink();
    const c = new Conversation({ model, workflow: wf, robot, traceSinks: () => [sink] });
    const r = await c.send('pick the lemon');
    expect(r).toMatchObject({ reason: 'final', final: 'I stopped because you asked me to.' });
    const result = sink.records.find((x) => x.type === 'tool_result');
    expect(result).toMatchObject({
      name: 'pick',
      status: 'preempted',
      ok: false,
      error: expect.stringMatching(/^Interrupted: a person said "stop"\./),
    });
    expect(await robot.perception.holding()).toBeUndefined();
    expect(control.facts()).not.toContain('in(lemon_1, bowl_1)');
    // The model read the interruption where it looks for results.
    expect(model.requests[1]!.messages.at(-1)).toMatchObject({ role: 'tool', content: expect.stringContaining('Interrupted') });
    control.dispose();
  });

  it('Stop ends the nested flows too, and the turn reports it', async () => {
    const executor = new FakeModel([{ hang: true }]);
    const planner = new FakeModel([call('executor', { task: 'wait' })]);
    const { robot, control } = await openSim('tabletop/fruits');
    const sink = new MemorySink();
    const c = new Conversation({ model: planner, workflow: plannerExecutor(executor), robot, traceSinks: () => [sink] });
    const turn = c.send('go');
    setTimeout(() => c.stop('enough'), 20);
    const r = await turn;
    expect(r).toMatchObject({ reason: 'stopped', stopped: { message: 'enough' } });
    expect(
      sink.records
        .filter((x) => x.type === 'stop')
        .map((x) => x.stage)
        .sort(),
    ).toEqual(['planner', 'planner/executor']);
    control.dispose();
  });
});

describe('tools called by programs, not by the model', () => {
  /** A tool that calls another through the runtime (what run_program does for each API call). */
  const twice = defineTool({
    name: 'wave_twice',
    description: 'Waves both hands, one after the other.',
    category: 'action',
    params: z.strictObject({}),
    card: { outputs: 'text', whenToUse: 'in tests', dimension: 'execution' },
    execute: async (_a, { invoke }) => {
      const left = await invoke!(wave, { hand: 'left' });
      const bad = await invoke!(wave, { hand: 'middle' });
      return { ok: left.ok && !bad.ok, content: `${left.content}; then ${bad.status}` };
    },
  });

  it('a tool’s own calls are traced under it, in its stage, with their results', async () => {
    const sink = new MemorySink();
    const model = new FakeModel([call('wave_twice'), answer('done')]);
    const wf: Workflow = {
      id: 'test/nested',
      title: 'nested',
      description: 'a tool calling a tool',
      stages: ['agent'],
      systemPrompt: () => 'sys',
      run: async (ctx) => {
        const r = await ctx.flow({ stage: 'agent', tools: [twice] });
        return { reason: r.reason, final: r.final };
      },
    };
    const c = new Conversation({ model, workflow: wf, robot: noRobot, traceSinks: () => [sink] });
    const r = await c.send('wave');
    // The call with invalid arguments never ran.
    expect(r).toMatchObject({ final: 'done', toolCallsRun: 2 });
    const outer = sink.records.find((x) => x.type === 'tool_call' && x.name === 'wave_twice')!;
    const inner = sink.records.filter((x) => (x.type === 'tool_call' || x.type === 'tool_result') && x.name === 'wave');
    expect(inner).toMatchObject([
      { type: 'tool_call', stage: 'agent', parent: (outer as { id: string }).id, arguments: '{"hand":"left"}' },
      { type: 'tool_result', ok: true, result: 'waved the left hand', parent: (outer as { id: string }).id },
      { type: 'tool_call', arguments: '{"hand":"middle"}' },
      { type: 'tool_result', ok: false, status: 'invalid_arguments' },
    ]);
    expect(sink.records.find((x) => x.type === 'tool_result' && x.name === 'wave_twice')).toMatchObject({
      ok: true,
      result: 'waved the left hand; then invalid_arguments',
    });
    // The model saw only its own call's result.
    expect(model.requests[1]!.messages.filter((m) => m.role === 'tool')).toHaveLength(1);
  });

  it('a workflow runs a tool itself under a stage; approval applies and Stop reaches it', async () => {
    const sink = new MemorySink();
    const asked: string[] = [];
    const wf: Workflow = {
      id: 'test/invoke',
      title: 'invoke',
      description: 'a plan step',
      stages: ['recovery'],
      systemPrompt: () => 'sys',
      run: async (ctx) => {
        const a = await ctx.invoke(wave, { hand: 'right' }, { stage: 'recovery', parent: 'plan_1' });
        const b = await ctx.invoke(look, {}, { stage: 'recovery' });
        return { reason: 'final', final: `${a.status}: ${a.content} / ${b.content}` };
      },
    };
    const c = new Conversation({
      model: new FakeModel([]),
      workflow: wf,
      robot: noRobot,
      traceSinks: () => [sink],
      approval: {
        policy: { information: 'auto', action: 'ask' },
        ask: async (req) => {
          asked.push(req.tool);
          return { approved: false, note: 'not now' };
        },
      },
    });
    const r = await c.send('go');
    expect(asked).toEqual(['wave']);
    expect(r.final).toMatch(/^rejected: .*not now.* \/ I see a lemon and a bowl\.$/);
    expect(sink.records.filter((x) => x.type === 'tool_call')).toMatchObject([
      { stage: 'recovery', name: 'wave', parent: 'plan_1', id: 'plan_1.1' },
      { stage: 'recovery', name: 'look', id: 'step.2' },
    ]);
    expect(sink.records.find((x) => x.type === 'approval')).toMatchObject({ stage: 'recovery', tool: 'wave', decision: 'rejected' });

    const held: Workflow = {
      ...wf,
      run: async (ctx) => ({ reason: 'final', final: (await ctx.invoke(holdOn, {}, { stage: 'recovery' })).content }),
    };
    const c2 = new Conversation({ model: new FakeModel([]), workflow: held, robot: noRobot });
    const turn = c2.send('hold');
    setTimeout(() => c2.stop('enough'), 20);
    expect((await turn).final).toBe('Failed (aborted): stopped while holding the pose.');
  });

  it('a misspelt tool name runs the one tool it clearly means when the flow matches names (RAIDER)', async () => {
    const sink = new MemorySink();
    const model = new FakeModel([
      { toolCalls: [{ name: 'Look', arguments: {} }, { name: 'wve', arguments: { hand: 'left' } }, { name: 'dance' }] },
      answer('ok'),
    ]);
    const wf: Workflow = {
      id: 'test/fuzzy',
      title: 'fuzzy',
      description: 'fuzzy tool names',
      stages: ['agent'],
      systemPrompt: () => 'sys',
      run: async (ctx) => {
        const r = await ctx.flow({ stage: 'agent', tools: [look, wave], matchToolNames: true, limits: { maxToolCallsPerIteration: 5 } });
        return { reason: r.reason, final: r.final };
      },
    };
    await new Conversation({ model, workflow: wf, robot: noRobot, traceSinks: () => [sink] }).send('look and wave');
    const tools = model.requests[1]!.messages.filter((m) => m.role === 'tool').map((m) => m.content);
    expect(tools[0]).toBe('(There is no tool named "Look"; ran look.) I see a lemon and a bowl.');
    expect(tools[1]).toBe('(There is no tool named "wve"; ran wave.) waved the left hand');
    expect(tools[2]).toMatch(/^Warning \(made_up_tool_name\): there is no tool named "dance"/);
    expect(sink.records.filter((x) => x.type === 'warning').map((x) => (x.type === 'warning' ? x.code : ''))).toEqual([
      'made_up_tool_name',
    ]);
  });
});
