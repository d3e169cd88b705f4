// Each Robotic Tool Workflow path on the simulated robot, driven by a scripted
// model (and once through the real openai client against the local server).
import { describe, expect, it } from 'vitest';
import { startOpenAIServer } from '../../test/support/openai-server';
import type { CompletionRequest } from '../models/model';
import { createOpenAICompatibleModel } from '../models/openai-compatible';
import { type ScriptedTurn, fromFunction } from '../models/scripted';
import { openSimRobot } from '../../robot/sim/open';
import type { FlowEvent } from '../runtime/events';
import { Conversation } from '../runtime/conversation';
import { createWorkflow } from './index';

const call = (name: string, args: Record<string, unknown> = {}, id = `c_${name}`): ScriptedTurn => ({
  tool_calls: [{ id, function: { name, arguments: args } }],
});
const offered = (req: CompletionRequest): string[] => (req.tools ?? []).map((t) => t.function.name);
/** Tool results since the latest user message: what this turn has done so far. */
const doneThisTurn = (req: CompletionRequest): string[] => {
  const i = req.messages.map((m) => m.role).lastIndexOf('user');
  return req.messages.slice(i + 1).flatMap((m) => (m.role === 'assistant' ? (m.tool_calls ?? []).map((c) => c.function.name) : []));
};

describe('rtw/hierarchical (MAYA)', () => {
  it('classifies, then offers task tools grown from the world, one per iteration, and they change after each action', async () => {
    const robot = await openSimRobot('tabletop/fruits');
    const seen: string[][] = [];
    const model = fromFunction((req) => {
      const names = offered(req);
      if (names.includes('classify_request')) return call('classify_request', { category: 'task' });
      seen.push(names);
      const done = doneThisTurn(req);
      if (!done.includes('pick_lemon_1')) return call('pick_lemon_1');
      if (!done.includes('put_lemon_1_in_bowl_1')) return call('put_lemon_1_in_bowl_1');
      return { content: 'The lemon is in the bowl.' };
    });
    const session = new Conversation({ model, robot, workflow: await createWorkflow('rtw/hierarchical', robot) });
    const r = await session.send('put the lemon in the bowl');
    expect(r.reason).toBe('final');
    expect(r.final).toBe('The lemon is in the bowl.');
    expect(seen[0]).toContain('pick_lemon_1');
    expect(seen[0]).not.toContain('what_do_you_see');
    expect(seen[1]).not.toContain('pick_lemon_1');
    expect(seen[1]).toContain('put_lemon_1_in_bowl_1');
    expect(await robot.perception.related('inside', 'bowl_1')).toContain('lemon_1');
  });

  it('an information request sees only information tools', async () => {
    const robot = await openSimRobot('tabletop/fruits');
    let tools: string[] = [];
    const model = fromFunction((req, turn) => {
      if (offered(req).includes('classify_request')) return call('classify_request', { category: 'information' });
      tools = offered(req);
      return turn === 1 ? call('list_available_tasks') : { content: 'I can pick fruit.' };
    });
    const session = new Conversation({ model, robot, workflow: await createWorkflow('rtw/hierarchical', robot) });
    const r = await session.send('what can you do?');
    expect(r.final).toBe('I can pick fruit.');
    expect(tools).toEqual(expect.arrayContaining(['explain_safety_features', 'list_available_tasks', 'why_no_objects_or_tasks']));
    expect(tools.some((t) => t.startsWith('pick_'))).toBe(false);
  });
});

describe('rtw/basic (TORO)', () => {
  it('runs several calls in one turn, rejects an out-of-range step with the range, and keeps history across turns', async () => {
    const robot = await openSimRobot('tabletop/workshop');
    const events: FlowEvent[] = [];
    const model = fromFunction((req, turn) => {
      if (turn === 0) {
        return {
          tool_calls: [
            { id: 'a', function: { name: 'take_a_step', arguments: { forward: 0.5 } } },
            { id: 'b', function: { name: 'take_a_step', arguments: { forward: 0.1 } } },
            { id: 'c', function: { name: 'describe_yourself', arguments: {} } },
          ],
        };
      }
      if (turn === 1) return { content: 'Stepped 10 cm.' };
      // Second turn: the earlier exchange is still in the history.
      expect(req.messages.some((m) => m.role === 'user' && m.content === 'step forward')).toBe(true);
      return { content: 'I am Mobipick.' };
    });
    const session = new Conversation({ model, robot, workflow: await createWorkflow('rtw/basic', robot), onEvent: (e) => events.push(e) });
    const r = await session.send('step forward');
    expect(r.final).toBe('Stepped 10 cm.');
    const ends = events.filter((e): e is Extract<FlowEvent, { type: 'tool_end' }> => e.type === 'tool_end');
    expect(ends.map((e) => [e.name, e.ok])).toEqual([
      ['take_a_step', false],
      ['take_a_step', true],
      ['describe_yourself', true],
    ]);
    expect(ends[0]!.content).toMatch(/0\.15/);
    expect(r.warnings.map((w) => w.code)).toContain('unsuccessful_tool_call');
    expect((await session.send('who are you?')).final).toBe('I am Mobipick.');
  });
});

