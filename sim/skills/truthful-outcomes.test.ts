// Truthful outcomes: outcomes from the physics, labels that follow the state,
// external changes applied at once, nothing named the robot does not know, and
// exactly one location for every object.
import { describe, expect, it } from 'vitest';
import { layoutWorld, sceneWorld, tableLayout } from '../../test/fixtures/worlds';
import { Grasp } from '../body/grasp';
import { poseApply, qAxisAngle, v3 } from '../math';
import { observe, record } from '../perception/observe';
import { snapshotFacts, worldFacts } from '../perception/snapshot';
import { locationOf, locations, placeFact } from '../world/location';
import { describePlace } from '../world/place';
import type { SimWorld } from '../world/sim-world';
import { tracked } from './incidents';
import { pick, place } from './manipulation';
import { navigate, step } from './navigation';
import { success } from './outcome';
import { perceive } from './perceive';
import { moveArm, moveTool, nudgeTool } from './posture';

const settle = (sim: SimWorld, seconds = 1): void => {
  for (let i = 0; i < Math.round(seconds / sim.dt); i++) sim.step();
};

describe('containment is read in the container frame', () => {
  it('a box turned over with something wedged inside still holds it; what falls out is reported', async () => {
    const sim = await layoutWorld(
      tableLayout([
        { id: 'box_1', type: 'storage_container', on: 'table_1', position: [0.3, 0, 0] },
        { id: 'block_1', type: 'toy_block', on: 'table_1', position: [0.3, 0, 0.25] },
      ]),
    );
    settle(sim, 0.2);
    // Tip the box onto its side with the block inside, as if carried: pose in the box frame kept.
    const box = sim.world.getRigidBody(sim.entity('box_1').body);
    const blk = sim.world.getRigidBody(sim.entity('block_1').body);
    const tipped = { p: box.translation(), q: qAxisAngle(v3(1, 0, 0), Math.PI / 2) };
    box.setRotation(tipped.q, true);
    const c = sim.entity('box_1').spec.receptacle!.interior.center;
    blk.setTranslation(poseApply(tipped, v3(c[0], c[1], c[2])), true);
    blk.setRotation(tipped.q, true);
    sim.refreshQueries();
    expect(locationOf(sim, 'block_1')).toEqual({ kind: 'in', id: 'box_1' });
    // A skill during which the block leaves the box reports it, in words naming both.
    const spill = tracked(
      async (s: SimWorld) => {
        s.world.getRigidBody(s.entity('block_1').body).setTranslation({ x: 0.45, y: 0.8, z: -0.2 }, true);
        s.refreshQueries();
        return success('did something');
      },
      () => [],
    );
    const r = await spill(sim);
    expect(r.incidents?.join(' ')).toMatch(/block_1 fell out of box_1; it is now on table_1/);
  });
});

describe('a skill accounts for everything that happened during it', () => {
  it('place fails with "slipped" when the carried object leaves the fingers on the way, saying where it is', async () => {
    const sim = await sceneWorld('tabletop/fruits');
    expect(await pick(sim, 'lemon_1')).toMatchObject({ ok: true });
    // The grip weakens once the arm starts moving (as a worn gripper would).
    let n = 0;
    sim.processHooks.push((s) => {
      if (++n === 3 && s.grasp) s.grasp = new Grasp({ ...s.grasp.state, limits: { payloadKg: 0.001, gripTorqueNm: 0.0001 } });
    });
    const r = await place(sim, { kind: 'object', id: 'bowl_1' });
    expect(r).toMatchObject({ ok: false, code: 'slipped' });
    expect(r.summary).toMatch(/lemon_1 .*slipped out of the fingers on the way to .*; it is now (on|in) /);
    expect(r.summary).toContain(placeFact('lemon_1', locationOf(sim, 'lemon_1')).replace(/^\w+\(lemon_1, (.+)\)$/, '$1'));
  });

  it('a motion that knocks another object over names it (the tool pushed into a can)', async () => {
    const sim = await layoutWorld(tableLayout([{ id: 'can_1', type: 'coke_can', on: 'table_1', position: [0.3, 0, 0.1] }]));
    const c = sim.pose('can_1').p;
    expect(await moveTool(sim, v3(c.x, c.y + 0.03, c.z - 0.12), 0)).toMatchObject({ ok: true });
    // The hand sweeps sideways through where the can stands.
    const r = await nudgeTool(sim, 0, -0.1, 0);
    expect(r.ok).toBe(true);
    expect(sim.pose('can_1').p.y).toBeLessThan(c.y - 0.005);
    expect(r.incidents?.join(' ')).toMatch(/can_1 was knocked (off table_1|over)/);
  });
});

