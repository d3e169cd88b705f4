// A placement says where it went: at an explicit point that is taken, the
// object lands elsewhere and the result says how far; an object with an up
// says how it stands (a box on its side is not upright; a plum has no up).
import { expect, it } from 'vitest';
import { sceneWorld } from '../../test/fixtures/worlds';
import { qAxisAngle, v3 } from '../math';
import { observe } from '../perception/observe';
import { pick, place } from './manipulation';
import { POSE_TOLERANCE, standing } from './placed';

it('a place at an explicit point that is taken says how far from it the object landed', async () => {
  const sim = await sceneWorld('tabletop/fruits');
  observe(sim);
  expect(await pick(sim, 'lemon_1')).toMatchObject({ ok: true });
  const want = sim.pose('plum_1').p;
  const r = await place(sim, { kind: 'point', point: v3(want.x, want.y, want.z) });
  expect(r.ok).toBe(true);
  const b = sim.aabb('lemon_1');
  const d = Math.hypot((b.min.x + b.max.x) / 2 - want.x, (b.min.z + b.max.z) / 2 - want.z);
  expect(d).toBeGreaterThan(POSE_TOLERANCE);
  expect(r.summary).toContain(`${Math.round(d * 100)} cm from the requested point`);
});

it('knows how an object with an up stands, and that round things have none', async () => {
  const sim = await sceneWorld('tabletop/workshop');
  expect(standing(sim, 'klt_1')).toEqual({ way: 'upright', tiltDeg: 0 });
  const body = sim.world.getRigidBody(sim.entity('klt_1').body);
  body.setRotation(qAxisAngle(v3(1, 0, 0), Math.PI / 2), true);
  expect(standing(sim, 'klt_1')).toMatchObject({ way: 'on its side', tiltDeg: 90 });
  body.setRotation(qAxisAngle(v3(1, 0, 0), Math.PI), true);
  expect(standing(sim, 'klt_1')?.way).toBe('upside down');
  const fruit = await sceneWorld('tabletop/fruits');
  expect(standing(fruit, 'plum_1')).toBeUndefined();
});

it('a round object with a drawn stem has no up (the apple on the stove is not "on its side")', async () => {
  const sim = await sceneWorld('kitchen/assistive');
  sim.world.getRigidBody(sim.entity('apple_1').body).setRotation(qAxisAngle(v3(1, 0, 0), Math.PI / 3), true);
  expect(standing(sim, 'apple_1')).toBeUndefined();
});