describe('rtw/world-model (AIMM)', () => {
  it('getters first; query templates only after the model asks for them; setters after a setter route', async () => {
    const robot = await openSimRobot('tabletop/fruits');
    const offers: string[][] = [];
    const model = fromFunction((req) => {
      const names = offered(req);
      if (names.includes('classify_request')) {
        const last = [...req.messages].reverse().find((m) => m.role === 'user');
        return call('classify_request', { category: String(last?.content).startsWith('remember') ? 'setter' : 'getter' });
      }
      offers.push(names);
      const results = doneThisTurn(req).length;
      if (names.includes('add_object'))
        return results
          ? { content: 'Noted.' }
          : call('set_object_property', { object_name: 'lemon_1', property_name: 'owner', value: 'Ana' });
      if (!names.includes('retrieve_nodes')) return call('request_query_tools', { reason: 'need all lemons with their mass' });
      if (!req.messages.some((m) => m.role === 'tool' && m.content.includes('MATCH')))
        return call('retrieve_nodes', { node_type: 'lemon', return_attribute: 'mass_kg' });
      return { content: 'lemon_1 weighs 0.1 kg.' };
    });
    const session = new Conversation({ model, robot, workflow: await createWorkflow('rtw/world-model', robot) });
    const r = await session.send('how heavy are the lemons?');
    expect(r.final).toMatch(/lemon_1/);
    expect(offers[0]).toEqual(expect.arrayContaining(['get_object_poses', 'request_query_tools']));
    expect(offers[0]).not.toContain('retrieve_nodes');
    expect(offers[1]).toContain('retrieve_nodes');
    const w = await session.send('remember that the lemon belongs to Ana');
    expect(w.final).toBe('Noted.');
    expect(offers.some((o) => o.includes('set_object_property'))).toBe(true);
    expect((await robot.worldModel!.node('lemon_1'))!.attributes['owner']).toBe('Ana');
  });
});

describe('rtw/world-model (AIMM), after a warning', () => {
  it('keeps the query templates unlocked when a warning is written into the turn as a user message', async () => {
    const robot = await openSimRobot('tabletop/fruits');
    const offers: string[][] = [];
    let step = 0;
    const model = fromFunction((req) => {
      if (offered(req).includes('classify_request')) return call('classify_request', { category: 'getter' });
      offers.push(offered(req));
      step++;
      if (step === 1) return call('request_query_tools', { reason: 'need the masses' });
      // A final answer beside a call: Warning 1 goes into the conversation as a user message.
      if (step === 2)
        return {
          content: 'Final answer: 0.1 kg.',
          tool_calls: [{ id: 'q1', function: { name: 'retrieve_nodes', arguments: { node_type: 'lemon', return_attribute: 'mass_kg' } } }],
        };
      return { content: 'lemon_1 weighs 0.1 kg.' };
    });
    const session = new Conversation({ model, robot, workflow: await createWorkflow('rtw/world-model', robot) });
    const r = await session.send('how heavy are the lemons?');
    expect(r.warnings.map((w) => w.code)).toEqual(['made_up_tool_response']);
    expect(offers[1]).toContain('retrieve_nodes');
    expect(offers[2]).toContain('retrieve_nodes');
    expect(r.final).toBe('lemon_1 weighs 0.1 kg.');
  });
});

describe('through the real openai client', () => {
  it('rtw/hierarchical against the local OpenAI-compatible server, streamed', async () => {
    const server = await startOpenAIServer([
      { toolCalls: [{ name: 'classify_request', arguments: { category: 'task' } }] },
      { toolCalls: [{ name: 'pick_peach_1', arguments: {} }] },
      { content: 'Picked the peach.' },
    ]);
    try {
      const robot = await openSimRobot('tabletop/fruits');
      const model = createOpenAICompatibleModel({ id: 'test', baseURL: server.url, model: 'test-model', stream: true });
      const session = new Conversation({ model, robot, workflow: await createWorkflow('rtw/hierarchical', robot) });
      const r = await session.send('pick the peach');
      expect(r.final).toBe('Picked the peach.');
      expect(await robot.perception.holding()).toBe('peach_1');
      const second = server.chatRequests()[1]!;
      expect((second.body as { tools: { function: { name: string } }[] }).tools.map((t) => t.function.name)).toContain('pick_peach_1');
    } finally {
      await server.close();
    }
  });
});
