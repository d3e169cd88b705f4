// The RAIDER kitchen scenes (paper 001): the data says what RAIDER's household
// examples need, and the world built from it is physically sound: everything
// comes to rest where the data puts it, and the robot fits at every named place.
import { beforeAll, describe, expect, it } from 'vitest';
import { sceneWorld } from '../test/fixtures/worlds';
import { builtinScene, listScenes } from './registry';

type World = Awaited<ReturnType<typeof sceneWorld>>;

describe('kitchen scene data', () => {
  it('is listed with the household manipulator and the RAIDER tool sets', () => {
    const byId = new Map(listScenes().map((s) => [s.id, s]));
    expect(byId.get('kitchen')).toMatchObject({
      robot: 'household_manipulator',
      robotKind: 'mobile_manipulator',
      toolSet: 'raider-household',
    });
    expect(byId.get('kitchen')!.toolSets).toEqual(expect.arrayContaining(['raider-household', 'raider-preferences', 'raider-recovery']));
    expect(byId.get('kitchen')!.paper).toMatch(/^001 /);
    expect(byId.get('kitchen/assistive')).toMatchObject({
      robot: 'household_manipulator',
      toolSet: 'raider-assistive',
      paper: expect.stringMatching(/^001 §5\.2/),
    });
    expect(byId.get('kitchen/assistive')!.toolSets).toContain('raider-recovery');
  });

  it("starts in the states RAIDER's issue examples need", () => {
    const k = builtinScene('kitchen');
    const o = new Map(k.objects.map((x) => [x.id, x]));
    expect(o.get('apple_1')!.placement.in).toBe('fridge_1');
    expect(o.get('fridge_1')!.states.open).toBe(false);
    expect(o.get('fridge_1')!.properties).toMatchObject({ openable: true, receptacle: true });
    expect(o.get('fridge_1')!.articulation).toMatchObject({ kind: 'hinge', parts: ['door'] });
    expect(o.get('mug_1')!.states.dirty).toBe(true);
    expect(o.get('mug_2')!.states.dirty).toBe(false);
    expect(o.get('apple_2')!.placement.in).toBe('bowl_1');
    expect(o.get('cup_1')!.placement.in).toBe('coffee_machine_1');
    expect(o.get('knife_1')!.properties).toMatchObject({ pickable: true, canSlice: true });
    expect(o.get('bread_1')!.properties).toMatchObject({ pickable: true, sliceable: true });
    expect(o.get('egg_1')!.properties.cookable).toBe(true);
    expect(o.get('microwave_1')!.properties).toMatchObject({ openable: true, toggleable: true, receptacle: true });
    expect(o.get('microwave_1')!.toggle?.effect).toBe('heat');
    expect(o.get('coffee_machine_1')!.toggle?.effect).toBe('brew');
    expect(o.get('stove_burner_4')!.toggle?.effect).toBe('heat');
    expect(o.get('sink_1')!.toggle?.effect).toBe('water');
    expect(o.get('laptop_1')!.properties).toMatchObject({ openable: true, toggleable: true });
    // Realistic masses: nothing pickable weighs more than the 3 kg payload, a fridge is heavy.
    for (const x of k.objects) if (x.properties.pickable) expect(x.mass, x.id).toBeLessThan(3);
    expect(o.get('fridge_1')!.mass).toBeGreaterThan(50);
    // The user's corpus for retrieve_user_information (§5.1).
    expect(k.scene.userInfo.some((s) => /coffee with milk/.test(s))).toBe(true);
    expect(k.scene.userInfo.some((s) => /fourth stove burner/.test(s))).toBe(true);
    expect(k.scene.notes.length).toBeGreaterThan(3);
  });

  it('adds Adriana, two medicines by a plant and a chair in the way for the assistive plan', () => {
    const a = builtinScene('kitchen/assistive');
    expect(a.scene.people).toEqual([expect.objectContaining({ id: 'adriana', name: 'Adriana', handsFree: true, known: true })]);
    const ids = a.objects.map((x) => x.id);
    expect(ids).toEqual(
      expect.arrayContaining([
        'medicine_1',
        'medicine_2',
        'plant_1',
        'bottle_1',
        'chair_3',
        'medicine_counter',
        'fridge_1',
        'coffee_machine_1',
      ]),
    );
    expect(a.objects.filter((x) => x.type === 'medicine_bottle').every((x) => x.name === 'medicine')).toBe(true);
    expect(a.scene.locations.map((l) => l.id)).toContain('medicine_counter');
  });
});