describe('labels come from the state (paper 003 tolerances)', () => {
  it('after an emergency stop mid-motion the posture is unknown and the robot is not stuck', async () => {
    const sim = await sceneWorld('tabletop/workshop');
    expect(await moveArm(sim, 'transport')).toMatchObject({ ok: true });
    expect(snapshotFacts(sim)).toContain('robot_has_arm_posture(robot, transport)');
    let n = 0;
    sim.processHooks.push((s) => {
      if (++n === 22 && !s.estop) s.inject({ type: 'estop_pressed' });
    });
    expect(await moveArm(sim, 'observe')).toMatchObject({ ok: false, code: 'estop' });
    sim.processHooks.pop();
    expect(snapshotFacts(sim)).toContain('robot_has_arm_posture(robot, unknown)');
    sim.inject({ type: 'estop_released' });
    const blocked = await navigate(sim, { kind: 'location', id: 'table_1' });
    expect(blocked).toMatchObject({ ok: false, code: 'arm_outside_footprint' });
    expect(blocked.summary).not.toContain('place what the hand holds');
    const back = await moveArm(sim, 'transport');
    expect(back.summary).not.toContain('already');
    expect(snapshotFacts(sim)).toContain('robot_has_arm_posture(robot, transport)');
    expect(await navigate(sim, { kind: 'location', id: 'table_1' })).toMatchObject({ ok: true });
  });

  it('robot_at holds within 0.2 m of a place and is unknown beyond', async () => {
    const sim = await sceneWorld('kitchen');
    expect(snapshotFacts(sim)).toContain('robot_at(robot, counter_1)');
    expect(await step(sim, -0.15, 0, 0)).toMatchObject({ ok: true });
    expect(snapshotFacts(sim)).toContain('robot_at(robot, counter_1)');
    expect(await step(sim, -0.15, 0, 0)).toMatchObject({ ok: true });
    expect(snapshotFacts(sim)).toContain('robot_at(robot, unknown)');
  });
});

describe('an object moved while the world rests is seen at its new spot at once', () => {
  it('perceive right after the move finds it where it was put, not where it was', async () => {
    const sim = await sceneWorld('tabletop/workshop');
    await moveArm(sim, 'transport');
    await navigate(sim, { kind: 'location', id: 'table_1' });
    expect(await perceive(sim)).toMatchObject({ ok: true });
    // A person carries the multimeter to table 2 while nothing moves.
    sim.inject({ type: 'object_moved', object: 'multimeter_1', to: [2.2, 0.8, 1.5] });
    const seen = observe(sim);
    expect(seen.observed.map((o) => o.id)).not.toContain('multimeter_1');
    expect(seen.removed).toContain('multimeter_1');
  });
});

describe('a belief record never names a thing the robot does not know', () => {
  it('recording an object on a box the robot had no record of records the box too', async () => {
    const sim = await sceneWorld('tabletop/boxes');
    const box = sim.pose('wooden_box_1').p;
    sim.inject({ type: 'object_moved', object: 'toy_block_1', to: [box.x, 1.2, box.z] });
    settle(sim);
    sim.belief.forget('wooden_box_1');
    const e = record(sim, 'toy_block_1', 'seen');
    expect(e.place).toMatchObject({ id: 'wooden_box_1' });
    expect(sim.belief.has('wooden_box_1')).toBe(true);
  });
});

describe('every object has exactly one location', () => {
  it('a drill lying tilted on a table is on the table; a box on the floor is on the floor', async () => {
    const sim = await layoutWorld(
      tableLayout([
        { id: 'drill_1', type: 'power_drill', on: 'table_1', position: [0.3, 0, 0] },
        { id: 'box_1', type: 'wooden_box', position: [0.3, 0.1, 0.7] },
      ]),
    );
    const drill = sim.world.getRigidBody(sim.entity('drill_1').body);
    const d = drill.translation();
    drill.setTranslation({ x: d.x, y: d.y + 0.05, z: d.z }, true);
    drill.setRotation(qAxisAngle(v3(1, 0, 0.3), Math.PI / 2), true);
    settle(sim, 1.5);
    const facts = worldFacts(sim);
    expect(facts).toContain('on(drill_1, table_1)');
    expect(facts).toContain('on(box_1, floor)');
    for (const [id, p] of locations(sim)) {
      const own = facts.filter((f) => new RegExp(`^(on|in|held_by)\\(${id},|^holding\\(robot, ${id}\\)$`).test(f));
      expect(own, id).toEqual([placeFact(id, p)]);
    }
  });

  it('every movable object in every built-in scene has exactly one location fact', async () => {
    for (const id of ['tabletop/fruits', 'tabletop/utensils', 'tabletop/boxes', 'kitchen', 'kitchen/assistive']) {
      const sim = await sceneWorld(id);
      const facts = worldFacts(sim);
      for (const e of sim.entities.values()) {
        if (e.fixed) continue;
        expect(
          facts.filter((f) => new RegExp(`^(on|in)\\(${e.id},`).test(f)),
          `${id}: ${e.id}`,
        ).toHaveLength(1);
      }
    }
  });
});

describe('an object still in flight has no support yet', () => {
  it('a box falling onto the table is still moving: no support in its place, its fact, the belief or the words, until it rests', async () => {
    const sim = await layoutWorld(tableLayout([{ id: 'box_1', type: 'wooden_box', on: 'table_1', position: [0.3, 0, 0] }]));
    const body = sim.world.getRigidBody(sim.entity('box_1').body);
    const p = body.translation();
    body.setTranslation({ x: p.x, y: p.y + 0.4, z: p.z }, true);
    settle(sim, 0.1);
    expect(locationOf(sim, 'box_1')).toEqual({ kind: 'moving' });
    expect(placeFact('box_1', locationOf(sim, 'box_1'))).toBe('moving(box_1)');
    expect(record(sim, 'box_1', 'seen').place).toEqual({ kind: 'moving' });
    expect(snapshotFacts(sim)).toContain('moving(box_1)');
    expect(describePlace(locationOf(sim, 'box_1'))).toMatch(/^still moving/);
    settle(sim, 1.5);
    expect(locationOf(sim, 'box_1')).toEqual({ kind: 'on', id: 'table_1' });
    expect(record(sim, 'box_1', 'seen').place).toEqual({ kind: 'on', id: 'table_1' });
  });
});
