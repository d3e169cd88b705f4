import { describe, expect, it } from 'vitest';
import { createScriptedModel } from '../models/scripted';
import { FakeModel, answer, call } from '../../test/support/fake-model';
import { look, noRobot } from '../../test/support/runtime-tools';
import type { ChatMessage } from '../models/model';
import { type FlowEvent, runFlow } from './flow';

const script = () => [{ tool_calls: [{ function: { name: 'look', arguments: {} } }] }, { content: 'A lemon.' }];
const start = (): ChatMessage[] => [
  { role: 'system', content: 'sys' },
  { role: 'user', content: 'What do you see?' },
];

describe('what a flow hands its model and listeners', () => {
  it('a scripted model keeps each request as it was asked, though the flow goes on adding to its history', async () => {
    const model = createScriptedModel(script());
    const r = await runFlow({ model, messages: start(), tools: () => [look], robot: noRobot });
    expect(r.reason).toBe('final');
    expect(r.messages.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'tool', 'assistant']);
    expect(model.requests.map((q) => q.messages.map((m) => m.role))).toEqual([
      ['system', 'user'],
      ['system', 'user', 'assistant', 'tool'],
    ]);
    expect(model.requests[1]!.tools?.map((t) => t.function.name)).toEqual(['look']);
  });

  it('a scripted model made for a long run keeps no requests', async () => {
    const model = createScriptedModel(script(), { keepRequests: false });
    const r = await runFlow({ model, messages: start(), tools: () => [look], robot: noRobot });
    expect(r.final).toBe('A lemon.');
    expect(model.requests).toEqual([]);
  });

  it('offers the same tools each iteration and tells listeners the history it started from', async () => {
    const model = new FakeModel([call('look'), call('look'), answer('A lemon.')]);
    const seen: Array<{ roles: string[]; newFrom: number }> = [];
    const onEvent = (e: FlowEvent): void => {
      if (e.type === 'history') seen.push({ roles: e.messages.map((m) => m.role), newFrom: e.newFrom });
    };
    await runFlow({ model, messages: start(), tools: () => [look], robot: noRobot, onEvent, newFrom: 1 });
    expect(seen).toEqual([{ roles: ['system', 'user'], newFrom: 1 }]);
    expect(model.requests.map((q) => q.tools)).toEqual([['look'], ['look'], ['look']]);
    expect(model.requests.map((q) => q.messages.length)).toEqual([2, 4, 6]);
  });
});
