// The mobile manipulator from its description (a UR5e-class arm on a base of
// the MiR100's footprint, the fixture's xacro and sidecar) does a pick-and-place
// between two tables of the workshop: it drives, perceives, picks, tucks,
// drives, places, and the world agrees — the object lies on the table it was
// placed on, and nothing else moved.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { builtinScene } from '../../scenes/registry';
import { loadRobot } from '../../scenes/urdf/load';
import { robotFiles } from '../../test/support/robot-files';
import { dist } from '../math';
import { snapshotFacts } from '../perception/snapshot';
import { navigate } from '../skills/navigation';
import { perceive } from '../skills/perceive';
import { pick } from '../skills/pick';
import { place } from '../skills/place';
import { moveArm } from '../skills/posture';
import { withImportedRobot } from './imported-robot';
import { SimWorld } from './sim-world';

const MOBILE = join(import.meta.dirname, '../../test/fixtures/robots/mobile_manipulator/urdf/mobile_manipulator.urdf.xacro');

describe('the mobile manipulator from its description', () => {
  it('picks the screwdriver from table 1 and places it on table 2; nothing else moves', async () => {
    const sim = await SimWorld.create(withImportedRobot(builtinScene('tabletop/workshop'), loadRobot(robotFiles(MOBILE))));
    expect(sim.scene.robot).toMatchObject({ id: 'mobile_manipulator', kind: 'mobile_manipulator' });
    const others = [...sim.entities.keys()].filter((id) => id !== 'screwdriver_1');
    const before = new Map(others.map((id) => [id, sim.pose(id).p]));
    const steps = [
      () => navigate(sim, { kind: 'location', id: 'table_1' }),
      () => perceive(sim),
      () => pick(sim, 'screwdriver_1'),
      () => moveArm(sim, 'transport'),
      () => navigate(sim, { kind: 'location', id: 'table_2' }),
      () => perceive(sim),
      () => place(sim, { kind: 'object', id: 'table_2' }),
      () => moveArm(sim, 'home'),
    ];
    const outcomes = [];
    for (const s of steps) outcomes.push(await s());
    expect(outcomes.map((o) => (o.ok ? 'ok' : o.summary))).toEqual(steps.map(() => 'ok'));
    // The screwdriver lies on table 2's top (0.65 m high, 0.8 m by 1.2 m about its centre).
    const p = sim.pose('screwdriver_1').p;
    const table = sim.pose('table_2').p;
    expect(Math.abs(p.x - table.x)).toBeLessThan(0.4);
    expect(Math.abs(p.z - table.z)).toBeLessThan(0.6);
    expect(Math.abs(sim.aabb('screwdriver_1').min.y - 0.65)).toBeLessThan(0.01);
    expect(sim.heldId()).toBeUndefined();
    for (const id of others) expect(dist(sim.pose(id).p, before.get(id)!), id).toBeLessThan(0.005);
    const facts = snapshotFacts(sim);
    expect(facts).toEqual(
      expect.arrayContaining([
        'on(screwdriver_1, table_2)',
        'hand_empty(robot)',
        'robot_at(robot, table_2)',
        'robot_has_arm_posture(robot, home)',
      ]),
    );
  });
});
