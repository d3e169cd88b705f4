// The scorers' rule (scores come from the world or from structured answers
// checked against gold), case by case without the physics: a constant
// verdict scores κ 0; a structured RAIDER answer with a false object or the wrong
// issue loses Expl and Grnd; RTW answers are checked value by value with precision.
import { describe, expect, it } from 'vitest';
import { cohensKappa } from '../report/stats';
import { namesMatch, numbersMatch } from '../suites/rtw/answer';
import type { RaiderGold } from '../suites/raider/gold';
import { receivedOf, scoreAnswer } from '../suites/raider/score';
import { receivedText, withoutEcho } from '../core/received';
import type { FlowEvent } from '../../agents/runtime/events';

describe("Cohen's κ", () => {
  it('is 0 for a constant answer and for no answer, 1 for a perfect one', () => {
    const gold = [2, 2, 2, 2, 2, 2, 1, 0];
    expect(cohensKappa(gold.map((g) => [2, g] as const))).toBeCloseTo(0);
    expect(cohensKappa(gold.map((g) => [-1, g] as const))).toBeCloseTo(0);
    expect(cohensKappa(gold.map((g) => [g, g] as const))).toBe(1);
  });
});

const gold: RaiderGold = {
  action: 'pick',
  target: 'mug_1',
  targetNames: ['mug_1', 'white mug', 'mug'],
  candidates: ['mug_1'],
  visible: ['mug_1', 'plate_2', 'knife_1'],
  issue: 'IU2',
  code: 'blocked',
  held: null,
  mustName: [
    ['mug_1', 'white mug', 'mug'],
    ['plate_2', 'plate'],
  ],
  nameAtLeast: 0,
  keywords: ['block'],
  evidence: [
    { tool: 'object_detection', args: {} },
    { tool: 'check_obj_relationship', args: { relationship: 'on top of', obj: 'mug_1' } },
  ],
  explanation: 'The plate is on the mug.',
  recovery: [],
  goal: { kind: 'holding', object: 'mug_1' },
};
const answer = (o: object) => JSON.stringify({ final_response: 'unfeasibility', explanation: 'blocked', ...o });

let seq = 0;
/** A tool call and its result as the flow records them. */
function call(name: string, args: object, content: string, ok = true): FlowEvent[] {
  const id = `c${++seq}`;
  return [
    { type: 'tool_start', stage: 'detect', iteration: 1, id, name, arguments: JSON.stringify(args) },
    { type: 'tool_end', stage: 'detect', iteration: 1, id, name, ok, status: ok ? 'ok' : 'failed', content, durationMs: 1 },
  ];
}
const query = 'Please pick up the white mug.';
const checked = [
  ...call('object_detection', {}, 'Visible objects: mug_1 (white mug), plate_2 (plate), knife_1 (knife).'),
  ...call('check_obj_relationship', { relationship: 'blocking', obj: 'white mug' }, 'Objects blocking mug_1 (white mug): plate_2 (plate).'),
];
const score = (g: RaiderGold, text: string, events: FlowEvent[]) =>
  scoreAnswer(g, 'AN', text, events, receivedOf(events, query, g.visible));

