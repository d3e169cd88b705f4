// The assistive plan of paper 001 §5.2 in the kitchen: approach the medicine
// counter (a chair is in the way), pick Adriana's medicine (two look alike; the
// one by the plant is out of reach), approach Adriana, hand it over (only when
// she looks at the robot and has a free hand). People act through exogenous
// events (object_moved, person_said), as an operator or a test would inject them.
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { sceneWorld } from '../../test/fixtures/worlds';
import { dist } from '../math';
import { distanceBetween, robotHumanDistance } from '../perception/distance';
import { freePath, gazeAtRobot, handsFree, humansAround, recogniseHumans } from '../perception/people';
import { snapshotFacts } from '../perception/snapshot';
import { record } from '../perception/observe';
import type { SimWorld, WorldSnapshot } from '../world/sim-world';
import { HANDOVER_DISTANCE, approachPerson, ask, handPoint, handover, say, wait } from './interaction';
import { pick } from './manipulation';
import { navigate } from './navigation';

let sim: SimWorld;
let start: WorldSnapshot;
let hooks = 0;
beforeAll(async () => {
  sim = await sceneWorld('kitchen/assistive');
  start = sim.snapshot();
  hooks = sim.processHooks.length;
});
beforeEach(() => {
  sim.restore(start);
  sim.processHooks.splice(hooks);
});

/** Adriana moves the chair out of the way, and it settles where she put it. */
async function chairMoved(): Promise<void> {
  sim.inject({ type: 'object_moved', object: 'chair_3', to: [0.3, 0, 2.55], by: 'adriana' });
  await wait(sim, 1);
}

/** From the start: past the chair to the medicine counter, and pick the reachable medicine. */
async function holdingMedicine(): Promise<void> {
  await chairMoved();
  expect(await navigate(sim, { kind: 'location', id: 'medicine_counter' })).toMatchObject({ ok: true });
  expect(await pick(sim, 'medicine_2')).toMatchObject({ ok: true });
}

describe('approach the medicine counter', () => {
  it('the chair left in front of the counter blocks the way until Adriana moves it', async () => {
    expect(freePath(sim, 'medicine_counter')).toMatchObject({ free: false, obstacle: 'chair_3' });
    // The robot has not perceived the chair: it says something is in the way, not what.
    const unseen = await navigate(sim, { kind: 'location', id: 'medicine_counter' });
    expect(unseen).toMatchObject({ ok: false, code: 'path_blocked', data: { obstacle: 'an object the robot had not perceived' } });
    record(sim, 'chair_3', 'seen');
    const blocked = await navigate(sim, { kind: 'location', id: 'medicine_counter' });
    expect(blocked).toMatchObject({ ok: false, code: 'path_blocked', data: { obstacle: 'chair_3' } });
    const at = sim.body.basePose.p;
    await chairMoved();
    expect(dist(sim.pose('chair_3').p, { x: 0.3, y: 0, z: 2.55 })).toBeLessThan(0.02);
    expect(freePath(sim, 'medicine_counter')).toMatchObject({ free: true });
    expect(await navigate(sim, { kind: 'location', id: 'medicine_counter' })).toMatchObject({
      ok: true,
      data: { location: 'medicine_counter' },
    });
    expect(dist(sim.body.basePose.p, at)).toBeGreaterThan(1.5);
  });
});

