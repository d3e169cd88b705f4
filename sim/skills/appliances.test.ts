// The household skills on the RAIDER kitchen (paper 001 §4): doors that swing,
// appliances that act over time, slicing, and the refusals RAIDER's issue
// detection is about (inside a closed receptacle, full, blocked, hand full).
// One world is built per file and restored from a snapshot before each test.
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ResolvedObject } from '../../scenes/resolve';
import { sceneWorld } from '../../test/fixtures/worlds';
import { type Vec3, aabbCenter, dist, fromTuple, poseApply, qAngle, qYaw, rad } from '../math';
import { detectedIds } from '../perception/detection';
import { distanceBetween, distanceToTarget } from '../perception/distance';
import { geoObjects } from '../perception/geo';
import { objectState, relationQuery } from '../perception/queries';
import { isInside } from '../perception/relations';
import { visibleEntityIds } from '../perception/visibility';
import { PROCESS_SECONDS } from '../world/processes';
import { primitiveAabb, unionAll } from '../world/entity';
import type { SimWorld, WorldSnapshot } from '../world/sim-world';
import { setOpen, setSwitch, slice } from './appliances';
import { wait } from './interaction';
import { pick, place, planGrasp } from './manipulation';
import { navigate } from './navigation';

let sim: SimWorld;
let start: WorldSnapshot;
let hooks = 0;
beforeAll(async () => {
  sim = await sceneWorld('kitchen');
  start = sim.snapshot();
  hooks = sim.processHooks.length;
});
beforeEach(() => {
  sim.restore(start);
  // Drop the watchers an earlier test added.
  sim.processHooks.splice(hooks);
});

const inside = (a: string, b: string): boolean => {
  const all = geoObjects(sim);
  return isInside(
    all.find((g) => g.id === a)!,
    all.find((g) => g.id === b)!,
  );
};
const go = async (location: string): Promise<void> => {
  expect(await navigate(sim, { kind: 'location', id: location })).toMatchObject({ ok: true });
};
/** What check_obj_relationship answers on a SimRobot: only objects the camera sees now. */
const ask = (relation: Parameters<typeof relationQuery>[1], id: string): string[] =>
  relationQuery(sim, relation, id, { pool: visibleEntityIds(sim) });

/** Puts the base at a named place at once, when a test is not about driving there. */
function standAt(location: string): void {
  const l = sim.locations.get(location)!;
  sim.body.basePose = { p: fromTuple(l.pose.position), q: qYaw(rad(l.pose.yaw)) };
  sim.bodyLinks.apply(sim.body.basePose, sim.body.q, sim.body.opening, true);
  sim.updateLocation();
  sim.version++;
}

/** Records the simulated time at which a condition first holds (appliance processes run in a hook). */
function whenTrue(cond: () => boolean): { at: number | undefined } {
  const seen: { at: number | undefined } = { at: cond() ? sim.time : undefined };
  sim.processHooks.push((s) => {
    if (seen.at === undefined && cond()) seen.at = s.time;
  });
  return seen;
}