describe('RAIDER structured answer', () => {
  it('gives Expl and Grnd to the issue and exactly the objects involved, once the deciding check was made', () => {
    const s = score(gold, answer({ category: 'IU2', objects: ['mug_1', 'plate_2'] }), checked);
    expect([s.det, s.expl, s.grnd]).toEqual([true, true, true]);
  });
  it('takes them away for a false object, the wrong issue, or words without structure', () => {
    expect(score(gold, answer({ category: 'IU2', objects: ['mug_1', 'plate_2', 'knife_1'] }), checked).expl).toBe(false);
    expect(score(gold, answer({ category: 'IU2', objects: ['mug_1', 'plate_2', 'knife_1'] }), checked).grnd).toBe(false);
    expect(score(gold, answer({ category: 'IU1', objects: ['mug_1', 'plate_2'] }), checked).expl).toBe(false);
    const words = answer({ explanation: 'mug_1 plate_2 blocked on top out of reach holding ambiguous' });
    expect(score(gold, words, checked).expl).toBe(false);
    expect(score(gold, words, checked).grnd).toBe(false);
  });
  it('gives nothing for facts no tool of the case revealed: no check, a failed check, an id never received', () => {
    const right = answer({ category: 'IU2', objects: ['mug_1', 'plate_2'] });
    expect(score(gold, right, []).expl).toBe(false);
    expect(score(gold, right, checked.slice(0, 2)).expl).toBe(false);
    const failed = [
      ...checked.slice(0, 2),
      ...call('check_obj_relationship', { relationship: 'blocking', obj: 'mug_1' }, 'no object "x"', false),
    ];
    expect(score(gold, right, failed).expl).toBe(false);
    // The check on another object decides nothing about this one.
    const elsewhere = [
      ...checked.slice(0, 2),
      ...call('check_obj_relationship', { relationship: 'on top of', obj: 'knife_1' }, 'Objects on top of knife_1: plate_2.'),
    ];
    expect(score(gold, right, elsewhere).expl).toBe(false);
    // plate_2 named by the answer but never by a tool result.
    const unseen = [
      ...call('object_detection', {}, 'Visible objects: mug_1.'),
      ...call('check_obj_relationship', { relationship: 'inside', obj: 'mug_1' }, 'No objects inside mug_1.'),
    ];
    expect(score(gold, right, unseen).expl).toBe(false);
    // And the verdict counts for κ only after its check.
    expect(score(gold, right, []).verdict).toBe(-1);
    expect(score(gold, right, checked).verdict).toBe(2);
  });
  it('the cases that name no object (not present, an empty hand) need their own check: the verb alone earns nothing', () => {
    const absent: RaiderGold = {
      ...gold,
      target: null,
      targetNames: [],
      candidates: [],
      issue: 'IU3',
      code: null,
      mustName: [['spoon']],
      evidence: [{ tool: 'object_detection', args: {} }],
    };
    const iu3 = answer({ category: 'IU3', objects: [] });
    expect(score(absent, iu3, []).expl).toBe(false);
    expect(score(absent, iu3, []).grnd).toBe(false);
    expect(score(absent, iu3, checked.slice(0, 2)).expl).toBe(true);
    // Naming back the absent object the query asked for reveals nothing, and costs nothing; another name no tool gave loses.
    const seen = call('object_detection', {}, 'Visible objects: plate_2 (plate).');
    const named = (o: string) => score({ ...absent, mustName: [['white mug']] }, answer({ category: 'IU3', objects: [o] }), seen).expl;
    expect(named('white mug')).toBe(true);
    expect(named('knife_1')).toBe(false);
    const empty: RaiderGold = {
      ...gold,
      action: 'place',
      issue: 'IU6',
      code: 'hand_empty',
      mustName: [],
      evidence: [
        { tool: 'object_detection', args: {} },
        { tool: 'robot_holding', args: {} },
      ],
    };
    const iu6 = answer({ category: 'IU6', objects: [] });
    expect(score(empty, iu6, checked.slice(0, 2)).expl).toBe(false);
    expect(score(empty, iu6, call('robot_holding', {}, 'The robot is not holding anything.')).expl).toBe(true);
  });
  it('a whole-scene observation given as input stands for the perception it contains, not for distances or properties', () => {
    const observed: FlowEvent[] = [
      {
        type: 'history',
        stage: 'detect',
        newFrom: 0,
        messages: [
          {
            role: 'user',
            content: `Query action: ${query}\n\nVisual observation: white mug (mug_1), plate (plate_2), knife (knife_1). plate_2 is on top of mug_1. the robot gripper is empty.`,
          },
        ],
      },
    ];
    expect(score(gold, answer({ category: 'IU2', objects: ['mug_1', 'plate_2'] }), observed).expl).toBe(true);
    const far: RaiderGold = {
      ...gold,
      issue: 'IU1',
      code: 'out_of_reach',
      mustName: [gold.mustName[0]!],
      evidence: [
        { tool: 'object_detection', args: {} },
        { tool: 'dist_to_target', args: { target: 'mug_1' } },
      ],
    };
    expect(score(far, answer({ category: 'IU1', objects: ['mug_1'] }), observed).expl).toBe(false);
    // The query's own words are not an observation: the display name it gives is not an id received.
    const echoed: FlowEvent[] = [{ type: 'history', stage: 'detect', newFrom: 0, messages: [{ role: 'user', content: query }] }];
    expect(score(gold, answer({ category: 'IU2', objects: ['white mug', 'plate'] }), echoed).expl).toBe(false);
  });
});

