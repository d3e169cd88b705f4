// RAIDER's baselines on the kitchen: Precond's predefined checks (Table B.3, no
// model, each check a traced call to the perception tools) and LLMVisualObs
// (the scene as text from the robot's belief, no tools).
import { afterEach, describe, expect, it } from 'vitest';
import { answer, FakeModel } from '../../../test/support/fake-model';
import { openSim, type OpenedSim } from '../../../robot/sim/open';
import { Conversation } from '../../runtime/conversation';
import { MemorySink } from '../../runtime/trace';
import { createWorkflow } from '../index';
import { parseStructured } from './baselines';

let opened: OpenedSim | undefined;
afterEach(() => {
  opened?.control.dispose();
  opened = undefined;
});

async function precond(query: string, setup?: (o: OpenedSim) => Promise<void>) {
  opened = await openSim('kitchen');
  await setup?.(opened);
  const sink = new MemorySink();
  const model = new FakeModel([]);
  const c = new Conversation({
    model,
    workflow: await createWorkflow('raider/precond', opened.robot),
    robot: opened.robot,
    traceSinks: () => [sink],
  });
  const r = await c.send(query);
  expect(model.requests).toHaveLength(0);
  return { verdict: JSON.parse(r.final!) as Record<string, unknown>, sink };
}

describe('raider/precond (Appendix B.1, Table B.3)', () => {
  it('parses structured queries only', () => {
    expect(parseStructured('pick(apple)')).toEqual({ action: 'pick', args: ['apple'] });
    expect(parseStructured(' place("mug", coffee_machine) ')).toEqual({ action: 'place', args: ['mug', 'coffee_machine'] });
    expect(parseStructured('turn_on(toaster)')).toEqual({ action: 'turnon', args: ['toaster'] });
    expect(parseStructured('Please pick the apple')).toBeUndefined();
  });

  it.each([
    ['pick(apple)', 'unfeasibility', 'IU3', /^apple is not present\.$/],
    ['slice(bread)', 'unfeasibility', 'IU6', /^the robot is not holding knife\.$/],
    ['turnoff(toaster)', 'unfeasibility', 'IU4', /^toaster_1 is off\.$/],
    ['open(toaster)', 'unfeasibility', 'IU5', /^toaster_1 is not openable\.$/],
    ['open(fridge)', 'none', 'IN', /^fridge_1 is present, the robot is holding nothing, fridge_1 is openable, fridge_1 is closed\.$/],
    ['place(blue mug, coffee machine)', 'unfeasibility', 'IU6', /^the robot is not holding mug_2\.$/],
    // Predefined checks cannot ground "mug" to one of two: Precond reads it as absent (it scores 0 on ambiguity in Table 1).
    ['pick(mug)', 'unfeasibility', 'IU3', /^mug is not present\.$/],
    ['Could you pick the blue mug?', 'none', 'IN', /structured queries/],
  ])('%s → %s (%s), explained by the checks', async (query, issue, category, why) => {
    const { verdict, sink } = await precond(query);
    expect(verdict).toMatchObject({ final_response: issue, category });
    expect(String(verdict['explanation'])).toMatch(why);
    if (parseStructured(query)) expect(sink.records.filter((x) => x.type === 'tool_call').every((x) => x.stage === 'precond')).toBe(true);
  });

  it('answers from the world as it is: after the fridge is opened, the apple is present and pickable', async () => {
    const { verdict, sink } = await precond('pick(apple, fridge)', async ({ robot }) => {
      expect((await robot.base!.navigate('fridge_1')).ok).toBe(true);
      expect((await robot.arm!.setOpen('fridge_1', true)).ok).toBe(true);
    });
    expect(verdict).toMatchObject({ final_response: 'none', objects: ['apple_1', 'fridge_1'] });
    expect(sink.records.filter((x) => x.type === 'tool_call').map((x) => (x.type === 'tool_call' ? x.name : ''))).toEqual([
      'get_obj_state',
      'robot_holding',
      'get_obj_state',
      'get_obj_properties',
      'get_obj_state',
    ]);
  });
});

describe('raider/full-scene (LLMVisualObs, Appendix B.3)', () => {
  it('gives the model the scene as text from the robot’s belief and no tools; reads its verdict', async () => {
    opened = await openSim('kitchen');
    const model = new FakeModel([
      answer('{"final_response": "unfeasibility", "explanation": "cup_1 is inside the coffee machine.", "category": "IU2"}'),
    ]);
    const sink = new MemorySink();
    const c = new Conversation({
      model,
      workflow: await createWorkflow('raider/full-scene', opened.robot),
      robot: opened.robot,
      traceSinks: () => [sink],
    });
    const r = await c.send('place(mug, coffee_machine)');
    expect(JSON.parse(r.final!)).toMatchObject({ final_response: 'unfeasibility', category: 'IU2' });
    const req = model.requests[0]!;
    expect(req.tools).toEqual([]);
    const user = String(req.messages[1]!.content);
    expect(user).toMatch(/^Query action: place\(mug, coffee_machine\)\n\nVisual observation: /);
    expect(user).toContain('white mug (mug_1) (dirty, empty)');
    expect(user).toContain('cup_1 is inside coffee_machine_1');
    expect(user).toContain('the robot gripper is empty');
    // Only what the robot sees: the apple in the closed fridge is not in the observation.
    expect(user).not.toContain('apple_1');
    expect(String(req.messages[0]!.content)).not.toContain('Tool description');
  });
});
