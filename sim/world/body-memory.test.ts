// Body state read straight from Rapier's memory must be exactly what the API
// reads, in both builds, through steps, arena growth and restores; the world
// guard on that path must still catch every fault in the step it happens; and a
// layout that stops matching is dropped before a guard run trusts it.
import { describe, expect, it } from 'vitest';
import { builtinScene } from '../../scenes/registry';
import { type RapierBuild, loadRapier } from '../rapier';
import { bodyReads } from './body-reads';
import { bodyLayout, forgetLayouts, slotOf } from './body-memory';
import { MAX_SPEED } from './guard';
import { SimWorld } from './sim-world';

const faultsOf = (sim: SimWorld): string[] =>
  sim.events
    .all()
    .filter((e) => e.type === 'physics_fault')
    .map((f) => ('object' in f ? f.object : ''));

/** Every body of the world read through the API and through `bodyReads`; the count of floats that differ. */
function differences(world: SimWorld['world']): number {
  const read = bodyReads(world);
  let bad = 0;
  world.bodies.forEach((b) => {
    const t = b.translation();
    const q = b.rotation();
    const v = b.linvel();
    const w = b.angvel();
    const api = Float32Array.from([t.x, t.y, t.z, v.x, v.y, v.z, w.x, w.y, w.z]);
    const pose = Float32Array.from([t.x, t.y, t.z, q.x, q.y, q.z, q.w]);
    const s = read.state(b.handle);
    for (let i = 0; i < 9; i++) if (!Object.is(s[i], api[i])) bad++;
    const p = read.pose(b.handle);
    for (let i = 0; i < 7; i++) if (!Object.is(p[i], pose[i])) bad++;
    if (read.sleeping(b.handle) !== b.isSleeping()) bad++;
  });
  return bad;
}

describe('reading body state from Rapier memory', () => {
  for (const build of ['simd', 'scalar'] as RapierBuild[]) {
    it(`finds the ${build} build's layout and reads what the API reads, through steps, sleep, new bodies and a restore`, async () => {
      const R = await loadRapier(build);
      const world = new R.World({ x: 0, y: -9.81, z: 0 });
      try {
        expect(bodyLayout(world)?.sleeping).toBeGreaterThanOrEqual(0);
        expect(bodyReads(world).direct).toBe(true);
        world.createCollider(R.ColliderDesc.cuboid(5, 0.1, 5));
        const add = (n: number) => {
          for (let i = 0; i < n; i++) {
            const b = world.createRigidBody(
              R.RigidBodyDesc.dynamic()
                .setTranslation(-1 + 0.05 * i, 0.3 + 0.04 * (i % 9), 0.02 * (i % 5))
                .setLinvel(0.3 * Math.sin(i), 0.5, 0.2 * Math.cos(i))
                .setAngvel({ x: 2 * Math.cos(i), y: 1, z: -3 * Math.sin(i) }),
            );
            world.createCollider(R.ColliderDesc.cuboid(0.02, 0.015, 0.01).setTranslation(0.01, 0, -0.005), b);
          }
        };
        add(20);
        for (let s = 0; s < 60; s++) {
          world.step();
          // The arena grows (and moves) while the world runs.
          if (s === 30) add(200);
          // Some go to sleep, some wake.
          if (s % 10 === 5)
            world.bodies.forEach((b) => (slotOf(b.handle) % 3 === s % 3 ? b.sleep() : slotOf(b.handle) % 7 === 0 && b.wakeUp()));
          expect(differences(world)).toBe(0);
        }
        const restored = R.World.restoreSnapshot(world.takeSnapshot());
        try {
          restored.step();
          expect(bodyReads(restored).direct).toBe(true);
          expect(differences(restored)).toBe(0);
        } finally {
          restored.free();
        }
      } finally {
        world.free();
      }
    });
  }
});

describe('finding the layout', () => {
  it('finds the sleeping flag also when worlds already fill the memory (the probe then grows it)', async () => {
    // The app finds the layout at its first guard run, after the scene is built and settled.
    const sim = await SimWorld.create(builtinScene('tabletop/fruits'));
    try {
      for (let i = 0; i < 3; i++) {
        forgetLayouts();
        const layout = bodyLayout(sim.world);
        expect(layout).not.toBeNull();
        expect(layout!.sleeping).toBeGreaterThanOrEqual(0);
      }
      expect(bodyReads(sim.world).direct).toBe(true);
    } finally {
      sim.dispose();
    }
  });
});

describe('the world guard reading Rapier memory', () => {
  /**
   * Steps once; `after` runs right after the physics step, before the guard (a
   * fault the physics made in this step). Only the first physics step: the guard
   * refreshes the scene queries with a step of zero length after a fault.
   */
  function stepWith(sim: SimWorld, after: () => void): void {
    const world = sim.world;
    const step = world.step.bind(world);
    let first = true;
    world.step = () => {
      step();
      if (first) after();
      first = false;
    };
    try {
      sim.step();
    } finally {
      world.step = step;
    }
  }

  it('catches, in the same step, a NaN in one velocity, a NaN spin and a runaway spin, though every position is finite', async () => {
    const sim = await SimWorld.create(builtinScene('tabletop/fruits'));
    expect(bodyReads(sim.world).direct).toBe(true);
    const body = (id: string) => sim.world.getRigidBody(sim.entity(id).body);
    stepWith(sim, () => {
      body('lemon_1').setLinvel({ x: 0, y: Number.NaN, z: 0 }, true);
      body('plum_1').setAngvel({ x: Number.NaN, y: 0, z: 0 }, true);
      body('peach_1').setAngvel({ x: 0, y: 900, z: 0 }, true);
    });
    expect(faultsOf(sim).sort()).toEqual(['lemon_1', 'peach_1', 'plum_1']);
    for (const id of ['lemon_1', 'plum_1']) {
      const v = body(id).linvel();
      const w = body(id).angvel();
      expect(Number.isFinite(v.x + v.y + v.z + w.x + w.y + w.z)).toBe(true);
    }
    const w = body('peach_1').angvel();
    expect(Math.hypot(w.x, w.y, w.z)).toBeLessThanOrEqual(250 + 1e-3);
  });

  it('drops a layout that stopped matching the API before trusting it, and still catches the fault that step', async () => {
    const sim = await SimWorld.create(builtinScene('tabletop/fruits'));
    const layout = bodyLayout(sim.world)!;
    const translation = layout.translation;
    try {
      // A layout gone wrong: positions read from where the rotation is.
      layout.translation = layout.rotation;
      stepWith(sim, () => sim.world.getRigidBody(sim.entity('lemon_1').body).setLinvel({ x: 0, y: 40, z: 0 }, true));
      expect(layout.broken).toBe(true);
      expect(bodyReads(sim.world).direct).toBe(false);
      expect(faultsOf(sim)).toEqual(['lemon_1']);
      const v = sim.world.getRigidBody(sim.entity('lemon_1').body).linvel();
      expect(Math.hypot(v.x, v.y, v.z)).toBeLessThanOrEqual(MAX_SPEED + 1e-6);
    } finally {
      layout.translation = translation;
      layout.broken = false;
    }
  });
});