describe('RTW information answers', () => {
  it('checks quantities within 2 % and refuses extra numbers', () => {
    expect(numbersMatch('My arm lifts at most 3 kg.', [3])).toBe(true);
    expect(numbersMatch('mug_1: 0.35 kg; mug_2: 0.3 kg', [0.35, 0.3])).toBe(true);
    expect(numbersMatch('1, 2, 3, 4, 5 kg', [3])).toBe(false);
    expect(numbersMatch('about 5 kg', [3])).toBe(false);
  });
  it('refuses an answer that names other objects of the world', () => {
    const world = ['mug_1', 'mug_2', 'table_1', 'counter_1'];
    expect(namesMatch('The blue mug (mug_2) is on table_1.', [['table_1']], 1, world, ['mug_2'])).toBe(true);
    expect(namesMatch('mug_1, mug_2, table_1, counter_1', [['table_1']], 1, world, ['mug_2'])).toBe(false);
  });
  it('checks precision by every name an object goes by: display names name other objects as ids do', () => {
    const world = [
      ['mug_1', 'white mug'],
      ['mug_2', 'blue mug'],
      ['kettle_1', 'kettle'],
      ['counter_1', 'counter'],
    ];
    // The static answer: display names of objects the question does not ask about.
    expect(
      namesMatch('I see a white mug, a blue mug and a kettle; the blue mug is on the counter.', [['counter_1']], 1, world, ['mug_2']),
    ).toBe(false);
    expect(namesMatch('The blue mug (mug_2) is on counter_1.', [['counter_1']], 1, world, ['mug_2'])).toBe(true);
  });
  it('takes facts only from what the case returned: successful calls and inputs, never the instruction or a failed call', () => {
    const events: FlowEvent[] = [
      ...call('describe_yourself', {}, 'Arm payload 3 kg.'),
      ...call('what_do_you_see', {}, 'mug_9 (green mug)', false),
      { type: 'history', stage: 'main', newFrom: 0, messages: [{ role: 'user', content: 'How heavy is mug_4? Scene: kettle_1.' }] },
    ];
    const got = receivedText(events, 'How heavy is mug_4?');
    expect(got).toMatch(/3 kg/);
    expect(got).toMatch(/kettle_1/);
    expect(got).not.toMatch(/mug_9/);
    expect(got).not.toMatch(/mug_4/);
  });
  it('takes out what a result echoes of its own call: a said statement, a setter, the name asked about', () => {
    expect(withoutEcho('Success: said: "I am holding mug_1.".', { statement: 'I am holding mug_1.' })).not.toMatch(/mug_1/);
    expect(withoutEcho('mug is 0.5 m from the robot.', { target: 'mug' })).not.toMatch(/\bmug\b/);
    expect(withoutEcho('mug_1 (white mug) is 0.5 m away; nothing on mug_10.', { target: 'mug_1' })).toBe(
      '  (white mug) is 0.5 m away; nothing on mug_10.',
    );
    expect(withoutEcho('mug_1: 0.35 kg, mug_2: 0.3 kg', { node_type: 'mug', limit: 0 })).toBe('mug_1: 0.35 kg, mug_2: 0.3 kg');
    expect(withoutEcho('stepped 0.1 m forward', { forward: 0.1 })).toBe('stepped   m forward');
  });
});
