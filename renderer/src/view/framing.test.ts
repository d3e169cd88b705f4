// The default view shows the whole workspace: every corner of its box projects
// inside the canvas at the fitted distance, for wide and tall canvases alike;
// always-on labels do not cover each other.
import { Vector3 } from '@babylonjs/core/Maths/math.vector';
import { describe, expect, it } from 'vitest';
import { fitRadius } from './world-cameras';
import { declutter } from './world-labels';

function inView(target: Vector3, min: number[], max: number[], alpha: number, beta: number, aspect: number, radius: number): boolean {
  const back = new Vector3(Math.cos(alpha) * Math.sin(beta), Math.cos(beta), Math.sin(alpha) * Math.sin(beta));
  const right = Vector3.Cross(new Vector3(0, 1, 0), back).normalize();
  const up = Vector3.Cross(back, right).normalize();
  const tanV = Math.tan(0.4);
  for (const x of [min[0]!, max[0]!])
    for (const y of [min[1]!, max[1]!])
      for (const z of [min[2]!, max[2]!]) {
        const c = new Vector3(x, y, z).subtract(target);
        const depth = radius - Vector3.Dot(c, back);
        if (depth <= 0) return false;
        if (Math.abs(Vector3.Dot(c, up)) / depth > tanV + 1e-9) return false;
        if (Math.abs(Vector3.Dot(c, right)) / depth > tanV * aspect + 1e-9) return false;
      }
  return true;
}

describe('framing the workspace', () => {
  const min = [-3, 0, -2];
  const max = [3, 0.9, 2.5];
  const target = new Vector3(0, 0.45, 0.25);
  for (const aspect of [16 / 9, 0.9, 0.6]) {
    it(`fits every corner at aspect ${aspect.toFixed(2)}, and not much farther than needed`, () => {
      for (const alpha of [0.3, 1.2, 2.5]) {
        const r = fitRadius(target, min as never, max as never, alpha, 1.0, aspect);
        expect(inView(target, min, max, alpha, 1.0, aspect, r)).toBe(true);
        expect(inView(target, min, max, alpha, 1.0, aspect, r * 0.85)).toBe(false);
      }
    });
  }
});

describe('labels', () => {
  it('labels that would overlap are moved apart; apart ones stay', () => {
    const out = declutter([
      { id: 'a', label: 'lemon', x: 100, y: 200, kind: 'object' },
      { id: 'b', label: 'peach', x: 110, y: 205, kind: 'object' },
      { id: 'c', label: 'bowl', x: 400, y: 200, kind: 'object' },
    ]);
    const y = (id: string) => out.find((p) => p.id === id)!.y;
    expect(Math.abs(y('a') - y('b'))).toBeGreaterThanOrEqual(20);
    expect(y('c')).toBe(200);
  });
});
