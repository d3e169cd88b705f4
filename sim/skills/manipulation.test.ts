import { describe, expect, it } from 'vitest';
import { layoutWorld, sceneWorld, tableLayout } from '../../test/fixtures/worlds';
import { geoObjects } from '../perception/geo';
import { isInside, isOnTopOf } from '../perception/relations';
import { pick, place } from './manipulation';

const inside = (sim: Awaited<ReturnType<typeof sceneWorld>>, a: string, b: string): boolean => {
  const all = geoObjects(sim);
  return isInside(
    all.find((g) => g.id === a)!,
    all.find((g) => g.id === b)!,
  );
};

describe('pick and place in the physics world', () => {
  it('lifts a fruit and drops it into the bowl, where the geometry then finds it', async () => {
    const sim = await sceneWorld('tabletop/fruits');
    const before = sim.pose('lemon_1').p.y;
    const picked = await pick(sim, 'lemon_1');
    expect(picked).toMatchObject({ ok: true });
    expect(sim.pose('lemon_1').p.y).toBeGreaterThan(before + 0.08);
    expect(sim.isHeld('lemon_1')).toBe(true);
    const placed = await place(sim, { kind: 'object', id: 'bowl_1' });
    expect(placed).toMatchObject({ ok: true });
    expect(sim.isHeld('lemon_1')).toBe(false);
    expect(inside(sim, 'lemon_1', 'bowl_1')).toBe(true);
  });

  it('refuses to pick a bowl with a fruit inside, naming the fruit', async () => {
    const sim = await layoutWorld(
      tableLayout([
        { id: 'bowl_1', type: 'bowl', on: 'table_1', position: [0.3, 0, 0] },
        { id: 'plum_1', type: 'plum', in: 'bowl_1', position: [0.3, 0, 0] },
      ]),
    );
    expect(inside(sim, 'plum_1', 'bowl_1')).toBe(true);
    const r = await pick(sim, 'bowl_1');
    expect(r).toMatchObject({ ok: false, code: 'blocked' });
    expect(r.summary).toContain('plum_1');
    expect(sim.isHeld('bowl_1')).toBe(false);
  });

  it('fails to lift an object heavier than the payload: it slips in the physics and stays on the table', async () => {
    const sim = await layoutWorld(tableLayout([{ id: 'iron_1', type: 'cast_iron_block', on: 'table_1', position: [0.3, 0, 0.05] }]));
    const y0 = sim.pose('iron_1').p.y;
    const r = await pick(sim, 'iron_1');
    expect(r).toMatchObject({ ok: false, code: 'too_heavy' });
    expect(r.summary).toMatch(/1\.6\d kg/);
    expect(sim.isHeld('iron_1')).toBe(false);
    expect(Math.abs(sim.pose('iron_1').p.y - y0)).toBeLessThan(0.03);
  });

  it('says how far an out-of-reach object is and how far the arm reaches', async () => {
    const sim = await layoutWorld(tableLayout([{ id: 'plum_1', type: 'plum', on: 'table_1', position: [0.7, 0, 0.5] }]));
    const r = await pick(sim, 'plum_1');
    expect(r).toMatchObject({ ok: false, code: 'out_of_reach' });
    expect(r.summary).toMatch(/\d\.\d+ m from the arm's shoulder; the arm reaches 0\.65 m/);
  });

  it('refuses a pick when something rests on the object', async () => {
    const sim = await layoutWorld(
      tableLayout([
        { id: 'box_1', type: 'wooden_box', on: 'table_1', position: [0.3, 0, 0] },
        { id: 'block_1', type: 'toy_block', on: 'box_1', position: [0.3, 0, 0] },
      ]),
    );
    const all = geoObjects(sim);
    expect(
      isOnTopOf(
        all.find((g) => g.id === 'block_1')!,
        all.find((g) => g.id === 'box_1')!,
      ),
    ).toBe(true);
    const r = await pick(sim, 'box_1');
    expect(r).toMatchObject({ ok: false, code: 'blocked' });
    expect(r.summary).toContain('block_1');
  });

  it('refuses a second pick while the hand is full, and a place with an empty hand', async () => {
    const sim = await sceneWorld('tabletop/fruits');
    expect(await place(sim, { kind: 'object', id: 'bowl_1' })).toMatchObject({ ok: false, code: 'hand_empty' });
    await pick(sim, 'plum_1');
    expect(await pick(sim, 'peach_1')).toMatchObject({ ok: false, code: 'hand_full' });
  });
});
