import { describe, expect, it } from 'vitest';
import { answer, call, FakeModel } from '../../test/support/fake-model';
import { expectValidHistory, look, noRobot, wave } from '../../test/support/runtime-tools';
import type { ChatMessage } from '../models/model';
import { type ApprovalGate, type ApprovalRequest, decide, modeFor } from './approval';
import { RunController } from './controller';
import { runFlow } from './flow';
import { MemorySink, Trace } from './trace';

const start = (): ChatMessage[] => [{ role: 'user', content: 'Look, then wave with the left hand.' }];

async function flow(approval: ApprovalGate, extra: { controller?: RunController; limits?: object } = {}) {
  const model = new FakeModel([call('look'), call('wave', { hand: 'left' }), answer('Done.')]);
  const sink = new MemorySink();
  const r = await runFlow({
    model,
    messages: start(),
    tools: () => [look, wave],
    robot: noRobot,
    approval,
    trace: new Trace({ sinks: [sink] }),
    ...extra,
  });
  return { r, model, sink, tools: r.messages.filter((m) => m.role === 'tool').map((m) => m.content) };
}

describe('approval gate', () => {
  it('auto: everything runs without asking and leaves no approval records', async () => {
    const { r, sink, tools } = await flow({ policy: { information: 'auto', action: 'auto' } });
    expect(r.reason).toBe('final');
    expect(tools).toEqual(['I see a lemon and a bowl.', 'waved the left hand']);
    expect(sink.records.some((x) => x.type === 'approval')).toBe(false);
  });

  it('ask + approve: asks only for actions, with the exact tool name and arguments, then runs the call', async () => {
    const asked: Array<Omit<ApprovalRequest, 'signal'>> = [];
    const { tools, sink } = await flow({
      policy: { information: 'auto', action: 'ask' },
      ask: async ({ signal: _s, ...req }) => {
        asked.push(req);
        return { approved: true };
      },
    });
    expect(asked).toEqual([
      { callId: 'fake_2', tool: 'wave', category: 'action', arguments: '{"hand":"left"}', args: { hand: 'left' }, iteration: 1 },
    ]);
    expect(tools[1]).toBe('waved the left hand');
    expect(sink.records.find((x) => x.type === 'approval')).toMatchObject({ tool: 'wave', args: { hand: 'left' }, decision: 'approved' });
  });

  it('ask + reject: the call does not run and the rejection, with the note, reaches the model', async () => {
    const { r, model, sink } = await flow({
      policy: { information: 'auto', action: 'ask' },
      ask: async () => ({ approved: false, note: 'not now, someone is standing there' }),
    });
    const reply = model.requests[2]!.messages.at(-1)!;
    expect(reply).toMatchObject({ role: 'tool' });
    expect(reply.content).toContain('The user rejected this call: wave was not run. The user said: "not now, someone is standing there".');
    expect(r.toolCallsRun).toBe(1);
    expect(sink.records.find((x) => x.type === 'approval')).toMatchObject({
      decision: 'rejected',
      note: 'not now, someone is standing there',
    });
    expect(sink.records.filter((x) => x.type === 'tool_result').map((x) => x.type === 'tool_result' && x.status)).toEqual([
      'ok',
      'rejected',
    ]);
    expectValidHistory(r.messages);
  });

  it('deny: the category never runs and no one is asked', async () => {
    let asked = 0;
    const { tools, sink } = await flow({
      policy: { information: 'auto', action: 'deny' },
      ask: async () => {
        asked++;
        return { approved: true };
      },
    });
    expect(asked).toBe(0);
    expect(tools[1]).toMatch(/^This call was not run: action tools are not allowed in this session\./);
    expect(sink.records.find((x) => x.type === 'approval')).toMatchObject({ decision: 'denied' });
  });

  it('per-tool overrides win over the category, and ask without a prompt acts as deny', async () => {
    expect(modeFor({ information: 'auto', action: 'ask', tools: { wave: 'auto' } }, 'wave', 'action')).toBe('auto');
    const d = await decide(
      { policy: { information: 'ask', action: 'ask' } },
      { callId: 'c', tool: 'look', category: 'information', arguments: '{}', args: {}, iteration: 0, signal: new AbortController().signal },
    );
    expect(d).toMatchObject({ decision: 'denied', note: expect.stringContaining('no one is there') });
  });

  it('a failing prompt counts as a rejection, never as a yes', async () => {
    const { tools } = await flow({
      policy: { information: 'auto', action: 'ask' },
      ask: async () => {
        throw new Error('window closed');
      },
    });
    expect(tools[1]).toContain('The user rejected this call');
    expect(tools[1]).toContain('window closed');
  });

  it('Stop while waiting for approval ends the wait and the run', async () => {
    const c = new RunController();
    const pending = flow(
      {
        policy: { information: 'auto', action: 'ask' },
        ask: ({ signal }) =>
          new Promise((_resolve, reject) => {
            setTimeout(() => c.stop('user closed the session'), 20);
            signal.addEventListener('abort', () => reject(new Error('prompt closed')));
          }),
      },
      { controller: c },
    );
    const { r, tools, sink } = await pending;
    expect(r.reason).toBe('stopped');
    expect(tools.at(-1)).toBe('Not run: the run was stopped while waiting for approval of wave.');
    expect(sink.records.find((x) => x.type === 'tool_result' && x.name === 'wave')).toMatchObject({ status: 'stopped' });
    expectValidHistory(r.messages);
  });

  it('time spent waiting for a person does not count against the time limit', async () => {
    const { r } = await flow(
      {
        policy: { information: 'auto', action: 'ask' },
        ask: () => new Promise((resolve) => setTimeout(() => resolve({ approved: true }), 150)),
      },
      { limits: { timeLimitMs: 100 } },
    );
    expect(r.reason).toBe('final');
  });
});
