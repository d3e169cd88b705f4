// The field rover's skills on the farm scene (paper 003, Valdemar): undock,
// drive between points of interest, scan, dock only from the entry pose, charge
// only when docked, a battery that drains with distance and time and reports
// threshold crossings, and drives that stop when told to.
import { describe, expect, it } from 'vitest';
import { sceneWorld } from '../../test/fixtures/worlds';
import { dist, fromTuple, qYaw, rad, yawOf, wrapAngle } from '../math';
import type { SimWorld } from '../world/sim-world';
import { navigate, planRoute, step, sweepObstacle } from './navigation';
import { type PlantScan, charge, dock, scan, undock } from './rover';

const go = (sim: SimWorld, id: string, signal?: AbortSignal) => navigate(sim, { kind: 'location', id }, signal ? { signal } : {});
const at = (sim: SimWorld, id: string): number => dist(sim.body.basePose.p, fromTuple(sim.locations.get(id)!.pose.position));
const batteryEvents = (sim: SimWorld, since = 0) =>
  sim.events.since(since).flatMap((e) => (e.type === 'battery_threshold' ? [{ level: e.level, percent: e.percent }] : []));

/** Stops the signal's controller once simulated time passes `t` (checked every few steps, deterministically). */
function abortAt(sim: SimWorld, t: number): AbortController {
  const ac = new AbortController();
  sim.processHooks.push((s) => {
    if (s.time >= t) ac.abort();
  });
  return ac;
}

