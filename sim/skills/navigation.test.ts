import { describe, expect, it } from 'vitest';
import type { SceneInput } from '../../scenes/schema';
import { layoutWorld } from '../../test/fixtures/worlds';
import { dist, fromTuple } from '../math';
import { moveArm } from './posture';
import { navigate } from './navigation';
import { pick } from './manipulation';
import { perceive } from './perceive';
import { record } from '../perception/observe';

/** Mobipick in a room with two tables; a crate can be dropped in the aisle. */
function room(extra: SceneInput['objects'] = []): SceneInput {
  return {
    id: 'test/room',
    title: 'room',
    description: 'two tables',
    floor: { size: [8, 8] },
    robot: { config: 'mobipick', at: 'start' },
    objects: [
      { id: 'table_1', type: 'work_table', position: [2.5, 0, -1.5], yaw: 0 },
      { id: 'table_2', type: 'work_table', position: [2.5, 0, 1.5], yaw: 0 },
      { id: 'block_1', type: 'toy_block', on: 'table_1', position: [2.1, 0, -1.5] },
      ...extra,
    ],
    locations: [
      { id: 'start', kind: 'room', pose: { position: [0, 0, 0], yaw: 0 } },
      { id: 'at_table_1', kind: 'table', pose: { position: [1.2, 0, -1.5], yaw: 0 }, serves: ['table_1'] },
      { id: 'at_table_2', kind: 'table', pose: { position: [1.2, 0, 1.5], yaw: 0 }, serves: ['table_2'] },
      { id: 'corner', kind: 'waypoint', pose: { position: [0, 0, 2.5], yaw: 0 } },
    ],
    toolSet: 'planner-executor',
  };
}

describe('navigation', () => {
  it('drives to a location, arrives at its pose, and drains the battery by distance', async () => {
    const sim = await layoutWorld(room());
    const pct = sim.battery.percent;
    const r = await navigate(sim, { kind: 'location', id: 'at_table_1' });
    expect(r).toMatchObject({ ok: true, data: { location: 'at_table_1' } });
    expect(dist(sim.body.basePose.p, fromTuple([1.2, 0, -1.5]))).toBeLessThan(0.01);
    expect(sim.body.at).toBe('at_table_1');
    expect(sim.battery.percent).toBeLessThan(pct);
    // From there the wrist camera sees the block (observe posture), and the arm reaches it.
    expect(await pick(sim, 'block_1')).toMatchObject({ ok: false, code: 'not_perceived' });
    expect(await perceive(sim)).toMatchObject({ ok: true });
    expect(await moveArm(sim, 'home')).toMatchObject({ ok: true });
    expect(await pick(sim, 'block_1')).toMatchObject({ ok: true });
  });

  it('refuses to drive with the arm outside the footprint, naming the posture', async () => {
    const sim = await layoutWorld(room());
    expect(await moveArm(sim, 'observe')).toMatchObject({ ok: true });
    const r = await navigate(sim, { kind: 'location', id: 'at_table_2' });
    expect(r).toMatchObject({ ok: false, code: 'arm_outside_footprint' });
    expect(r.summary).toContain('observe');
    expect(dist(sim.body.basePose.p, fromTuple([0, 0, 0]))).toBeLessThan(1e-6);
    expect(await moveArm(sim, 'transport')).toMatchObject({ ok: true });
    expect(await navigate(sim, { kind: 'location', id: 'at_table_2' })).toMatchObject({ ok: true });
  });

  it('with an empty hand and the tucked posture still outside, says the posture is the cause (nothing to place)', async () => {
    const sim = await layoutWorld(room());
    // A base too small for the tucked arm: tucking cannot bring the arm in.
    const robot = sim.scene.robot;
    (sim.scene as { robot: typeof robot }).robot = { ...robot, base: { ...robot.base, size: [0.1, robot.base.size[1], 0.1] } };
    expect(await moveArm(sim, 'transport')).toMatchObject({ ok: true });
    const r = await navigate(sim, { kind: 'location', id: 'at_table_2' });
    expect(r).toMatchObject({ ok: false, code: 'arm_outside_footprint' });
    expect(r.summary).toMatch(/^the arm is \d+ cm outside the base footprint \(posture: transport\); even its transport posture/);
    expect(r.summary).not.toContain('what the hand holds');
  });

  it('routes around an obstacle through a waypoint, or names it when no way is free', async () => {
    // A crate in the straight line from start to table 2's location.
    const sim = await layoutWorld(room([{ id: 'crate_1', type: 'storage_container', position: [0.6, 0.05, 0.75] }]));
    const r = await navigate(sim, { kind: 'location', id: 'at_table_2' });
    expect(r).toMatchObject({ ok: true });
    expect((r.data as { via: number }).via).toBeGreaterThan(0);

    // A crate standing where the robot would park: no route can end there.
    const walled = await layoutWorld(room([{ id: 'crate_2', type: 'storage_container', position: [1.2, 0.05, 1.5] }]));
    const blocked = await navigate(walled, { kind: 'location', id: 'at_table_2' });
    expect(blocked).toMatchObject({ ok: false, code: 'path_blocked' });
    // Never perceived, the crate cannot be named; once perceived, it is.
    expect(blocked.summary).toBe('the way to at_table_2 is blocked by an object the robot had not perceived');
    record(walled, 'crate_2', 'seen');
    expect((await navigate(walled, { kind: 'location', id: 'at_table_2' })).summary).toContain('blocked by crate_2');
  });

  it('a fixed arm cannot drive', async () => {
    const sim = await layoutWorld({
      ...room(),
      robot: { config: 'tabletop_arm', pose: { position: [0, 0.75, 0], yaw: 0 } },
      locations: [],
    });
    expect(await navigate(sim, { kind: 'pose', position: { x: 1, y: 0, z: 0 }, yaw: 0, label: 'there' })).toMatchObject({
      ok: false,
      code: 'unsupported',
    });
  });
});
