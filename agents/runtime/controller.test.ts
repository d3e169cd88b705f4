import { describe, expect, it } from 'vitest';
import { answer, call, FakeModel } from '../../test/support/fake-model';
import { expectValidHistory, holdOn, look, noRobot, stuck } from '../../test/support/runtime-tools';
import type { ChatMessage } from '../models/model';
import { openSimRobot } from '../../robot/sim/open';
import { findToolSet } from '../tools/sets';
import type { Tool } from '../tools/tool';
import { RunController, untilAborted } from './controller';
import { type FlowEvent, runFlow } from './flow';
import { MemorySink, Trace } from './trace';

const start = (): ChatMessage[] => [{ role: 'user', content: 'Go.' }];

function run(model: FakeModel, tools: readonly Tool[], controller: RunController, onEvent?: (e: FlowEvent) => void, limits = {}) {
  const sink = new MemorySink();
  const done = runFlow({
    model,
    messages: start(),
    tools: () => tools,
    robot: noRobot,
    controller,
    trace: new Trace({ sinks: [sink] }),
    limits,
    ...(onEvent ? { onEvent } : {}),
  });
  return { sink, done };
}

describe('RunController', () => {
  it('aborts one signal once, keeps the first reason, and tells listeners', () => {
    const c = new RunController();
    const heard: string[] = [];
    c.onStop((cause) => heard.push(cause.message));
    c.stop('user pressed Stop');
    c.stop({ kind: 'time_limit', message: 'late' });
    expect(c.signal.aborted).toBe(true);
    expect(c.stopCause).toEqual({ kind: 'user', message: 'user pressed Stop' });
    expect(heard).toEqual(['user pressed Stop']);
  });

  it('follows an outer signal, and untilAborted gives up on work that ignores the signal', async () => {
    const outer = new AbortController();
    const c = new RunController();
    c.follow(outer.signal);
    const never = new Promise<string>(() => undefined);
    const waiting = untilAborted(never, c.signal);
    outer.abort();
    await expect(waiting).rejects.toThrow('stopped by the caller');
  });
});

describe('Stop during a run', () => {
  it('mid model request: the request is aborted and the run ends "stopped" at once, with a stop record', async () => {
    const c = new RunController();
    const model = new FakeModel([{ hang: true }]);
    const { sink, done } = run(model, [look], c);
    await new Promise((r) => setTimeout(r, 20));
    const t0 = performance.now();
    c.stop();
    const r = await done;
    expect(performance.now() - t0).toBeLessThan(250);
    expect(r).toMatchObject({ reason: 'stopped', stopped: { kind: 'user', message: 'stopped by the user' }, iterations: 1 });
    expect(sink.records.map((x) => x.type)).toEqual(['message', 'stop', 'end']);
    expect(sink.records[1]).toMatchObject({ type: 'stop', reason: 'user' });
    expect(r.messages).toEqual(start());
  });

  it('mid model request to a server that ignores the abort: the run still ends at once', async () => {
    const c = new RunController();
    const { done } = run(new FakeModel([{ hang: true, ignoreSignal: true }]), [look], c);
    await new Promise((r) => setTimeout(r, 10));
    const t0 = performance.now();
    c.stop();
    expect((await done).reason).toBe('stopped');
    expect(performance.now() - t0).toBeLessThan(250);
  });

  it('mid tool: the tool sees the same signal, its aborted result reaches the history, and no further turn is asked', async () => {
    const c = new RunController();
    const model = new FakeModel([call('hold_on'), answer('never asked')]);
    const { sink, done } = run(model, [holdOn], c, (e) => {
      if (e.type === 'tool_start') setTimeout(() => c.stop('operator pressed Stop'), 20);
    });
    const r = await done;
    expect(r.reason).toBe('stopped');
    expect(model.requests).toHaveLength(1);
    expect(r.messages.at(-1)).toMatchObject({ role: 'tool', content: 'Failed (aborted): stopped while holding the pose.' });
    expectValidHistory(r.messages);
    const types = sink.records.map((x) => x.type);
    expect(types).toEqual(['message', 'message', 'tool_call', 'stop', 'tool_result', 'end']);
    expect(sink.records.find((x) => x.type === 'stop')).toMatchObject({ reason: 'user', message: 'operator pressed Stop' });
  });

  it('mid tool that ignores Stop: the run gives it a short grace, then ends and says the tool did not confirm', async () => {
    const c = new RunController();
    const { done } = run(new FakeModel([call('stuck')]), [stuck], c, (e) => e.type === 'tool_start' && setTimeout(() => c.stop(), 10), {
      stopGraceMs: 50,
    });
    const t0 = performance.now();
    const r = await done;
    expect(performance.now() - t0).toBeLessThan(1000);
    expect(r.reason).toBe('stopped');
    expect(r.messages.at(-1)!.content).toMatch(/^Stopped: .*did not confirm/);
    expectValidHistory(r.messages);
  });

  it('answers every later call of the same turn as not run once stopped', async () => {
    const c = new RunController();
    const model = new FakeModel([{ toolCalls: [{ name: 'hold_on' }, { name: 'look' }] }]);
    const { done } = run(
      model,
      [holdOn, look],
      c,
      (e) => e.type === 'tool_start' && e.name === 'hold_on' && setTimeout(() => c.stop(), 10),
      { maxToolCallsPerIteration: 2 },
    );
    const r = await done;
    expect(r.toolCallsRun).toBe(1);
    expect(r.messages.at(-1)!.content).toMatch(/^Not run: the run was stopped/);
    expectValidHistory(r.messages);
  });

  it('mid physics skill: a real pick on tabletop/fruits is aborted, the robot does not hold the lemon', async () => {
    const robot = await openSimRobot('tabletop/fruits');
    const tools = findToolSet('alrm')!.build(robot);
    const c = new RunController();
    const sink = new MemorySink();
    const model = new FakeModel([call('pick', { object_name: 'lemon_1' }), answer('never asked')]);
    let stoppedAt = 0;
    const r = await runFlow({
      model,
      messages: start(),
      tools: () => tools,
      robot,
      controller: c,
      trace: new Trace({ sinks: [sink] }),
      onEvent: (e) => {
        if (e.type === 'tool_start')
          setTimeout(() => {
            stoppedAt = performance.now();
            c.stop();
          }, 5);
      },
    });
    expect(r.reason).toBe('stopped');
    // Measured from the Stop itself: the skill notices the signal at its next step.
    expect(performance.now() - stoppedAt).toBeLessThan(500);
    const result = sink.records.find((x) => x.type === 'tool_result');
    expect(result).toMatchObject({ name: 'pick', ok: false, status: 'failed', error: expect.stringContaining('Failed (aborted)') });
    expect(await robot.perception.holding()).toBeUndefined();
    expect(sink.records.some((x) => x.type === 'stop')).toBe(true);
    expect(model.requests).toHaveLength(1);
  });
});
