import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { answer, call, FakeModel } from '../../test/support/fake-model';
import { expectValidHistory, look, noRobot, wave } from '../../test/support/runtime-tools';
import { openSimRobot } from '../../robot/sim/open';
import type { Robot } from '../../robot/robot';
import { findToolSet } from '../tools/sets';
import { ModelError } from '../models/model';
import { loopWorkflow, type LoopSpec } from '../workflows/kit/loop';
import { Conversation, ConversationBusyError } from './conversation';
import { MemorySink, readTrace } from './trace';

const alrm = loopWorkflow({
  id: 'test/alrm',
  title: 'ALRM tools',
  description: 'A flat tool list over the ALRM robot API.',
  systemPrompt: (robot) => `You control ${robot.info.name}. Use the tools.`,
  tools: (ctx) => findToolSet('alrm')!.build(ctx.robot),
  limits: { timeLimitMs: null },
});

const plainSpec: LoopSpec = {
  id: 'test/plain',
  title: 'plain',
  description: 'look and wave',
  systemPrompt: () => 'sys',
  tools: (ctx) => (ctx.route === 'action' ? [wave] : [look]),
};
const plain = loopWorkflow(plainSpec);

describe('Conversation', () => {
  it('keeps the conversation and the world across turns; reset clears the conversation, keeps or rebuilds the world', async () => {
    const traceDir = mkdtempSync(join(tmpdir(), 'skillbridge-session-'));
    const model = new FakeModel([
      call('pick', { object_name: 'lemon' }),
      answer('I have the lemon.'),
      call('place', { target: 'bowl' }),
      answer('It is in the bowl.'),
      answer('Hello again.'),
    ]);
    let opened = 0;
    const openRobot = async (): Promise<Robot> => {
      opened++;
      return openSimRobot('tabletop/fruits', { seed: 3 });
    };
    const s = await Conversation.open({ model, workflow: alrm, openRobot, traceDir, seed: 3 });
    const robot = s.robot;

    const t1 = await s.send('Pick up the lemon.');
    expect(t1).toMatchObject({ reason: 'final', final: 'I have the lemon.', turn: 1 });
    expect(await robot.perception.holding()).toBe('lemon_1');

    const t2 = await s.send('Now put it in the bowl.');
    expect(t2).toMatchObject({ reason: 'final', final: 'It is in the bowl.', turn: 2 });
    // The model saw the first turn when answering the second.
    expect(model.requests[2]!.messages.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'tool', 'assistant', 'user']);
    expect(model.requests[2]!.messages[0]!.content).toContain('You control');
    expect(s.robot).toBe(robot);
    expect(await robot.perception.holding()).toBeUndefined();
    expect(await robot.perception.related('in', 'bowl_1')).toContain('lemon_1');
    expectValidHistory(s.messages);

    // One trace file per turn; the second holds the first turn as prior context.
    // Besides the traces, the folder may hold the next turn's file made ahead (hidden, not a .jsonl name).
    const files = readdirSync(traceDir)
      .filter((f) => f.endsWith('.jsonl'))
      .sort();
    expect(files).toHaveLength(2);
    expect(files.map((f) => join(traceDir, f)).sort()).toEqual([t1.tracePath, t2.tracePath].sort());
    const second = readTrace(t2.tracePath!);
    expect(second.header).toMatchObject({
      scene: 'tabletop/fruits',
      workflow: 'test/alrm',
      model: 'fake:model',
      seed: 3,
      session: s.id,
      turn: 2,
    });
    expect(second.records.filter((r) => r.type === 'message' && r.prior).map((r) => r.type === 'message' && r.role)).toEqual([
      'system',
      'user',
      'assistant',
      'assistant',
    ]);

    await s.reset();
    expect(s.messages).toEqual([{ role: 'system', content: `You control ${robot.info.name}. Use the tools.` }]);
    expect(s.turn).toBe(0);
    expect(s.robot).toBe(robot);
    expect(await robot.perception.related('in', 'bowl_1')).toContain('lemon_1');

    await s.reset({ world: 'rebuild' });
    expect(opened).toBe(2);
    expect(s.robot).not.toBe(robot);
    expect(await s.robot.perception.related('in', 'bowl_1')).not.toContain('lemon_1');
    const t3 = await s.send('Hi');
    expect(model.requests.at(-1)!.messages).toEqual([
      { role: 'system', content: expect.any(String) },
      { role: 'user', content: 'Hi' },
    ]);
    expect(t3.turn).toBe(1);
  });

  it('runs one turn at a time, stops the running turn, and carries on with a valid history', async () => {
    const model = new FakeModel([{ hang: true }, answer('back')]);
    const sink = new MemorySink();
    const s = new Conversation({ model, workflow: plain, robot: noRobot, traceSinks: () => [sink] });
    const first = s.send('wait for it');
    expect(s.busy).toBe(true);
    await expect(s.send('again')).rejects.toThrow(ConversationBusyError);
    setTimeout(() => s.stop('changed my mind'), 10);
    const r = await first;
    expect(r).toMatchObject({ reason: 'stopped', stopped: { message: 'changed my mind' }, tracePath: undefined });
    expect(s.busy).toBe(false);
    expect(sink.records.find((x) => x.type === 'stop')).toMatchObject({ message: 'changed my mind' });
    const next = await s.send('are you there?');
    expect(next.final).toBe('back');
    // The unanswered request joins the next one: roles still alternate, and the request is not lost.
    expect(s.messages.map((m) => m.role)).toEqual(['system', 'user', 'assistant']);
    expect(model.requests[1]!.messages[1]).toEqual({ role: 'user', content: 'wait for it\n\nare you there?' });
  });

  it('after a turn with no answer, the history has no stale warnings and roles still alternate', async () => {
    const model = new FakeModel([
      answer(''), // Warning 4, written to the history as a user message
      { error: new ModelError('the server went away', 'unreachable') },
      answer('Sorry, I see a lemon.'),
    ]);
    const s = new Conversation({ model, workflow: plain, robot: noRobot });
    const r = await s.send('what do you see?');
    expect(r.reason).toBe('model_error');
    expect(s.messages.map((m) => m.role)).toEqual(['system', 'user', 'assistant']);
    const next = await s.send('try again');
    expect(next.final).toBe('Sorry, I see a lemon.');
    const seen = model.requests[2]!.messages;
    expect(seen.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'user']);
    expect(seen.some((m) => m.content?.startsWith('Warning'))).toBe(false);
  });

  it("runs the workflow's classify step and offers the branch it picks", async () => {
    const model = new FakeModel([call('wave', { hand: 'left' }), answer('Waved.')]);
    const routed = loopWorkflow({
      ...plainSpec,
      classify: async ({ userText }) => ({ route: /wave/i.test(userText) ? 'action' : 'information' }),
    });
    const events: string[] = [];
    const s = new Conversation({ model, workflow: routed, robot: noRobot, onEvent: (e) => events.push(e.type) });
    const r = await s.send('Wave at me', { onEvent: (e) => e.type === 'route' && events.push(`route:${e.route}`) });
    expect(r.final).toBe('Waved.');
    expect(model.requests[0]!.tools).toEqual(['wave']);
    expect(events.filter((e) => e.startsWith('route'))).toEqual(['route', 'route:action']);
  });

  it('asks before acting when given an approval gate, per session or per turn', async () => {
    const model = new FakeModel([call('wave', { hand: 'left' }), answer('Could not wave.')]);
    const s = new Conversation({
      model,
      workflow: loopWorkflow({ ...plainSpec, tools: () => [wave] }),
      robot: noRobot,
      approval: { policy: { information: 'auto', action: 'deny' } },
    });
    await s.send('wave');
    expect(s.messages.find((m) => m.role === 'tool')!.content).toMatch(/^This call was not run/);
  });
});
