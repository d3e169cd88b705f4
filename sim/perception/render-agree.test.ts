// The rasterised camera against the ray-cast one: on any table of objects (placed
// by the generator), the two agree on what nearly every pixel shows. The ray
// caster meets the physics shapes exactly; a disagreement beyond the edges of
// shapes (a mesh wound inward, a wrong pose, a culled face) shows here.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fuzzRuns, fuzzSeed } from '../../test/fuzz/support/budget';
import { layoutWorld, sceneWorld, tableLayout } from '../../test/fixtures/worlds';
import { type CameraImage, renderCamera } from './render';
import { renderCameraRays } from './render-rays';

const TYPES = ['lemon', 'bowl', 'cup', 'mug', 'coke_can', 'sponge', 'toy_block', 'wooden_box', 'peach', 'spatula'] as const;
const WIDTH = 48;

/** Share of pixels showing the same thing; of those showing the same object, share coloured alike (within 40 of 255 a channel). */
function agreement(fast: CameraImage, exact: CameraImage): { labels: number; colours: number } {
  let same = 0;
  let both = 0;
  let near = 0;
  for (let i = 0; i < fast.labels.length; i++) {
    if (fast.labels[i] !== exact.labels[i]) continue;
    same++;
    if (!fast.labels[i]) continue;
    both++;
    const d = [0, 1, 2].map((c) => Math.abs(fast.rgb[i * 3 + c]! - exact.rgb[i * 3 + c]!));
    if (Math.max(...d) <= 40) near++;
  }
  return { labels: same / fast.labels.length, colours: near / Math.max(1, both) };
}

describe('rasterised camera', () => {
  it('shows what the ray-cast camera shows, pixel by pixel, on any table of objects', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.record({
            type: fc.constantFrom(...TYPES),
            x: fc.double({ min: 0.1, max: 0.55, noNaN: true }),
            z: fc.double({ min: -0.35, max: 0.35, noNaN: true }),
          }),
          { minLength: 1, maxLength: 5 },
        ),
        async (objects) => {
          const sim = await layoutWorld(
            tableLayout(
              objects.map((o, i) => ({ id: `${o.type}_${i + 1}`, type: o.type, position: [o.x, 0.76, o.z] as [number, number, number] })),
            ),
          );
          try {
            const fast = renderCamera(sim, { width: WIDTH });
            const exact = renderCameraRays(sim, { width: WIDTH });
            const a = agreement(fast, exact);
            expect(a.labels).toBeGreaterThan(0.95);
            expect(a.colours).toBeGreaterThan(0.9);
          } finally {
            sim.dispose();
          }
        },
      ),
      { numRuns: fuzzRuns(6), seed: fuzzSeed(42) },
    );
  }, 30_000);

  it('agrees with the ray-cast camera in the built-in scenes, and colours the same pixels alike', async () => {
    for (const id of ['tabletop/fruits', 'kitchen', 'farm']) {
      const sim = await sceneWorld(id);
      try {
        const fast = renderCamera(sim, { width: WIDTH });
        const exact = renderCameraRays(sim, { width: WIDTH });
        const a = agreement(fast, exact);
        expect(a.labels, id).toBeGreaterThan(0.95);
        // Shading differs only where a curved face is cut into flat ones.
        expect(a.colours, id).toBeGreaterThan(0.9);
      } finally {
        sim.dispose();
      }
    }
  }, 30_000);
});
