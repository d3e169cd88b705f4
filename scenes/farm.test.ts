// The farm scene (paper 003, Valdemar): it loads, settles, and is laid out so a
// survey can work: five points of interest with their own plants and a shelter
// whose dock lies straight ahead of the entry pose. Drivable routes are checked
// with the navigation code in sim/skills/rover.test.ts (scenes/ may not import sim/).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sceneWorld } from '../test/fixtures/worlds';
import { builtinScene, listScenes } from './registry';

type World = Awaited<ReturnType<typeof sceneWorld>>;
const distXZ = (a: { x: number; z: number }, b: readonly [number, number, number]): number => Math.hypot(a.x - b[0], a.z - b[2]);

/** Plants within this distance of a point of interest are scanned there (sim/skills/rover.ts). */
const SCAN_RADIUS = 5;

describe('farm scene data', () => {
  const s = builtinScene('farm');

  it('is the Valdemar scenario: the rover, docked at 60%, with the farm tools and the DFKI planner-executor set', () => {
    expect(s.robot).toMatchObject({ id: 'valdemar', kind: 'rover' });
    expect(s.scene.robot).toMatchObject({ at: 'charging_dock', docked: true, battery: { percent: 60, low: 30, critical: 10 } });
    expect(s.scene.toolSet).toBe('farm');
    expect(s.scene.toolSets).toContain('dfki');
    expect(s.scene.paper).toMatch(/^003/);
    expect(s.scene.notes.join(' ')).toMatch(/undock/);
    expect(listScenes().find((x) => x.id === 'farm')).toMatchObject({ robotKind: 'rover', toolSet: 'farm' });
  });

  it('names five points of interest, a shelter entry and a dock straight ahead of it', () => {
    const kinds = (k: string) => s.scene.locations.filter((l) => l.kind === k).map((l) => l.id);
    expect(kinds('poi')).toEqual(['poi_1', 'poi_2', 'poi_3', 'poi_4', 'poi_5']);
    expect(kinds('entry')).toEqual(['shelter_entry']);
    expect(kinds('dock')).toEqual(['charging_dock']);
    const entry = s.scene.locations.find((l) => l.kind === 'entry')!.pose;
    const dock = s.scene.locations.find((l) => l.kind === 'dock')!.pose;
    // Docking drives forward from the entry pose: the dock lies along its heading, facing the same way.
    const heading = (entry.yaw * Math.PI) / 180;
    const dx = dock.position[0] - entry.position[0];
    const dz = dock.position[2] - entry.position[2];
    const len = Math.hypot(dx, dz);
    // Yaw 0 faces +X and 90 faces -Z (scenes/schema.ts).
    expect(dx / len).toBeCloseTo(Math.cos(heading), 6);
    expect(-dz / len).toBeCloseTo(Math.sin(heading), 6);
    expect(dock.yaw).toBe(entry.yaw);
  });

  it('gives every plant the attributes a scan reports', () => {
    const plants = s.objects.filter((o) => o.category === 'plant');
    expect(plants.length).toBeGreaterThanOrEqual(10);
    for (const p of plants) {
      expect(Object.keys(p.attributes), p.id).toEqual(expect.arrayContaining(['crop', 'species', 'growth_stage', 'health', 'symptoms']));
      expect(['healthy', 'stressed', 'diseased'], p.id).toContain(p.attributes['health']);
    }
    // Something to find: yellowing leaves, pests and disease are all present.
    const symptoms = plants.map((p) => String(p.attributes['symptoms'])).join(' ');
    expect(symptoms).toMatch(/yellowing/);
    expect(symptoms).toMatch(/caterpillar/);
    expect(plants.some((p) => p.attributes['health'] === 'diseased')).toBe(true);
  });
});

describe('farm world', () => {
  let sim: World;
  beforeAll(async () => {
    sim = await sceneWorld('farm');
  });
  afterAll(() => sim.dispose());

  it('loads and settles: nothing moves, plants stand on their beds, the rover is docked inside the shelter', () => {
    expect(sim.isAtRest()).toBe(true);
    expect([...sim.entities.values()].every((e) => e.fixed)).toBe(true);
    for (const e of sim.entities.values()) {
      if (e.spec.category !== 'plant') continue;
      const bed = e.spec.placement.on!;
      expect(sim.aabb(e.id).min.y, e.id).toBeCloseTo(sim.aabb(bed).max.y, 1);
    }
    expect(sim.body).toMatchObject({ docked: true, at: 'charging_dock' });
    expect(sim.battery.charging).toBe(true);
    const shelter = sim.aabb('shelter_1');
    const p = sim.body.basePose.p;
    expect(p.x > shelter.min.x && p.x < shelter.max.x && p.z > shelter.min.z && p.z < shelter.max.z).toBe(true);
  });

  it('each point of interest has its own plants within scan range, and no one else’s', () => {
    const plants = [...sim.entities.values()].filter((e) => e.spec.category === 'plant');
    for (const l of sim.scene.scene.locations.filter((x) => x.kind === 'poi')) {
      const here = plants.filter((e) => distXZ(sim.pose(e.id).p, l.pose.position) < SCAN_RADIUS);
      expect(here.length, l.id).toBeGreaterThanOrEqual(2);
      // All of them grow on the bed this point of interest serves, one crop per bed.
      expect(new Set(here.map((e) => e.spec.placement.on)), l.id).toEqual(new Set(l.serves));
      expect(new Set(here.map((e) => e.spec.attributes['crop'])).size, l.id).toBe(1);
    }
  });
});
