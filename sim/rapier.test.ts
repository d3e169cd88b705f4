// Both Rapier builds load, each once per process, and loading leaves the fetch
// globals exactly as it found them (they are hidden only while init inspects them).
import { describe, expect, it } from 'vitest';
import { DEFAULT_RAPIER_BUILD, loadRapier, rapierBuild } from './rapier';

describe('Rapier builds', () => {
  it('loads the SIMD (0.20) and scalar (0.21) builds; the default is SIMD unless SKILLBRIDGE_RAPIER says otherwise', async () => {
    const before = ['Request', 'Response'].map((k) => Object.getOwnPropertyDescriptor(globalThis, k));
    const [simd, scalar] = await Promise.all([loadRapier('simd'), loadRapier('scalar')]);
    expect(simd.version()).toBe('0.20.0');
    expect(scalar.version()).toBe('0.21.0');
    expect(await loadRapier('simd')).toBe(simd);
    expect(DEFAULT_RAPIER_BUILD).toBe('simd');
    expect(rapierBuild()).toBe(process.env['SKILLBRIDGE_RAPIER'] === 'scalar' ? 'scalar' : 'simd');
    expect(['Request', 'Response'].map((k) => Object.getOwnPropertyDescriptor(globalThis, k))).toEqual(before);
    expect(typeof Response).toBe('function');

    // The two builds step the same world alike enough for side-by-side benchmarks.
    for (const R of [simd, scalar]) {
      const w = new R.World({ x: 0, y: -9.81, z: 0 });
      const b = w.createRigidBody(R.RigidBodyDesc.dynamic().setTranslation(0, 1, 0));
      w.createCollider(R.ColliderDesc.ball(0.1), b);
      for (let i = 0; i < 60; i++) w.step();
      expect(b.translation().y).toBeCloseTo(1 - 0.5 * 9.81 * (60 / 60) ** 2, 1);
      w.free();
    }
  });
});