describe('pick the medicine', () => {
  it('two medicines: the one nearest the plant is out of reach until someone puts it closer', async () => {
    await chairMoved();
    expect(await navigate(sim, { kind: 'location', id: 'medicine_counter' })).toMatchObject({ ok: true });
    // "It's the medicine closest to the plant."
    expect(distanceBetween(sim, 'plant_1', 'medicine_1')).toBeLessThan(distanceBetween(sim, 'plant_1', 'medicine_2'));
    const far = await pick(sim, 'medicine_1');
    expect(far).toMatchObject({ ok: false, code: 'out_of_reach' });
    expect(far.summary).toMatch(/m from the arm's shoulder; the arm reaches 1\.1 m/);
    sim.inject({ type: 'object_moved', object: 'medicine_1', to: [2.12, 0.902, 2.05], by: 'adriana' });
    await wait(sim, 1);
    expect(await pick(sim, 'medicine_1')).toMatchObject({ ok: true });
  });
});

describe('Adriana', () => {
  it('is seen and recognised by name once the robot faces her; her hands are free and she looks elsewhere', async () => {
    // From the middle of the kitchen the robot faces the counters: she is behind it.
    expect(humansAround(sim)).toEqual([]);
    expect(await approachPerson(sim, 'adriana')).toMatchObject({ ok: true });
    expect(humansAround(sim)).toEqual(['adriana']);
    expect(recogniseHumans(sim)).toEqual([{ id: 'adriana', name: 'Adriana' }]);
    expect(handsFree(sim, 'adriana')).toBe(true);
    expect(gazeAtRobot(sim, 'adriana')).toBe(false);
    expect(robotHumanDistance(sim, 'adriana')).toBeLessThanOrEqual(HANDOVER_DISTANCE);
    expect(snapshotFacts(sim)).toContain('person_near(adriana, dining_table_1)');
  });
});

describe('hand the medicine over', () => {
  it('needs the person within 0.5 m', async () => {
    await holdingMedicine();
    const r = await handover(sim, 'adriana');
    expect(r).toMatchObject({ ok: false, code: 'out_of_reach' });
    expect(r.summary).toMatch(/Adriana \(adriana\) is \d\.\d+ m away; handovers happen within 0\.5 m/);
    expect(sim.isHeld('medicine_2')).toBe(true);
  });

  it('waits for her attention and a free hand, then she takes it', async () => {
    await holdingMedicine();
    expect(await approachPerson(sim, 'adriana')).toMatchObject({ ok: true });
    const notLooking = await handover(sim, 'adriana');
    expect(notLooking).toMatchObject({ ok: false, code: 'blocked' });
    expect(notLooking.summary).toContain('not looking at the robot');
    // Asking for her attention by name turns her to the robot; saying something else does not.
    expect(await say(sim, 'Here is your medicine.')).toMatchObject({ ok: true });
    expect(gazeAtRobot(sim, 'adriana')).toBe(false);
    expect(await say(sim, 'Adriana, could you look at me, please?')).toMatchObject({ ok: true });
    expect(gazeAtRobot(sim, 'adriana')).toBe(true);
    // Her hands full, she cannot take it.
    sim.people.get('adriana')!.handsFree = false;
    const busy = await handover(sim, 'adriana');
    expect(busy).toMatchObject({ ok: false, code: 'blocked', summary: 'Adriana (adriana) has no free hand to take medicine_2 (medicine)' });
    expect(sim.isHeld('medicine_2')).toBe(true);
    sim.people.get('adriana')!.handsFree = true;
    const given = await handover(sim, 'adriana');
    expect(given).toMatchObject({ ok: true, data: { object: 'medicine_2', person: 'adriana' } });
    expect(sim.heldId()).toBeUndefined();
    expect(sim.handedOver.get('medicine_2')).toBe('adriana');
    expect(handsFree(sim, 'adriana')).toBe(false);
    // It stays in her hand, not on the floor.
    expect(dist(sim.pose('medicine_2').p, handPoint(sim, 'adriana'))).toBeLessThan(0.15);
    await wait(sim, 2);
    expect(sim.pose('medicine_2').p.y).toBeGreaterThan(0.9);
    expect(snapshotFacts(sim)).toContain('held_by(medicine_2, adriana)');
    expect(await handover(sim, 'adriana')).toMatchObject({ ok: false, code: 'hand_empty' });
  });
});

describe('talking', () => {
  it('ask waits for an answer, and times out when nobody answers', async () => {
    const t0 = sim.time;
    const silent = await ask(sim, 'Which medicine is yours?', 5);
    expect(silent).toMatchObject({ ok: false, code: 'timeout' });
    expect(sim.time - t0).toBeCloseTo(5, 1);
    // She answers a second into the question.
    const asked = sim.time;
    let answered = false;
    sim.processHooks.push((s) => {
      if (answered || s.time < asked + 1) return;
      answered = true;
      s.inject({ type: 'person_said', person: 'adriana', text: "It's the one closest to the plant." });
    });
    const r = await ask(sim, 'Adriana, which medicine is yours?', 5);
    expect(r).toMatchObject({ ok: true, data: { answer: "It's the one closest to the plant.", person: 'adriana' } });
    expect(await say(sim, '   ')).toMatchObject({ ok: false, code: 'invalid_argument' });
  });
});
