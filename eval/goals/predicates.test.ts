import { describe, expect, it } from 'vitest';
import { checkGoal, factMatches, namedIds, parseGoal } from './predicates';

const world = {
  facts: ['on(lemon_1, table_1)', 'in(plum_1, bowl_1)', 'holding(robot, peach_1)', 'robot_has_arm_posture(robot, home)'],
  calls: [
    { name: 'get_objects', args: {}, ok: true },
    { name: 'pick', args: { object_name: 'Peach' }, ok: true },
    { name: 'place', args: { target: 'bowl' }, ok: false },
  ],
  answer: 'The block is too heavy to lift.',
};

describe('goal predicates', () => {
  it('match facts with wildcards, and say what holds instead', () => {
    expect(factMatches('in(plum_1, *)', 'in(plum_1, bowl_1)')).toBe(true);
    expect(factMatches('in(plum_1, *)', 'on(plum_1, bowl_1)')).toBe(false);
    expect(checkGoal({ fact: 'in(plum_1, bowl_1)' }, world)).toMatchObject({ ok: true, label: 'plum_1 is in bowl_1' });
    const miss = checkGoal({ fact: 'in(lemon_1, bowl_1)' }, world);
    expect(miss).toMatchObject({ ok: false, label: 'lemon_1 is in bowl_1', missing: 'now: on(lemon_1, table_1)' });
  });

  it('decide holding, calls with arguments (case-insensitive), order and the answer', () => {
    expect(checkGoal({ holding: 'peach_1' }, world).ok).toBe(true);
    expect(checkGoal({ holding: null }, world)).toMatchObject({ ok: false, missing: 'it holds peach_1' });
    expect(checkGoal({ called: 'pick', ok: true, args: { object_name: 'peach' } }, world).ok).toBe(true);
    expect(checkGoal({ called: 'place', ok: true }, world)).toMatchObject({ ok: false, missing: 'place was called 1×, not as asked' });
    expect(checkGoal({ before: [{ called: 'get_objects' }, { called: 'pick' }] }, world).ok).toBe(true);
    expect(checkGoal({ before: [{ called: 'pick' }, { called: 'get_objects' }] }, world)).toMatchObject({
      ok: false,
      missing: 'get_objects came first',
    });
    expect(checkGoal({ answer: 'heavy' }, world).ok).toBe(true);
    expect(checkGoal({ answer: 'heavy' }, { facts: [], calls: [] })).toMatchObject({ ok: false, missing: 'no answer yet' });
  });

  it('combine with all, any and not, counting what is missing', () => {
    const all = checkGoal({ all: [{ fact: 'in(plum_1, bowl_1)' }, { fact: 'in(lemon_1, bowl_1)' }, { holding: null }] }, world);
    expect(all.ok).toBe(false);
    expect(all.missing).toBe('2 of 3 not done');
    expect(all.children?.map((c) => c.ok)).toEqual([true, false, false]);
    expect(checkGoal({ any: [{ fact: 'in(lemon_1, bowl_1)' }, { fact: 'in(plum_1, *)' }] }, world).ok).toBe(true);
    expect(checkGoal({ not: { holding: 'peach_1' } }, world)).toMatchObject({ ok: false, missing: 'it holds, and must not' });
  });

  it('parse a goal written as JSON, naming the exact field that is wrong', () => {
    expect(parseGoal({ all: [{ fact: 'in(a_1, b_1)' }, { not: { holding: null } }] })).toEqual({
      all: [{ fact: 'in(a_1, b_1)' }, { not: { holding: null } }],
    });
    expect(() => parseGoal({ all: [{ fact: 'in(a_1, b_1)' }, { fact: 'lemon in bowl' }] })).toThrow(/^goal\.all\.1\.fact: a fact such as/);
    expect(() => parseGoal({ holds: 'x' })).toThrow(
      /^goal: expected one of fact, holding, called, answer, not, all, any, before, got holds/,
    );
    expect(() => parseGoal({ called: 'pick', okay: true })).toThrow(/^goal: unknown field okay/);
    expect(() => parseGoal({ before: [{ called: 'a' }, { fact: 'x(y)' }] })).toThrow(/^goal\.before: expected two "called" goals/);
    expect(() => parseGoal({ all: [] })).toThrow(/^goal\.all: expected a list of 1 to 20 goals/);
  });

  it('list the ids a goal names', () => {
    expect(namedIds({ all: [{ fact: 'in(lemon_1, *)' }, { holding: 'peach_1' }, { fact: 'robot_at(robot, poi_3)' }] })).toEqual([
      'lemon_1',
      'peach_1',
      'poi_3',
    ]);
  });
});
