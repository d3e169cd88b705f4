// Spatial relations (REFLECT heuristics, paper 001 §4.1.2) on layouts built for
// each case, checked both ways: the relation holds, and its look-alike does not.
import { describe, expect, it } from 'vitest';
import { layoutWorld, tableLayout } from '../../test/fixtures/worlds';
import { blockers, parseRelation, relationQuery } from './queries';

describe('check_obj_relationship on purpose-built layouts', () => {
  it('left and right are as the robot sees them (left is -Z in front of it)', async () => {
    const sim = await layoutWorld(
      tableLayout([
        { id: 'plum_1', type: 'plum', on: 'table_1', position: [0.3, 0, -0.15] },
        { id: 'peach_1', type: 'peach', on: 'table_1', position: [0.3, 0, 0.15] },
      ]),
    );
    expect(relationQuery(sim, 'on the left of', 'peach_1')).toEqual(['plum_1']);
    expect(relationQuery(sim, 'on the right of', 'plum_1')).toEqual(['peach_1']);
    expect(relationQuery(sim, 'on the left of', 'plum_1')).toEqual([]);
    expect(relationQuery(sim, 'on the right of', 'peach_1')).toEqual([]);
  });

  it('inside a bowl versus next to it; near versus far', async () => {
    const sim = await layoutWorld(
      tableLayout([
        { id: 'bowl_1', type: 'bowl', on: 'table_1', position: [0.3, 0, 0] },
        { id: 'plum_1', type: 'plum', in: 'bowl_1', position: [0.3, 0, 0] },
        { id: 'lemon_1', type: 'lemon', on: 'table_1', position: [0.3, 0, 0.14] },
        { id: 'peach_1', type: 'peach', on: 'table_1', position: [0.3, 0, -0.45] },
      ]),
    );
    expect(relationQuery(sim, 'inside', 'bowl_1')).toEqual(['plum_1']);
    expect(relationQuery(sim, 'on top of', 'bowl_1')).toEqual([]);
    // Near: the lemon beside the bowl, not the peach 0.35 m away, and not the table the bowl stands on.
    expect(relationQuery(sim, 'near', 'bowl_1')).toContain('lemon_1');
    expect(relationQuery(sim, 'near', 'bowl_1')).not.toContain('peach_1');
    expect(relationQuery(sim, 'near', 'bowl_1')).not.toContain('table_1');
    expect(relationQuery(sim, 'inside', 'lemon_1')).toEqual([]);
  });

  it('on top of a box versus beside it; above versus on top; below', async () => {
    const sim = await layoutWorld(
      tableLayout([
        { id: 'carton_1', type: 'cardboard_box', on: 'table_1', position: [0.3, 0, 0] },
        { id: 'wood_1', type: 'wooden_box', on: 'carton_1', position: [0.3, 0, 0] },
        { id: 'block_1', type: 'toy_block', on: 'wood_1', position: [0.3, 0, 0] },
        { id: 'tin_1', type: 'metal_box', on: 'table_1', position: [0.3, 0, 0.12] },
      ]),
    );
    expect(relationQuery(sim, 'on top of', 'wood_1')).toEqual(['block_1']);
    expect(relationQuery(sim, 'on top of', 'carton_1')).toEqual(['wood_1']);
    // The block is above the carton but not on top of it (the wooden box is between).
    expect(relationQuery(sim, 'above', 'carton_1')).toEqual(['block_1']);
    expect(relationQuery(sim, 'above', 'wood_1')).toEqual([]);
    expect(relationQuery(sim, 'below', 'block_1')).toEqual(['carton_1']);
    // Beside is not on top.
    expect(relationQuery(sim, 'on top of', 'tin_1')).toEqual([]);
    expect(relationQuery(sim, 'near', 'tin_1')).toContain('carton_1');
  });

  it('blocking: what rests on it, what is inside a pickable container, what hides it, what stands in the gripper corridor', async () => {
    const sim = await layoutWorld(
      tableLayout([
        { id: 'wood_1', type: 'wooden_box', on: 'table_1', position: [0.2, 0, -0.3] },
        { id: 'block_1', type: 'toy_block', on: 'wood_1', position: [0.2, 0, -0.3] },
        { id: 'bowl_1', type: 'bowl', on: 'table_1', position: [0.25, 0, 0.25] },
        { id: 'plum_1', type: 'plum', in: 'bowl_1', position: [0.25, 0, 0.25] },
        { id: 'strawberry_1', type: 'strawberry', on: 'table_1', position: [0.15, 0, 0] },
        { id: 'cup_1', type: 'cup', on: 'table_1', position: [0.15, 0, 0.055] },
        { id: 'tin_1', type: 'metal_box', on: 'table_1', position: [0.5, 0, -0.3] },
      ]),
    );
    // The block rests on the box (and, seen from the camera, hides its centre too).
    expect(blockers(sim, 'wood_1').map((b) => b.id)).toEqual(['block_1']);
    expect(blockers(sim, 'wood_1')[0]!.reasons).toContain('on top');
    expect(relationQuery(sim, 'blocking', 'bowl_1')).toEqual(['plum_1']);
    expect(relationQuery(sim, 'blocking', 'strawberry_1')).toEqual(['cup_1']);
    expect(blockers(sim, 'strawberry_1')[0]!.reasons).toEqual(['in the approach path']);
    // Nothing blocks the block on top, the plum in the bowl, or the lone tin.
    expect(relationQuery(sim, 'blocking', 'block_1')).toEqual([]);
    expect(relationQuery(sim, 'blocking', 'plum_1')).toEqual([]);
    expect(relationQuery(sim, 'blocking', 'tin_1')).toEqual([]);
    // Things standing on the table do not block the table.
    expect(relationQuery(sim, 'blocking', 'table_1')).toEqual([]);
  });

  it('reads relation names the way models write them', () => {
    expect(parseRelation('left_of')).toBe('on the left of');
    expect(parseRelation('On top of')).toBe('on top of');
    expect(parseRelation('in')).toBe('inside');
    expect(parseRelation('under')).toBe('below');
    expect(parseRelation('Blocking')).toBe('blocking');
    expect(parseRelation('behind')).toBeUndefined();
  });
});
