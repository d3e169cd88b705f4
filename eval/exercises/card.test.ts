import { describe, expect, it } from 'vitest';
import { buildSceneIndex } from '../../test/fixtures/scene-ids';
import { BUILTIN_CARDS, checkCard, checkCardNames, parseCardText } from './card';

describe('exercise cards', () => {
  it('the built-in cards are valid and name only ids their scene has', async () => {
    expect(BUILTIN_CARDS.length).toBeGreaterThanOrEqual(10);
    for (const card of BUILTIN_CARDS) checkCardNames(card, await buildSceneIndex(card.scene), card.id);
    expect(new Set(BUILTIN_CARDS.map((c) => c.id)).size).toBe(BUILTIN_CARDS.length);
  });

  it('a card written by hand: one line naming the field when it is wrong', () => {
    const ok = { id: 'my-card', scene: 'tabletop/fruits', title: 'T', task: 'Do it', goal: { fact: 'in(lemon_1, bowl_1)' } };
    expect(parseCardText(`\uFEFF${JSON.stringify(ok)}`).goal).toEqual({ fact: 'in(lemon_1, bowl_1)' });
    const bad = (patch: Record<string, unknown>) => () => parseCardText(JSON.stringify({ ...ok, ...patch }), 'my.json');
    expect(bad({ id: 'My Card' })).toThrow(/^my\.json: id: lower-case letters/);
    expect(bad({ title: undefined })).toThrow(/^my\.json: title: missing$/);
    expect(bad({ level: 2 })).toThrow(/^my\.json: \(card\): unknown field level/);
    expect(bad({ goal: { all: [{ fact: 'lemon in bowl' }] } })).toThrow(/^my\.json: goal\.all\.0\.fact: a fact such as/);
    expect(bad({ goal: undefined })).toThrow(/^my\.json: goal: missing/);
    expect(() => parseCardText('{ not json', 'my.json')).toThrow(/^my\.json: not JSON/);
  });

  it('a card naming an object the scene lacks is refused with the ids it has', async () => {
    const card = parseCardText(
      JSON.stringify({ id: 'x', scene: 'tabletop/fruits', title: 'T', task: 'T', goal: { fact: 'in(lemon_2, bowl_1)' } }),
    );
    const ids = await buildSceneIndex('tabletop/fruits');
    expect(() => checkCardNames(card, ids, 'x.json')).toThrow(
      /goal names "lemon_2", which tabletop\/fruits does not have \(its ids: .*lemon_1/,
    );
  });

  it('checks report ✓ and ✗ with what is missing', () => {
    const lemon = BUILTIN_CARDS.find((c) => c.id === 'fruits-lemon-bowl')!;
    const before = checkCard(lemon, { facts: ['on(lemon_1, table_1)', 'hand_empty(robot)'], calls: [] });
    expect(before.ok).toBe(false);
    expect(before.checks.children?.[0]).toMatchObject({ ok: false, missing: 'now: on(lemon_1, table_1)' });
    const after = checkCard(lemon, { facts: ['in(lemon_1, bowl_1)', 'hand_empty(robot)'], calls: [] });
    expect(after.ok).toBe(true);
  });
});