describe('doors: the fridge', () => {
  it('keeps the apple out of reach while closed; opening swings the door out and then the apple can be taken', async () => {
    await go('fridge_1');
    // The robot has never seen inside the closed fridge: it cannot know the apple is there.
    const refused = await pick(sim, 'apple_1');
    expect(refused).toMatchObject({ ok: false, code: 'not_perceived' });
    expect(refused.summary).not.toContain('fridge');
    expect(sim.heldId()).toBeUndefined();
    // Closed, the camera cannot see in: RAIDER's "inside" question finds nothing.
    expect(ask('inside', 'fridge_1')).toEqual([]);

    const door = sim.entity('fridge_1').door!;
    const closedPose = sim.bodyPose(door.body);
    const opened = await setOpen(sim, 'fridge_1', true);
    expect(opened).toMatchObject({ ok: true, data: { openFraction: 1 } });
    expect(sim.entity('fridge_1').states.open).toBe(true);
    const openPose = sim.bodyPose(door.body);
    // The door turned about its hinge by the articulation's 95 degrees and now sticks out into the room.
    expect(qAngle(openPose.q, closedPose.q)).toBeCloseTo(rad(95), 2);
    expect(sim.doorAabb('fridge_1')!.min.x).toBeLessThan(sim.aabb('fridge_1').min.x - 0.4);
    expect(ask('inside', 'fridge_1').sort()).toEqual(['apple_1', 'milk_1']);

    const y0 = sim.pose('apple_1').p.y;
    expect(await pick(sim, 'apple_1')).toMatchObject({ ok: true });
    expect(sim.isHeld('apple_1')).toBe(true);
    expect(sim.pose('apple_1').p.y).toBeGreaterThan(y0 + 0.1);
    // Hand full: the door cannot be closed until the apple is put down.
    expect(await setOpen(sim, 'fridge_1', false)).toMatchObject({ ok: false, code: 'hand_full' });
    expect(await place(sim, { kind: 'object', id: 'fridge_1' })).toMatchObject({ ok: true });
    expect(inside('apple_1', 'fridge_1')).toBe(true);
    expect(await setOpen(sim, 'fridge_1', false)).toMatchObject({ ok: true });
    expect(sim.entity('fridge_1').states.open).toBe(false);
    expect(qAngle(sim.bodyPose(door.body).q, closedPose.q)).toBeLessThan(1e-3);
  });

  it('opens and closes the cabinet, whose plate and bowl are then in reach', async () => {
    standAt('cabinet_1');
    expect(await pick(sim, 'plate_1')).toMatchObject({ ok: false, code: 'not_perceived' });
    expect(await setOpen(sim, 'cabinet_1', true)).toMatchObject({ ok: true });
    expect(await setOpen(sim, 'cabinet_1', true)).toMatchObject({ ok: false, code: 'already_done' });
    expect(ask('inside', 'cabinet_1').sort()).toEqual(['bowl_2', 'plate_1']);
    expect(await pick(sim, 'bowl_2')).toMatchObject({ ok: true });
    expect(await place(sim, { kind: 'object', id: 'cabinet_1' })).toMatchObject({ ok: true });
    expect(inside('bowl_2', 'cabinet_1')).toBe(true);
    expect(await setOpen(sim, 'cabinet_1', false)).toMatchObject({ ok: true });
  });
});

describe('receptacles that refuse', () => {
  it('will not take anything while closed, nor a second cup in the coffee machine', async () => {
    expect(await pick(sim, 'mug_2')).toMatchObject({ ok: true });
    const closed = await place(sim, { kind: 'object', id: 'microwave_1' });
    expect(closed).toMatchObject({ ok: false, code: 'receptacle_closed' });
    expect(closed.summary).toContain('open it first');
    // The cup under the spout is what blocks placing the mug (RAIDER's Place(Mug, CoffeeMachine) case).
    expect(ask('blocking', 'coffee_machine_1')).toEqual(['cup_1']);
    const full = await place(sim, { kind: 'object', id: 'coffee_machine_1' });
    expect(full).toMatchObject({ ok: false, code: 'receptacle_full' });
    expect(full.summary).toContain('cup_1');
    expect(sim.isHeld('mug_2')).toBe(true);
  });

  it('a bowl with an apple in it cannot be picked; a full hand picks, opens and switches nothing', async () => {
    standAt('counter_2');
    expect(ask('inside', 'bowl_1')).toEqual(['apple_2']);
    const bowl = await pick(sim, 'bowl_1');
    expect(bowl).toMatchObject({ ok: false, code: 'blocked' });
    expect(bowl.summary).toContain('apple_2');
    expect(await pick(sim, 'apple_2')).toMatchObject({ ok: true });
    const second = await pick(sim, 'tomato_1');
    expect(second).toMatchObject({ ok: false, code: 'hand_full' });
    expect(second.summary).toContain('apple_2');
    expect(await setSwitch(sim, 'stove_burner_2', true)).toMatchObject({ ok: false, code: 'hand_full' });
    // Emptied, the bowl can be lifted.
    expect(await place(sim, { kind: 'object', id: 'counter_2' })).toMatchObject({ ok: true });
    expect(await pick(sim, 'bowl_1')).toMatchObject({ ok: true });
  });

  it('furniture, appliances and things wider than the gripper cannot be picked, with the reason', async () => {
    expect(await pick(sim, 'coffee_machine_1')).toMatchObject({
      ok: false,
      code: 'not_pickable',
      summary: expect.stringContaining('appliance'),
    });
    expect(await pick(sim, 'cutting_board_1')).toMatchObject({ ok: false, code: 'not_pickable' });
    standAt('dining_table_1');
    const laptop = await pick(sim, 'laptop_1');
    expect(laptop).toMatchObject({ ok: false, code: 'too_big' });
    expect(laptop.summary).toMatch(/gripper opens 12 cm/);
  });
});