/** The quaternion of a yaw in degrees (0 faces +X, 90 faces -Z). */
const yawQ = (deg: number) => ({ x: 0, y: Math.sin((deg * Math.PI) / 360), z: 0, w: Math.cos((deg * Math.PI) / 360) });

describe.each(['kitchen', 'kitchen/assistive'])('%s in the physics world', (id) => {
  let sim: World;
  beforeAll(async () => {
    sim = await sceneWorld(id);
  });

  it('comes to rest: over two more seconds nothing falls, slides, tips or explodes', () => {
    const movable = [...sim.entities.values()].filter((e) => !e.fixed).map((e) => e.id);
    const before = new Map(movable.map((m) => [m, sim.pose(m)]));
    for (let i = 0; i < 480; i++) sim.step();
    for (const m of movable) {
      const a = before.get(m)!;
      const b = sim.pose(m);
      expect(Math.hypot(b.p.x - a.p.x, b.p.y - a.p.y, b.p.z - a.p.z), `${m} moved`).toBeLessThan(0.003);
      const turn = 2 * Math.acos(Math.min(1, Math.abs(a.q.x * b.q.x + a.q.y * b.q.y + a.q.z * b.q.z + a.q.w * b.q.w)));
      expect(turn, `${m} turned`).toBeLessThan(0.02);
      expect(b.p.y, `${m} is under the floor`).toBeGreaterThan(-0.01);
    }
    expect(sim.isAtRest()).toBe(true);
  });

  it('puts every object on or in what the data says, inside the floor', () => {
    const [fx, fz] = sim.scene.scene.floor.size;
    for (const o of sim.scene.objects) {
      const box = sim.aabb(o.id);
      const c = { x: (box.min.x + box.max.x) / 2, y: (box.min.y + box.max.y) / 2, z: (box.min.z + box.max.z) / 2 };
      expect(Math.abs(c.x) < fx / 2 && Math.abs(c.z) < fz / 2, `${o.id} is off the floor`).toBe(true);
      const { on, in: into } = o.placement;
      if (into) {
        const i = sim.interior(into)!;
        const within = c.x > i.min.x && c.x < i.max.x && c.z > i.min.z && c.z < i.max.z && box.min.y >= i.min.y - 0.005 && c.y < i.max.y;
        expect(within, `${o.id} is not inside ${into}`).toBe(true);
      } else if (on) {
        const tops = sim.surfaces(on).length ? sim.surfaces(on) : [sim.aabb(on)];
        const under = tops.find((t) => c.x > t.min.x && c.x < t.max.x && c.z > t.min.z && c.z < t.max.z);
        expect(under, `${o.id} is not over ${on}`).toBeDefined();
        expect(Math.abs(box.min.y - under!.max.y), `${o.id} does not rest on ${on}`).toBeLessThan(0.006);
      }
    }
  });

  it('leaves room for the robot at every named place (the assistive chair is the one planned exception)', () => {
    const [sx, sy, sz] = sim.scene.robot.base.size;
    const shape = new sim.R.Cuboid(sx / 2 - 0.02, sy / 2, sz / 2 - 0.02);
    for (const l of sim.locations.values()) {
      const [x, y, z] = l.pose.position;
      const hits = new Set<string>();
      sim.world.intersectionsWithShape({ x, y: y + sy / 2 + 0.02, z }, yawQ(l.pose.yaw), shape, (c) => {
        const owner = sim.colliderOwner.get(c.handle);
        if (owner && !sim.bodyLinks.colliders.has(c.handle)) hits.add(owner);
        return true;
      });
      const expected = id === 'kitchen/assistive' && l.id === 'medicine_counter' ? ['chair_3'] : [];
      expect([...hits], `at ${l.id}`).toEqual(expected);
    }
  });

  it('starts with every door shut and every appliance off', () => {
    for (const e of sim.entities.values()) {
      if (e.door) {
        expect(e.states.open, e.id).toBe(false);
        expect(e.door.value, e.id).toBe(0);
      }
      if (e.spec.properties.toggleable) expect(e.states.on, e.id).toBe(false);
    }
  });
});
