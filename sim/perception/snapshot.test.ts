// The semantic snapshot (paper 003 §5) of a known layout, and the observation
// buffer under partial observability: nothing known before looking; facts after
// observing; stale after the base moves; forgotten when someone takes it away.
import { describe, expect, it } from 'vitest';
import { layoutWorld, tableLayout } from '../../test/fixtures/worlds';
import type { SceneInput } from '../../scenes/schema';
import type { SimWorld } from '../world/sim-world';
import { resolveName } from './names';
import { observe } from './observe';
import { renderFacts, snapshotFacts } from './snapshot';

const settle = (sim: SimWorld, seconds = 0.3): void => {
  for (let i = 0; i < Math.round(seconds / sim.dt); i++) sim.step();
};

const objects: SceneInput['objects'] = [
  { id: 'bowl_1', type: 'bowl', on: 'table_1', position: [0.3, 0, -0.2], state: { dirty: true } },
  { id: 'plum_1', type: 'plum', in: 'bowl_1', position: [0.3, 0, -0.2] },
  { id: 'cup_1', type: 'cup', on: 'table_1', position: [0.2, 0, 0.15], state: { filled: true } },
  { id: 'wood_1', type: 'wooden_box', on: 'table_1', position: [0.4, 0, 0.15] },
  { id: 'block_1', type: 'toy_block', on: 'wood_1', position: [0.4, 0, 0.15] },
];
const extra: Partial<SceneInput> = {
  locations: [{ id: 'table_front', kind: 'table', pose: { position: [-0.05, 0.75, 0], yaw: 0 }, serves: ['table_1'] }],
};

describe('semantic snapshot', () => {
  it('lists robot, placement and state facts, sorted', async () => {
    const sim = await layoutWorld(tableLayout(objects, extra));
    expect(snapshotFacts(sim)).toEqual(
      [
        'battery(robot, okay)',
        'battery_percent(robot, 100)',
        'filled(cup_1)',
        'dirty(bowl_1)',
        'hand_empty(robot)',
        'in(plum_1, bowl_1)',
        'on(block_1, wood_1)',
        'on(bowl_1, table_1)',
        'on(cup_1, table_1)',
        'on(wood_1, table_1)',
        'robot_at(robot, table_front)',
        'robot_has_arm_posture(robot, home)',
      ].sort(),
    );
    sim.inject({ type: 'estop_pressed' });
    sim.inject({ type: 'set_battery', percent: 24.6 });
    const facts = snapshotFacts(sim);
    expect(facts).toContain('estop_pressed(robot)');
    expect(facts).toContain('battery(robot, low)');
    expect(facts).toContain('battery_percent(robot, 25)');
    expect(renderFacts(facts).split('\n')[0]).toMatch(/\(robot[,)]/);
  });

  it('partial observability: known only after observing; stale after the base moves; forgotten when taken away', async () => {
    const sim = await layoutWorld(tableLayout(objects, { ...extra, perception: { partialObservability: true } }));
    const objectFacts = (): string[] => snapshotFacts(sim).filter((f) => /^(on|in|stale)\(/.test(f));
    // Furniture and places are known a priori; objects are not.
    expect(objectFacts()).toEqual([]);
    expect(resolveName(sim, 'plum', { pool: 'known' })).toMatchObject({ ok: false, reason: 'unknown' });
    expect(resolveName(sim, 'table', { pool: 'known', kinds: ['object'] })).toMatchObject({ ok: true, id: 'table_1' });

    const first = observe(sim);
    expect(first.observed.map((o) => `${o.id}:${o.relation}:${o.support}`)).toEqual([
      'block_1:on:wood_1',
      'bowl_1:on:table_1',
      'cup_1:on:table_1',
      'plum_1:in:bowl_1',
      'wood_1:on:table_1',
    ]);
    expect(first.removed).toEqual([]);
    expect(objectFacts()).toEqual([
      'in(plum_1, bowl_1)',
      'on(block_1, wood_1)',
      'on(bowl_1, table_1)',
      'on(cup_1, table_1)',
      'on(wood_1, table_1)',
    ]);
    expect(resolveName(sim, 'plum', { pool: 'known' })).toMatchObject({ ok: true, id: 'plum_1' });

    // The base moves: what it saw is still listed, but stale.
    sim.body.baseMoves++;
    expect(objectFacts()).toContain('stale(cup_1)');
    expect(objectFacts()).toContain('on(cup_1, table_1)');

    // Someone takes the cup off the table (out of view, behind the robot); the next look forgets it.
    sim.inject({ type: 'object_moved', object: 'cup_1', to: [-1.0, 0.05, 0], by: 'person_1' });
    settle(sim);
    const second = observe(sim);
    expect(second.removed).toEqual(['cup_1']);
    expect(second.observed.map((o) => o.id)).not.toContain('cup_1');
    const facts = objectFacts();
    expect(facts.some((f) => f.includes('cup_1'))).toBe(false);
    expect(facts.some((f) => f.startsWith('stale('))).toBe(false);
    expect(facts).toContain('in(plum_1, bowl_1)');
  });

  it('keeps an observation whose spot is hidden now rather than in plain view', async () => {
    const sim = await layoutWorld(
      tableLayout(
        [
          { id: 'block_1', type: 'toy_block', on: 'table_1', position: [0.56, 0, 0] },
          { id: 'bin_1', type: 'trash_bin', on: 'table_1', position: [0.3, 0, 0.45] },
        ],
        { perception: { partialObservability: true } },
      ),
    );
    expect(observe(sim).observed.map((o) => o.id)).toEqual(['bin_1', 'block_1']);
    // The bin now stands between the camera and the block: the block is not seen, but not forgotten.
    sim.inject({ type: 'object_moved', object: 'bin_1', to: [0.39, 0.87, 0], by: 'person_1' });
    settle(sim);
    const r = observe(sim);
    expect(r.observed.map((o) => o.id)).toEqual(['bin_1']);
    expect(r.removed).toEqual([]);
    expect(sim.belief.has('block_1')).toBe(true);
  });
});
