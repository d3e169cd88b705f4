// The scorers' class rules, generated rather than named: a RAIDER verdict
// without the deciding check made (on the case's object, successfully) earns no
// Expl and no κ verdict, whatever the answer, and Grnd only from a call that
// returned the object; an object no tool of the
// case returned (and the query did not name) loses Expl; an RTW answer that
// names any other object of the world, by id or display name, fails precision;
// an ETP argument that packs several names is never the target's name.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { FlowEvent } from '../../agents/runtime/events';
import { fuzzRuns, fuzzSeed } from '../../test/fuzz/support/budget';
import { argsMatch } from '../suites/etp/index';
import type { RaiderGold } from '../suites/raider/gold';
import { receivedOf, scoreAnswer } from '../suites/raider/score';
import { namesMatch } from '../suites/rtw/answer';

const WORLD: Array<[string, string]> = [
  ['mug_1', 'white mug'],
  ['plate_2', 'plate'],
  ['knife_1', 'knife'],
  ['bowl_3', 'white bowl'],
  ['counter_1', 'counter'],
];
const query = 'Please pick up the white mug.';
const gold: RaiderGold = {
  action: 'pick',
  target: 'mug_1',
  targetNames: ['mug_1', 'white mug', 'mug'],
  candidates: ['mug_1'],
  visible: WORLD.map((w) => w[0]),
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

let seq = 0;
function call(name: string, args: object, content: string, ok: boolean): FlowEvent[] {
  const id = `p${++seq}`;
  return [
    { type: 'tool_start', stage: 'detect', iteration: 1, id, name, arguments: JSON.stringify(args) },
    { type: 'tool_end', stage: 'detect', iteration: 1, id, name, ok, status: ok ? 'ok' : 'failed', content, durationMs: 1 },
  ];
}

const names = fc.constantFrom(...WORLD.flat(), 'spoon', 'mug');
/** Calls that never decide the case: other tools, the deciding tool failed, or made on another object. */
const undecided = fc.array(
  fc.oneof(
    fc.constant(call('object_detection', {}, `Visible objects: ${WORLD.map((w) => `${w[0]} (${w[1]})`).join(', ')}.`, true)),
    fc.constant(call('robot_holding', {}, 'The robot is not holding anything.', true)),
    names.map((n) => call('check_obj_relationship', { relationship: 'on top of', obj: n }, `Objects on top of mug_1: plate_2.`, false)),
    fc
      .constantFrom('plate_2', 'knife_1', 'bowl_3', 'counter_1')
      .map((n) => call('check_obj_relationship', { relationship: 'on top of', obj: n }, `Objects on top of ${n}: plate_2.`, true)),
    names.map((n) => call('dist_to_target', { target: n }, `${n} is 0.5 m from the robot.`, true)),
  ),
  { maxLength: 5 },
);
const answer = fc.record({
  final_response: fc.constantFrom('unfeasibility', 'ambiguity', 'none'),
  category: fc.constantFrom('IU1', 'IU2', 'IU3', 'IU5', 'IU6', 'IA', 'IN'),
  objects: fc.uniqueArray(names, { maxLength: 4 }),
  explanation: fc.string({ maxLength: 20 }),
});

describe('scorer classes (property)', () => {
  it('RAIDER: no deciding check, no Expl and no κ verdict, whatever the answer; Grnd only from a call that returned the object', () => {
    fc.assert(
      fc.property(undecided, answer, (calls, a) => {
        const events = calls.flat();
        const s = scoreAnswer(gold, 'AN', JSON.stringify(a), events, receivedOf(events, query, gold.visible));
        expect(s.expl).toBe(false);
        expect(s.verdict).toBe(-1);
        // Grounding is naming the object the query means, which detection alone may settle: only from a successful call.
        if (s.grnd) expect(events.some((e) => e.type === 'tool_end' && e.ok && e.content.includes('mug_1'))).toBe(true);
      }),
      { numRuns: fuzzRuns(300), seed: fuzzSeed(36) },
    );
  });

  it('RAIDER: an object no tool of the case returned, and the query did not name, loses Expl', () => {
    const decided = [
      ...call('object_detection', {}, 'Visible objects: mug_1 (white mug).', true),
      ...call('check_obj_relationship', { relationship: 'on top of', obj: 'mug_1' }, 'Objects on top of mug_1: plate_2.', true),
    ];
    fc.assert(
      fc.property(fc.constantFrom('knife_1', 'bowl_3', 'counter_1', 'knife', 'white bowl'), fc.boolean(), (extra, first) => {
        const objects = first ? [extra, 'mug_1', 'plate_2'] : ['mug_1', 'plate_2', extra];
        const a = JSON.stringify({ final_response: 'unfeasibility', category: 'IU2', objects, explanation: '' });
        expect(scoreAnswer(gold, 'AN', a, decided, receivedOf(decided, query, gold.visible)).expl).toBe(false);
      }),
      { numRuns: fuzzRuns(50), seed: fuzzSeed(36) },
    );
  });

  it('RTW: naming any object the answer should not, by id or display name, fails precision', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...WORLD.filter((w) => w[0] !== 'counter_1' && w[0] !== 'plate_2')),
        fc.boolean(),
        fc.string({ maxLength: 12 }).filter((t) => !/[a-z0-9]/i.test(t)),
        (other, byId, filler) => {
          const text = `The plate (plate_2) is on counter_1${filler} and ${byId ? other[0] : `the ${other[1]}`} too.`;
          expect(namesMatch(text, [['counter_1']], 1, WORLD, ['plate_2'])).toBe(false);
        },
      ),
      { numRuns: fuzzRuns(100), seed: fuzzSeed(36) },
    );
  });

  it('ETP: an argument packing several names is never the target name', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.constantFrom(...WORLD.map((w) => w[0])), { minLength: 2, maxLength: 5 }),
        fc.constantFrom(', ', ' ', ' and ', ';'),
        (ids, sep) => {
          const target = ids[0]!;
          const packed = fc.sample(fc.shuffledSubarray(ids, { minLength: ids.length }), { numRuns: 1, seed: 1 })[0]!.join(sep);
          expect(argsMatch({ obj: packed }, { obj: target }, { obj: [target] })).toBe(false);
          expect(argsMatch({ obj: target }, { obj: target }, { obj: [target] })).toBe(true);
        },
      ),
      { numRuns: fuzzRuns(100), seed: fuzzSeed(36) },
    );
  });
});
