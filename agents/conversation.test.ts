import { describe, expect, it } from 'vitest';
import { answer, call, FakeModel } from '../test/support/fake-model';
import { openSimRobot } from '../robot/sim/open';
import { ConversationSpecError, openConversation } from './conversation';
import { MemorySink } from './runtime/trace';

describe('openConversation', () => {
  it('opens a robot from its source, the workflow and the model, and runs a turn in that world', async () => {
    const model = new FakeModel([call('pick', { object_name: 'lemon' }), answer('Got it.')]);
    const sink = new MemorySink();
    const open = await openConversation({
      robot: { kind: 'sim', scene: 'tabletop/fruits', seed: 2 },
      workflow: 'flat',
      toolSet: 'alrm',
      model,
      seed: 2,
      traceSinks: () => [sink],
    });
    const r = await open.conversation.send('pick the lemon');
    expect(r).toMatchObject({ reason: 'final', final: 'Got it.', toolCallsRun: 1 });
    expect(open.sim?.holding()).toBe('lemon_1');
    expect(sink.header).toMatchObject({ scene: 'tabletop/fruits', workflow: 'flat', seed: 2 });
    expect(sink.records.every((x) => x.stage === 'agent')).toBe(true);
    await open.close();
  });

  it('uses an open robot as it is, and leaves closing it to its owner', async () => {
    const robot = await openSimRobot('tabletop/fruits');
    const open = await openConversation({ robot, workflow: 'rtw/basic', model: new FakeModel([answer('hi')]) });
    expect(open.robot).toBe(robot);
    expect(open.sim).toBeUndefined();
    expect((await open.conversation.send('hello')).final).toBe('hi');
  });

  it('names the setting that is wrong', async () => {
    const field = async (p: Promise<unknown>) =>
      p.then(
        () => 'no error',
        (e: unknown) => (e instanceof ConversationSpecError ? `${e.field}: ${e.message}` : String(e)),
      );
    const base = { robot: { kind: 'sim' as const, scene: 'tabletop/fruits' }, workflow: 'flat', model: 'scripted:none.json' };
    expect(await field(openConversation({ ...base, model: 'telepathy:gpt' }))).toMatch(/^model: /);
    expect(await field(openConversation({ ...base, model: new FakeModel([]), workflow: 'rtw/magic' }))).toMatch(
      /^workflow: unknown workflow "rtw\/magic"/,
    );
    expect(await field(openConversation({ ...base, model: new FakeModel([]), toolSet: 'nope' }))).toMatch(
      /^toolSet: unknown tool set "nope"/,
    );
    expect(await field(openConversation({ ...base, model: new FakeModel([]), robot: { kind: 'sim', scene: 'no/such' } }))).toMatch(
      /^robot: /,
    );
  });
});
