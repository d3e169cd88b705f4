// The scorers' rule (scores come from the world or from structured answers
// checked against gold), case by case without the physics: a constant
// verdict scores κ 0; a structured RAIDER answer with a false object or the wrong
// issue loses Expl and Grnd; RTW answers are checked value by value with precision.
import { describe, expect, it } from 'vitest';
import { cohensKappa } from '../report/stats';
import { namesMatch, numbersMatch } from '../suites/rtw/answer';
import type { RaiderGold } from '../suites/raider/gold';
import { scoreAnswer } from '../suites/raider/score';

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
  issue: 'IU2',
  code: 'blocked',
  held: null,
  mustName: [
    ['mug_1', 'white mug', 'mug'],
    ['plate_2', 'plate'],
  ],
  nameAtLeast: 0,
  keywords: ['block'],
  evidence: [],
  explanation: 'The plate is on the mug.',
  recovery: [],
  goal: { kind: 'holding', object: 'mug_1' },
};
const answer = (o: object) => JSON.stringify({ final_response: 'unfeasibility', explanation: 'blocked', ...o });

describe('RAIDER structured answer', () => {
  it('gives Expl and Grnd to the issue and exactly the objects involved', () => {
    const s = scoreAnswer(gold, 'AN', answer({ category: 'IU2', objects: ['mug_1', 'plate_2'] }), []);
    expect([s.det, s.expl, s.grnd]).toEqual([true, true, true]);
  });
  it('takes them away for a false object, the wrong issue, or words without structure', () => {
    expect(scoreAnswer(gold, 'AN', answer({ category: 'IU2', objects: ['mug_1', 'plate_2', 'knife_1'] }), []).expl).toBe(false);
    expect(scoreAnswer(gold, 'AN', answer({ category: 'IU2', objects: ['mug_1', 'plate_2', 'knife_1'] }), []).grnd).toBe(false);
    expect(scoreAnswer(gold, 'AN', answer({ category: 'IU1', objects: ['mug_1', 'plate_2'] }), []).expl).toBe(false);
    const words = answer({ explanation: 'mug_1 plate_2 blocked on top out of reach holding ambiguous' });
    expect(scoreAnswer(gold, 'AN', words, []).expl).toBe(false);
    expect(scoreAnswer(gold, 'AN', words, []).grnd).toBe(false);
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
});
