// How a link is drawn: a link over the vertex budget is drawn simplified (and
// said), never with more than the budget; simplified triangles stay within the
// mesh they come from.
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fuzzRuns, fuzzSeed } from '../../test/fuzz/support/budget';
import { robotFiles } from '../../test/support/robot-files';
import { loadRobot } from './load';
import { drawRobot, simplify } from './visuals';

const UR5E = join(import.meta.dirname, '../../test/fixtures/robots/ur5e_like/urdf/ur5e_like.urdf');

describe('drawing a described robot', () => {
  it('every link with a <visual> is drawn from it; a link over the budget is simplified, with a warning naming it', () => {
    const r = loadRobot(robotFiles(UR5E));
    const full = drawRobot(r.description!, r.meshes);
    expect([...full.links.keys()].sort()).toEqual(
      r
        .description!.links.filter((l) => l.visuals.length)
        .map((l) => l.name)
        .sort(),
    );
    expect(full.notes).toEqual([]);
    // The shoulder's STL has 32 triangles: a budget of 60 vertices (20 triangles) simplifies it.
    const small = drawRobot(r.description!, r.meshes, 60);
    const shoulder = small.links.get('shoulder_link');
    if (shoulder?.kind !== 'visual') throw new Error('the shoulder is drawn from its visual');
    const g = shoulder.shapes[0]!.geometry;
    if (g.kind !== 'triangles') throw new Error('a mesh');
    expect(g.positions.length / 9).toBeLessThanOrEqual(20);
    expect(g.positions.length / 9).toBeGreaterThan(0);
    expect(small.notes.map((n) => n.element)).toContain('link "shoulder_link"');
    expect(shoulder.note).toMatch(/more than the 20 one drawn link may have: drawn simplified to \d+/);
  });

  it('simplify keeps at most the triangles asked for, each corner within the bounds of the mesh', () => {
    const coord = fc.float({ min: -5, max: 5, noNaN: true, noDefaultInfinity: true });
    fc.assert(
      fc.property(fc.array(coord, { minLength: 9, maxLength: 9 * 300 }), fc.integer({ min: 1, max: 200 }), (raw, max) => {
        const soup = Float32Array.from(raw.slice(0, raw.length - (raw.length % 9)));
        if (!soup.length) return;
        const out = simplify(soup, max);
        expect(out.length % 9).toBe(0);
        expect(out.length / 9).toBeLessThanOrEqual(Math.max(max, 0));
        for (let k = 0; k < 3; k++) {
          const axis = (a: Float32Array) => a.filter((_, i) => i % 3 === k);
          const [lo, hi] = [Math.min(...axis(soup)), Math.max(...axis(soup))];
          for (const v of axis(out)) expect(v >= lo - 1e-4 && v <= hi + 1e-4).toBe(true);
        }
      }),
      { numRuns: fuzzRuns(100), seed: fuzzSeed(39) },
    );
  });
});