describe('rover skills on the farm', () => {
  it('undocks to the entry pose, drives to a point of interest and scans its plants', async () => {
    const sim = await sceneWorld('farm');
    const u = await undock(sim);
    expect(u).toMatchObject({ ok: true });
    expect(sim.body).toMatchObject({ docked: false, at: 'shelter_entry' });
    expect(sim.battery.charging).toBe(false);
    expect(at(sim, 'shelter_entry')).toBeLessThan(0.01);
    expect(sim.events.all().map((e) => e.type)).toContain('undocked');

    expect(await go(sim, 'poi_2')).toMatchObject({ ok: true, data: { location: 'poi_2' } });
    const pct = sim.battery.percent;
    const r = await scan(sim, 'poi_2');
    expect(r).toMatchObject({ ok: true, data: { poi: 'poi_2' } });
    const readings = (r.data as { readings: PlantScan[] }).readings;
    expect(readings.map((x) => x.plant)).toEqual(['cabbage_1', 'cabbage_2', 'cabbage_3']);
    expect(readings[0]).toMatchObject({
      crop: 'cabbage',
      species: 'Brassica oleracea var. capitata',
      growthStage: 'heading',
      health: 'healthy',
      symptoms: 'none',
      heightCm: 30,
    });
    // The plant with pest damage reads as stressed, with a matching vegetation index, and says why.
    expect(readings[1]).toMatchObject({ plant: 'cabbage_2', health: 'stressed' });
    expect(readings[1]!.symptoms).toMatch(/caterpillar/);
    expect(readings[1]!.ndvi).toBeGreaterThanOrEqual(0.42);
    expect(readings[1]!.ndvi).toBeLessThanOrEqual(0.58);
    // The text a person (or a model) reads names every plant and the damage.
    expect(r.summary).toContain('cabbage_3');
    expect(r.summary).toMatch(/cabbage_2 \(cabbage, heading, NDVI 0\.\d+, 26 cm, stressed: holes/);
    expect(sim.scans.get('poi_2')?.readings).toHaveLength(3);
    // A scan costs its energy (2 Wh of 2000) plus 15 s of idle power.
    expect(pct - sim.battery.percent).toBeCloseTo(((2 + (30 * 15) / 3600) / 2000) * 100, 4);
  });

  it('refuses to scan away from a point of interest, saying where the robot is', async () => {
    const sim = await sceneWorld('farm');
    const docked = await scan(sim, undefined);
    expect(docked).toMatchObject({ ok: false, code: 'not_here' });
    expect(docked.summary).toBe('scans are made at a point of interest; the robot is at charging_dock');
    await undock(sim);
    const r = await scan(sim, 'poi_1');
    expect(r).toMatchObject({ ok: false, code: 'not_here' });
    expect(r.summary).toContain('the robot is at shelter_entry; drive to poi_1 first');
    await go(sim, 'poi_1');
    expect((await scan(sim, 'poi_2')).summary).toBe('the robot is at poi_1, not poi_2; drive there first');
    expect(sim.scans.size).toBe(0);
  });

  it('docks only from the shelter entry pose, and docking puts the rover on the dock', async () => {
    const sim = await sceneWorld('farm');
    expect(await dock(sim)).toMatchObject({ ok: false, code: 'already_done' });
    await undock(sim);
    await go(sim, 'lane_west');
    const far = await dock(sim);
    expect(far).toMatchObject({ ok: false, code: 'not_at_entry' });
    expect(far.summary).toBe('docking starts from the shelter entry pose (shelter_entry); the robot is 3.9 m from it and turned 180° off');
    expect(sim.body.docked).toBe(false);

    expect(await go(sim, 'shelter_entry')).toMatchObject({ ok: true });
    const since = sim.events.lastId;
    expect(await dock(sim)).toMatchObject({ ok: true, summary: 'docked at charging_dock' });
    expect(sim.body).toMatchObject({ docked: true, at: 'charging_dock' });
    expect(at(sim, 'charging_dock')).toBeLessThan(0.01);
    expect(Math.abs(wrapAngle(yawOf(sim.body.basePose.q) - rad(180)))).toBeLessThan(1e-3);
    expect(sim.battery.charging).toBe(true);
    expect(sim.events.since(since).map((e) => e.type)).toContain('docked');
  });

  it('refuses to drive while docked', async () => {
    const sim = await sceneWorld('farm');
    const p0 = sim.body.basePose.p;
    const r = await go(sim, 'poi_1');
    expect(r).toMatchObject({ ok: false, code: 'docked' });
    expect(r.summary).toContain('undock first');
    expect(await step(sim, -1, 0, 0)).toMatchObject({ ok: false, code: 'docked' });
    expect(dist(sim.body.basePose.p, p0)).toBe(0);
  });

  it('charges only when docked, and says why not otherwise', async () => {
    const sim = await sceneWorld('farm');
    await undock(sim);
    const pct = sim.battery.percent;
    const r = await charge(sim, 90);
    expect(r).toMatchObject({ ok: false, code: 'not_docked', summary: 'charging happens at the dock; dock first' });
    expect(sim.battery.percent).toBe(pct);
    // Waiting undocked drains; it never charges.
    await sim.idle(60);
    expect(sim.battery.percent).toBeLessThan(pct);

    await dock(sim);
    expect(await charge(sim, 150)).toMatchObject({ ok: false, code: 'invalid_argument' });
    const from = sim.battery.percent;
    const t0 = sim.time;
    const c = await charge(sim, 80);
    expect(c).toMatchObject({ ok: true, data: { to: 80 } });
    expect(sim.battery.percent).toBeGreaterThanOrEqual(80);
    expect(sim.battery.percent).toBeLessThan(80.1);
    // 1200 W into 2000 Wh: 1% a minute.
    expect((sim.time - t0) / 60).toBeCloseTo(80 - from, 0);
    expect(await charge(sim, 75)).toMatchObject({ ok: false, code: 'already_done' });
  });

  it('driving drains the battery in proportion to distance, on top of idle power over time', async () => {
    const sim = await sceneWorld('farm');
    await undock(sim);
    const { idleW, driveWhPerM, capacityWh } = sim.scene.robot.battery;
    const used: Array<{ m: number; pct: number }> = [];
    for (const id of ['poi_1', 'poi_2', 'poi_4']) {
      const pct0 = sim.battery.percent;
      const t0 = sim.time;
      const r = await go(sim, id);
      expect(r.ok).toBe(true);
      const m = (r.data as { distanceM: number }).distanceM;
      const pct = pct0 - sim.battery.percent;
      const expected = ((driveWhPerM * m + (idleW * (sim.time - t0)) / 3600) / capacityWh) * 100;
      expect(pct).toBeCloseTo(expected, 3);
      used.push({ m, pct: pct - ((idleW * (sim.time - t0)) / 3600 / capacityWh) * 100 });
    }
    // The driving share is the same per metre on every leg: 0.1% per metre for Valdemar.
    for (const u of used) expect(u.pct / u.m).toBeCloseTo((driveWhPerM / capacityWh) * 100, 4);
    expect(used[2]!.m).toBeGreaterThan(used[0]!.m);
    expect(used[2]!.pct).toBeGreaterThan(used[0]!.pct);
  });

  it('low and critical crossings post battery events; charging back posts them going up', async () => {
    const sim = await sceneWorld('farm');
    expect(batteryEvents(sim)).toEqual([]);
    await undock(sim);
    sim.inject({ type: 'set_battery', percent: 30.5 });
    expect(batteryEvents(sim)).toEqual([]);
    await go(sim, 'poi_1');
    expect(batteryEvents(sim)).toEqual([{ level: 'low', percent: expect.closeTo(30, 1) }]);
    const mark = sim.events.lastId;
    sim.inject({ type: 'set_battery', percent: 10.5 });
    await go(sim, 'shelter_entry');
    expect(batteryEvents(sim, mark)).toEqual([{ level: 'critical', percent: expect.closeTo(10, 1) }]);
    const low = sim.events.lastId;
    await dock(sim);
    expect(await charge(sim, 40)).toMatchObject({ ok: true });
    expect(batteryEvents(sim, low).map((e) => e.level)).toEqual(['low', 'okay']);
  });

  it('a drive stops on an empty battery, short of its goal', async () => {
    const sim = await sceneWorld('farm');
    await undock(sim);
    sim.inject({ type: 'set_battery', percent: 0.3 });
    const r = await go(sim, 'poi_3');
    expect(r).toMatchObject({ ok: false, code: 'battery_empty' });
    expect(at(sim, 'poi_3')).toBeGreaterThan(5);
    expect(batteryEvents(sim).map((e) => e.level)).toEqual(['critical', 'empty']);
    expect(await go(sim, 'shelter_entry')).toMatchObject({ ok: false, code: 'battery_empty' });
  });

  it('an abort signal stops a drive part-way; the rover stays put until told again', async () => {
    const sim = await sceneWorld('farm');
    await undock(sim);
    const start = sim.body.basePose.p;
    // About 7 s of turning toward poi_3, then driving: stop 20 s in, well short of it.
    const ac = abortAt(sim, sim.time + 20);
    const r = await go(sim, 'poi_3', ac.signal);
    expect(r).toMatchObject({ ok: false, code: 'aborted', summary: 'stopped while driving to poi_3' });
    const stopped = sim.body.basePose.p;
    expect(dist(stopped, start)).toBeGreaterThan(1);
    expect(at(sim, 'poi_3')).toBeGreaterThan(5);
    expect(sim.body.at).toBeUndefined();
    expect(sim.baseBusy).toBe(false);
    await sim.idle(5);
    expect(dist(sim.body.basePose.p, stopped)).toBe(0);
    expect(await go(sim, 'poi_3')).toMatchObject({ ok: true, data: { location: 'poi_3' } });
  });

  it('a docking manoeuvre stopped part-way can be finished either way', async () => {
    const sim = await sceneWorld('farm');
    const ac = abortAt(sim, sim.time + 5);
    expect(await undock(sim, { signal: ac.signal })).toMatchObject({ ok: false, code: 'aborted' });
    expect(sim.body.docked).toBe(false);
    expect(at(sim, 'shelter_entry')).toBeGreaterThan(0.3);
    expect(at(sim, 'charging_dock')).toBeGreaterThan(0.3);
    // Neither docked nor at the entry, yet the manoeuvre can resume in either direction.
    expect(await dock(sim)).toMatchObject({ ok: true });
    expect(at(sim, 'charging_dock')).toBeLessThan(0.01);
    expect(await undock(sim)).toMatchObject({ ok: true });
    expect(await undock(sim)).toMatchObject({ ok: false, code: 'not_docked' });
  });

  it('routes between every pair of places the rover drives to, around the oak and the trough', async () => {
    const sim = await sceneWorld('farm');
    const places = [...sim.locations.values()].filter((l) => l.kind !== 'dock');
    let detours = 0;
    for (const a of places) {
      sim.body.basePose = { p: fromTuple(a.pose.position), q: qYaw(rad(a.pose.yaw)) };
      for (const b of places) {
        if (a === b) continue;
        const r = planRoute(sim, fromTuple(b.pose.position), new Set());
        expect('path' in r ? 'free' : `${a.id} -> ${b.id} blocked by ${r.blockedBy}`).toBe('free');
        if ('path' in r && r.path.length > 1) detours++;
      }
    }
    expect(detours).toBeGreaterThan(0);
    const p = (id: string) => fromTuple(sim.locations.get(id)!.pose.position);
    expect(sweepObstacle(sim, p('poi_5'), p('shelter_entry'))).toBe('oak_1');
    expect(sweepObstacle(sim, p('poi_3'), p('poi_4'))).toBe('trough_1');
    // Plain driving cannot end on the dock: the charging plate takes that spot.
    expect(sweepObstacle(sim, p('shelter_entry'), p('charging_dock'))).toBe('charging_station_1');
  });

  it('drives the whole survey: undock, five scans, back, dock and charge', async () => {
    const sim = await sceneWorld('farm');
    expect(await undock(sim)).toMatchObject({ ok: true });
    for (const poi of ['poi_1', 'poi_2', 'poi_3', 'poi_4', 'poi_5']) {
      expect(await go(sim, poi), poi).toMatchObject({ ok: true, data: { location: poi } });
      expect(await scan(sim, poi), poi).toMatchObject({ ok: true });
    }
    expect(await go(sim, 'shelter_entry')).toMatchObject({ ok: true, data: { via: 1 } });
    expect(await dock(sim)).toMatchObject({ ok: true });
    const left = sim.battery.percent;
    // About 80 m of driving and five scans from 60%: the notes promise about 9%.
    expect(60 - left).toBeGreaterThan(7.5);
    expect(60 - left).toBeLessThan(10);
    expect([...sim.scans.keys()]).toEqual(['poi_1', 'poi_2', 'poi_3', 'poi_4', 'poi_5']);
    expect(await charge(sim, 100)).toMatchObject({ ok: true, data: { to: 100 } });
    expect(sim.battery.level).toBe('okay');
  });
});