describe('appliances act over time', () => {
  it('the coffee machine fills the mug under its spout a few seconds after it is switched on', async () => {
    expect(await pick(sim, 'cup_1')).toMatchObject({ ok: true });
    expect(await place(sim, { kind: 'object', id: 'counter_1' })).toMatchObject({ ok: true });
    expect(await pick(sim, 'mug_2')).toMatchObject({ ok: true });
    expect(await place(sim, { kind: 'object', id: 'coffee_machine_1' })).toMatchObject({ ok: true });
    expect(inside('mug_2', 'coffee_machine_1')).toBe(true);
    expect(sim.entity('mug_2').states.filled).toBe(false);
    const on = whenTrue(() => sim.entity('coffee_machine_1').states.on);
    const filled = whenTrue(() => sim.entity('mug_2').states.filled);
    expect(await setSwitch(sim, 'coffee_machine_1', true)).toMatchObject({ ok: true });
    expect(objectState(sim, 'coffee_machine_1')).toEqual({ on: true });
    expect(await wait(sim, 5)).toMatchObject({ ok: true });
    expect(objectState(sim, 'mug_2')).toMatchObject({ filled: true, dirty: false });
    // Filled by the brew, not at the press: it took the brewing time.
    expect(filled.at! - on.at!).toBeGreaterThanOrEqual(PROCESS_SECONDS.brew - 0.11);
    // The cup standing aside was not filled.
    expect(sim.entity('cup_1').states.filled).toBe(false);
    expect(await setSwitch(sim, 'coffee_machine_1', false)).toMatchObject({ ok: true });
    expect(sim.entity('coffee_machine_1').states.on).toBe(false);
  });

  it('the microwave heats the potato inside only with its door shut, and will not start open', async () => {
    standAt('counter_3');
    expect(await setSwitch(sim, 'microwave_1', true)).toMatchObject({ ok: true });
    expect(sim.entity('microwave_1').states.on).toBe(true);
    expect(await setSwitch(sim, 'microwave_1', true)).toMatchObject({ ok: false, code: 'already_done' });
    expect(await wait(sim, PROCESS_SECONDS.heat + 1)).toMatchObject({ ok: true });
    expect(sim.entity('potato_1').states.cooked).toBe(true);
    expect(await setSwitch(sim, 'microwave_1', false)).toMatchObject({ ok: true });
    expect(sim.entity('microwave_1').states.on).toBe(false);
    expect(await setOpen(sim, 'microwave_1', true)).toMatchObject({ ok: true });
    const refused = await setSwitch(sim, 'microwave_1', true);
    expect(refused).toMatchObject({ ok: false, code: 'blocked' });
    expect(refused.summary).toContain('close its door');
    expect(sim.entity('microwave_1').states.on).toBe(false);
  });

  it('a burner cooks the egg in the pan standing on it, while another burner is on too', async () => {
    standAt('stove_1');
    expect(inside('egg_1', 'pan_1')).toBe(true);
    // An empty burner switched on first: it must not keep resetting the egg's cooking.
    expect(await setSwitch(sim, 'stove_burner_2', true)).toMatchObject({ ok: true });
    expect(await setSwitch(sim, 'stove_burner_1', true)).toMatchObject({ ok: true });
    expect(objectState(sim, 'stove_burner_1')).toEqual({ on: true });
    expect(await wait(sim, PROCESS_SECONDS.heat + 1)).toMatchObject({ ok: true });
    expect(objectState(sim, 'egg_1')).toEqual({ cooked: true });
    expect(await setSwitch(sim, 'stove_burner_1', false)).toMatchObject({ ok: true });
    expect(await setSwitch(sim, 'stove_burner_2', false)).toMatchObject({ ok: true });
    expect(sim.entity('stove_burner_1').states.on).toBe(false);
  });

  it('the tap cleans the dirty bowl in the sink', async () => {
    standAt('sink_1');
    expect(objectState(sim, 'bowl_3')).toEqual({ dirty: true });
    expect(await setSwitch(sim, 'sink_1', true)).toMatchObject({ ok: true });
    expect(await wait(sim, PROCESS_SECONDS.water + 1)).toMatchObject({ ok: true });
    expect(objectState(sim, 'bowl_3')).toEqual({ dirty: false });
    // The dirty mug on the counter was nowhere near the water.
    expect(sim.entity('mug_1').states.dirty).toBe(true);
  });
});

