// The three ALRM tabletop environments (paper 002 §IV.A): every object the tasks
// name can be picked and put where the tasks put it, and the heavy one cannot.
import { describe, expect, it } from 'vitest';
import { sceneWorld } from '../../test/fixtures/worlds';
import { geoObjects } from '../perception/geo';
import { isInside } from '../perception/relations';
import type { SimWorld } from '../world/sim-world';
import { pick, place } from './manipulation';

function inside(sim: SimWorld, a: string, b: string): boolean {
  const all = geoObjects(sim);
  return isInside(
    all.find((g) => g.id === a)!,
    all.find((g) => g.id === b)!,
  );
}

async function pickInto(sim: SimWorld, id: string, container: string): Promise<void> {
  expect(await pick(sim, id), `pick ${id}`).toMatchObject({ ok: true });
  expect(await place(sim, { kind: 'object', id: container, relation: 'in' }), `place ${id}`).toMatchObject({ ok: true });
  expect(inside(sim, id, container)).toBe(true);
}

describe('ALRM tabletop scenes', () => {
  it('utensils: spatula, spoon, fork and can all go into the basket and stay there', async () => {
    const sim = await sceneWorld('tabletop/utensils');
    // Longest first: the wrist turns each along the basket, packed from the near corner.
    for (const id of ['spatula_1', 'spoon_1', 'fork_1', 'coke_can_1']) await pickInto(sim, id, 'basket_1');
    for (const id of ['spoon_1', 'fork_1', 'spatula_1', 'coke_can_1']) expect(inside(sim, id, 'basket_1')).toBe(true);
  });

  it('boxes: the light boxes go into the container; the cast-iron block is too heavy to lift', async () => {
    const sim = await sceneWorld('tabletop/boxes');
    await pickInto(sim, 'cardboard_box_1', 'container_1');
    await pickInto(sim, 'toy_block_1', 'container_1');
    const r = await pick(sim, 'cast_iron_block_1');
    expect(r).toMatchObject({ ok: false, code: 'too_heavy' });
    expect(sim.heldId()).toBeUndefined();
  });
});
