// The assistive plan of paper 001 §5.2 end to end on kitchen/assistive, one plan
// step per turn through `raider`: approach the medicine counter (a chair blocks
// the way), pick Adriana's medicine (her preference, §5.1's
// retrieve_user_information, says which; it is out of reach), approach Adriana
// (she is out of sight), hand it over (she is not looking). Each issue is
// detected, and recovered from with the simulated user: the person answers and
// acts in the world (moves the chair, brings the medicine closer) through the
// test's SimControl, as an evaluation runner's ground-truth callback would.
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

describe('raider on kitchen/assistive: delivering Adriana’s medicine (§5.1, §5.2)', () => {
  it('detects and recovers from each step’s issue until Adriana holds her medicine', async () => {
    opened = await openSim('kitchen/assistive');
    const { robot, control } = opened;
    const model = new FakeModel([
      // 1. approach the medicine counter: the chair blocks the way.
      calls(['object_detection'], ['check_free_path', { target: 'medicine_counter' }]),
      verdict({ final_response: 'unfeasibility', explanation: 'chair_3 blocks the path to the medicine counter.', category: 'IU2' }),
      plan('ask("Adriana, could you move the chair in front of the medicine counter, please?");', 'move_to("medicine_counter");'),
      calls(['check_free_path', { target: 'medicine_counter' }]),
      verdict({ final_response: 'none', explanation: 'The path is free now.' }),
      // 2. pick Adriana's medicine: her stored preference grounds it; it is out of reach.
      calls(['retrieve_user_information', { query: "Adriana's medicine" }], ['object_detection']),
      calls(
        ['dist_between_objs', { obj1: 'plant_1', obj2: 'medicine_1' }],
        ['dist_between_objs', { obj1: 'plant_1', obj2: 'medicine_2' }],
        ['dist_robot_to_obj', { obj: 'medicine_1' }],
      ),
      verdict({
        final_response: 'unfeasibility',
        explanation: 'medicine_1, the one closest to the plant, is out of reach.',
        category: 'IU1',
        objects: ['medicine_1'],
      }),
      plan('ask("Adriana, could you put your medicine closer to me, please?");', 'pick("medicine_1");'),
      calls(['dist_robot_to_obj', { obj: 'medicine_1' }]),
      verdict({ final_response: 'none', explanation: 'medicine_1 is within reach now.' }),
      // 3. approach Adriana: she is not in sight; she says where she is.
      calls(['check_humans_around']),
      verdict({ final_response: 'unfeasibility', explanation: 'Nobody is in sight, so Adriana cannot be approached.', category: 'IU3' }),
      // Out of sight, she cannot be driven to by name (the robot acts on what it perceives):
      // it goes where the dining side is in view first, then to her.
      plan(
        'const where = ask("Adriana, I cannot see you. Where are you?");',
        'say("Thank you, I am coming.");',
        'move_to("room_view");',
        'move_to("adriana");',
      ),
      calls(['check_free_path', { target: 'room_view' }]),
      verdict({ final_response: 'none', explanation: 'The path to the view of the dining side is free.' }),
      calls(['check_free_path', { target: 'adriana' }]),
      verdict({ final_response: 'none', explanation: 'The path to Adriana is free.' }),
      // 4. hand it over: she is not looking at the robot; asking her by name turns her.
      calls(
        ['dist_robot_to_human', { specific_human: 'adriana' }],
        ['human_hands_free', { specific_human: 'adriana' }],
        ['detect_human_gaze', { specific_human: 'adriana' }],
      ),
      verdict({ final_response: 'unfeasibility', explanation: 'Adriana is not looking at the robot.', category: 'IU6' }),
      plan('say("Adriana, could you look at me, please?");', 'handover("medicine_1", "adriana");'),
      calls(['detect_human_gaze', { specific_human: 'adriana' }]),
      verdict({ final_response: 'none', explanation: 'Adriana is looking at the robot, within reach, with a free hand.' }),
    ]);
    // The person: answers, and does what she is asked in the world.
    const user = simulatedUser({
      // She takes a second to do it (the world steps while the robot waits for her).
      truth: async ({ question }) => {
        if (/chair/i.test(question)) {
          control.inject({ type: 'object_moved', object: 'chair_3', to: [0.3, 0, 2.55], by: 'adriana' });
          await robot.wait(1);
          return 'I moved the chair.';
        }
        if (/closer/i.test(question)) {
          control.inject({ type: 'object_moved', object: 'medicine_1', to: [2.12, 0.902, 2.05], by: 'adriana' });
          await robot.wait(1);
          return 'Here, I put it at the front.';
        }
        if (/where are you/i.test(question)) return 'I am Adriana, by the dining table.';
        return undefined;
      },
    });
    const sink = new MemorySink();
    const c = new Conversation({ model, workflow: await createWorkflow('raider', robot), robot, traceSinks: () => [sink], askUser: user });

    const step1 = await c.send('approach medicine_counter');
    expect(step1.final).toContain('The plan ran to the end.');
    expect(control.facts()).toContain('robot_at(robot, medicine_counter)');

    const step2 = await c.send('pick adrianas_medicine medicine_counter');
    expect(step2.final).toContain('The plan ran to the end.');
    expect(control.holding()).toBe('medicine_1');
    // §5.1: the preference came from the user corpus, and grounded the medicine by distance to the plant.
    const pref = of(sink, 'tool_result').find((x) => x.name === 'retrieve_user_information')!;
    expect(pref).toMatchObject({ stage: 'detect', result: "Adriana's medicine is the one closest to the plant." });
    const [near, far] = of(sink, 'tool_result')
      .filter((x) => x.name === 'dist_between_objs')
      .map((x) => (x.data as { distanceM: number }).distanceM);
    expect(near!).toBeLessThan(far!);

    const step3 = await c.send('approach adriana');
    expect(step3.final).toContain('The plan ran to the end.');
    expect(await robot.people!.distanceTo('adriana')).toBeLessThanOrEqual(0.5);

    const step4 = await c.send('handover adrianas_medicine adriana');
    expect(step4.final).toContain('The plan ran to the end.');
    expect(control.holding()).toBeUndefined();
    expect(control.facts()).toContain('held_by(medicine_1, adriana)');

    expect(user.asked).toHaveLength(3);
    expect(of(sink, 'answer').map((x) => [x.by, x.answer])).toEqual([
      ['simulated', 'I moved the chair.'],
      ['simulated', 'Here, I put it at the front.'],
      ['simulated', 'I am Adriana, by the dining table.'],
    ]);
    // Every step's actions were checked by RAIDER before they ran, and none was refused.
    expect(
      of(sink, 'note')
        .filter((x) => x.stage === 'recovery/check')
        .map((x) => x.text),
    ).toEqual([
      'check move_to(medicine_counter): none',
      'check pick(medicine_1): none',
      'check move_to(room_view): none',
      'check move_to(adriana): none',
      'check handover(medicine_1, adriana): none',
    ]);
    expect(model.requests).toHaveLength(23);
  });
});