describe('slicing', () => {
  it('needs the knife in the hand; with it, the bread on its board is sliced and stays put', async () => {
    const without = await slice(sim, 'bread_1');
    expect(without).toMatchObject({ ok: false, code: 'needs_tool' });
    expect(without.summary).toBe('slicing needs a knife in the hand; the hand is empty');
    expect(await pick(sim, 'mug_2')).toMatchObject({ ok: true });
    expect(await slice(sim, 'bread_1')).toMatchObject({ ok: false, code: 'needs_tool', summary: expect.stringContaining('holds mug_2') });
    expect(await place(sim, { kind: 'object', id: 'counter_1' })).toMatchObject({ ok: true });
    const before = sim.pose('bread_1').p;
    expect(await pick(sim, 'knife_1')).toMatchObject({ ok: true });
    expect(await slice(sim, 'bread_1')).toMatchObject({ ok: true, summary: 'sliced bread_1 (bread) with knife_1' });
    expect(objectState(sim, 'bread_1')).toEqual({ sliced: true });
    expect(dist(sim.pose('bread_1').p, before)).toBeLessThan(0.01);
    expect(ask('on top of', 'cutting_board_1')).toEqual(['bread_1']);
    expect(await slice(sim, 'bread_1')).toMatchObject({ ok: false, code: 'already_done' });
    expect(await slice(sim, 'mug_1')).toMatchObject({ ok: false, code: 'not_sliceable' });
  });

  it('brings the blade, not the handle it holds, down over a small apple', async () => {
    sim.inject({ type: 'object_moved', object: 'apple_2', to: [2.05, 0.945, -1.32], by: 'test' });
    await wait(sim, 1);
    expect(await pick(sim, 'knife_1')).toMatchObject({ ok: true });
    const knife = sim.entity('knife_1');
    const bladeLocal = aabbCenter(unionAll(knife.prims.filter((p) => p.name === 'blade').map(primitiveAabb)));
    const atCut = whenTrue(() => sim.entity('apple_2').states.sliced);
    let blade: Vec3 | undefined;
    sim.processHooks.push(() => {
      if (atCut.at !== undefined) blade ??= poseApply(sim.pose('knife_1'), bladeLocal);
    });
    expect(await slice(sim, 'apple_2')).toMatchObject({ ok: true });
    const apple = sim.aabb('apple_2');
    const c = aabbCenter(apple);
    // Sampled within a tenth of a second of the cut, as the knife rises straight up again.
    expect(Math.hypot(blade!.x - c.x, blade!.z - c.z)).toBeLessThan(0.02);
    expect(blade!.y).toBeGreaterThan(apple.max.y);
    expect(blade!.y).toBeLessThan(apple.max.y + 0.07);
    // Nothing was knocked: the knife is still in the hand.
    expect(sim.isHeld('knife_1')).toBe(true);
  });
});

