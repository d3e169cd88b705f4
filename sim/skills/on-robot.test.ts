// Resting on the robot is a place: in the workshop a placement whose hand meets
// the box tips the box onto the hand. The outcome, the belief and the facts
// all say so (eval/audit/check.test.ts checks the audit's reading); and what the robot
// never perceived is not named (the multimeter slipped "in something the robot
// has not perceived", and the belief does not invent the box).
import { expect, it } from 'vitest';
import { sceneWorld } from '../../test/fixtures/worlds';
import { snapshotFacts } from '../perception/snapshot';
import { locationOf } from '../world/location';
import type { SimWorld } from '../world/sim-world';
import type { SkillOutcome } from './outcome';
import { pick, place } from './manipulation';
import { navigate } from './navigation';
import { perceive } from './perceive';
import { moveArm } from './posture';

const said = (o: SkillOutcome): string => [o.summary, ...(o.incidents ?? [])].join(' ');

async function goTo(sim: SimWorld, table: string): Promise<void> {
  await moveArm(sim, 'transport');
  await navigate(sim, { kind: 'location', id: table });
}

async function carry(sim: SimWorld, id: string, from: string, to: string): Promise<SkillOutcome> {
  await goTo(sim, from);
  await perceive(sim);
  expect(await pick(sim, id)).toMatchObject({ ok: true });
  await goTo(sim, to);
  return place(sim, { kind: 'object', id: to, relation: 'on' });
}

it('an object left on the robot is reported resting on the robot, and an unperceived support is not named', async () => {
  const sim = await sceneWorld('tabletop/workshop');
  expect(await carry(sim, 'multimeter_1', 'table_1', 'table_2')).toMatchObject({ ok: true });
  // To table 3, whose box the robot has not perceived: the multimeter slips into it on the way.
  const slipped = await carry(sim, 'multimeter_1', 'table_2', 'table_3');
  expect(slipped.ok).toBe(false);
  expect(locationOf(sim, 'multimeter_1')).toEqual({ kind: 'in', id: 'klt_1' });
  expect(said(slipped)).not.toContain('klt_1');
  expect(said(slipped)).toContain('in something the robot has not perceived');
  expect(sim.belief.has('klt_1')).toBe(false);
  expect(sim.belief.get('multimeter_1')?.place).toEqual({ kind: 'unperceived', relation: 'in' });
  expect(snapshotFacts(sim)).toContain('in(multimeter_1, unperceived)');

  // At table 3 it sees the box; the relay, wedged, does not come up.
  await goTo(sim, 'table_3');
  await perceive(sim);
  expect(await pick(sim, 'relay_1')).toMatchObject({ ok: false });
  expect(await carry(sim, 'screwdriver_1', 'table_1', 'table_2')).toMatchObject({ ok: true });
  // Setting the screwdriver down on table 3 the hand meets the box and tips it onto the fingers.
  const r = await carry(sim, 'screwdriver_1', 'table_2', 'table_3');
  expect(locationOf(sim, 'klt_1')).toEqual({ kind: 'robot', part: 'hand' });
  expect(r.ok).toBe(false);
  expect(said(r)).toMatch(/klt_1 [^.;]*; it is now resting on the robot's hand/);
  expect(said(r)).not.toMatch(/klt_1[^;]*now on table_3/);
  expect(sim.belief.get('klt_1')?.place).toEqual({ kind: 'robot', part: 'hand' });
  expect(snapshotFacts(sim)).toContain('on(klt_1, robot_hand)');
}, 120_000);
