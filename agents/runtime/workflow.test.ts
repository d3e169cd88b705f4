// Composable workflows: a program that opens flows under stages, hands a task to
// another agent as a tool, asks the person, leaves notes and preempts a running
// skill. Asserted on the world's state and the trace's records.
import { describe, expect, it } from 'vitest';
import { answer, call, FakeModel } from '../../test/support/fake-model';
import { expectValidHistory, look, noRobot } from '../../test/support/runtime-tools';
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