describe('reach from the named places', () => {
  it('every pickable object can be grasped from the place that serves it (once its container is open)', () => {
    const closedOnes = [...sim.entities.values()].filter((e) => e.door);
    for (const e of closedOnes) {
      sim.setDoorValue(e, e.door!.openValue, true);
      e.states.open = true;
    }
    sim.world.step();
    sim.version++;
    const placed = new Map(sim.scene.objects.map((o) => [o.id, o]));
    /** The furniture or appliance an object starts on or in, following the scene's "on"/"in". */
    const carrierOf = (id: string): string | undefined => {
      let cur: string | undefined = id;
      for (let i = 0; cur && i < 4; i++) {
        const o: ResolvedObject = placed.get(cur)!;
        if (o.fixed) return cur;
        cur = o.placement.in ?? o.placement.on;
      }
      return undefined;
    };
    const unpickable = new Set(['laptop_1']);
    let checked = 0;
    for (const e of sim.entities.values()) {
      if (e.fixed || !e.spec.properties.pickable || unpickable.has(e.id)) continue;
      const carrier = carrierOf(e.id);
      const loc = [...sim.locations.values()].find((l) => carrier && l.serves.includes(carrier));
      expect(loc, `no place serves ${e.id} (on ${carrier})`).toBeDefined();
      standAt(loc!.id);
      const r = planGrasp(sim, e.id);
      expect(r.ok, `${e.id} from ${loc!.id}: ${r.ok ? '' : r.outcome.summary}`).toBe(true);
      checked++;
    }
    expect(checked).toBeGreaterThan(20);
  });

  it('each place serves what its arm can reach, and every appliance is served by a place', () => {
    for (const l of sim.locations.values()) {
      standAt(l.id);
      if (l.kind !== 'waypoint') expect(l.serves.length, l.id).toBeGreaterThan(0);
      for (const id of l.serves) expect(distanceToTarget(sim, id), `${id} from ${l.id}`).toBeLessThan(0.95);
    }
    const served = new Set([...sim.locations.values()].flatMap((l) => l.serves));
    for (const e of sim.entities.values()) {
      const p = e.spec.properties;
      if (e.fixed && (p.openable || p.toggleable || p.receptacle || e.spec.surfaces.length)) expect(served.has(e.id), e.id).toBe(true);
    }
  });
});

describe("RAIDER's questions have ground-truth answers here", () => {
  it('detection, state, relations and distance at the coffee counter', () => {
    const seen = detectedIds(sim);
    expect(seen).toEqual(expect.arrayContaining(['coffee_machine_1', 'cup_1', 'mug_1', 'mug_2', 'bread_1', 'knife_1', 'cutting_board_1']));
    // Closed in the fridge: not seen.
    expect(seen).not.toContain('apple_1');
    expect(objectState(sim, 'mug_1')).toEqual({ dirty: true, filled: false });
    expect(objectState(sim, 'mug_2')).toEqual({ dirty: false, filled: false });
    expect(objectState(sim, 'fridge_1')).toEqual({ open: false });
    expect(objectState(sim, 'coffee_machine_1')).toEqual({ on: false });
    expect(ask('inside', 'coffee_machine_1')).toEqual(['cup_1']);
    expect(ask('on top of', 'counter_1')).toEqual(expect.arrayContaining(['mug_1', 'mug_2', 'knife_1', 'cutting_board_1']));
    // Left and right as the robot sees them: the mugs are left of the bread, the knife right of it.
    expect(ask('on the left of', 'bread_1')).toEqual(expect.arrayContaining(['mug_1', 'mug_2']));
    expect(ask('on the right of', 'bread_1')).toContain('knife_1');
    const d = distanceToTarget(sim, 'coffee_machine_1');
    expect(d).toBeGreaterThan(0.5);
    expect(d).toBeLessThan(0.9);
    expect(distanceBetween(sim, 'bread_1', 'cutting_board_1')).toBeLessThan(0.005);
  });
});
