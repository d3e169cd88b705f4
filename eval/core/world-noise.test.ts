// The run's noise reaches every case's world exactly as given (shared and leased
// copies alike), and acts on the case's own run, not on building its start.
import { afterAll, describe, expect, it } from 'vitest';
import { detectObjects } from '../../sim/perception/detection';
import { NO_NOISE } from '../../sim/world/types';
import type { WorldSpec } from './case';
import { WorldPool } from './world';

const fruits: WorldSpec = { key: 'noise-test#fruits', scene: 'tabletop/fruits', edits: [], setup: [] };
const pools: WorldPool[] = [];
const pool = (o: ConstructorParameters<typeof WorldPool>[0]) => {
  const p = new WorldPool(o);
  pools.push(p);
  return p;
};
afterAll(async () => {
  for (const p of pools) await p.dispose();
});

describe('noise in case worlds', () => {
  it('is the noise given, in the shared world and in a leased copy; a clean pool has none', async () => {
    const noise = { distanceSigma: 0.02, detectionDropout: 1, skillFailureRate: 0 };
    const noisy = pool({ seed: 1, noise });
    const shared = await noisy.checkout(fruits);
    expect(shared.cw.world.noise).toEqual(noise);
    expect(detectObjects(shared.cw.world)).toEqual([]);
    const first = await noisy.lease(fruits);
    const second = await noisy.lease(fruits);
    expect(second.cw.world.noise).toEqual(noise);
    expect(detectObjects(second.cw.world)).toEqual([]);
    first.release();
    second.release();
    const clean = await pool({ seed: 1 }).checkout(fruits);
    expect(clean.cw.world.noise).toEqual(NO_NOISE);
    expect(detectObjects(clean.cw.world).map((d) => d.id)).toContain('lemon_1');
    // Same seed, same start: noise changes what is observed, not where the case begins.
    expect(shared.cw.hash).toBe(clean.cw.hash);
  });

  it("builds the case's start without noise (a setup pick cannot fumble), then the case's own pick does", async () => {
    const spec: WorldSpec = { key: 'noise-test#held', scene: 'tabletop/fruits', edits: [], setup: [{ do: 'pick', object: 'lemon_1' }] };
    const p = pool({ seed: 1, noise: { skillFailureRate: 1 } });
    const { robot } = await p.checkout(spec);
    expect(await robot.perception.holding()).toBe('lemon_1');
    const { robot: again } = await p.checkout(fruits);
    const picked = await again.arm!.pick('plum_1');
    expect(picked.ok).toBe(false);
  });
});
