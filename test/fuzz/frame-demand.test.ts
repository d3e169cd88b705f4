// Drawing only what changed (renderer/src/view/frame-demand.ts): whatever the
// order of wakes, camera moves and pauses, a change is drawn at the next display
// frame and no frame on screen is older than the safety period.
import fc from 'fast-check';
import { describe, it } from 'vitest';
import { FrameDemand, SAFETY_MS, type Wake } from '../../renderer/src/view/frame-demand';
import { fuzzRuns, fuzzSeed } from './support/budget';

const VIEW = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, -2, -5, 1, 1280, 720];

function settled(): FrameDemand {
  const d = new FrameDemand();
  d.loaded(0);
  d.drawn(0, VIEW);
  return d;
}

describe('frame demand (generated event sequences)', () => {
  it('never leaves a change undrawn, nor any frame older than the safety period ', () => {
    const step = fc.oneof(
      fc.record({ k: fc.constant('wake' as const), why: fc.constantFrom<Wake>('poses', 'scene', 'pointer', 'view') }),
      fc.record({ k: fc.constant('move' as const), dx: fc.double({ min: -1, max: 1, noNaN: true }) }),
      fc.record({ k: fc.constant('wait' as const), ms: fc.integer({ min: 1, max: 400 }) }),
    );
    fc.assert(
      fc.property(fc.array(step, { maxLength: 60 }), (steps) => {
        const d = settled();
        const view = [...VIEW];
        let now = 0;
        let drawnAt = 0;
        let drawnView = [...view];
        let pending = false;
        for (const s of steps) {
          if (s.k === 'wake') {
            d.wake(s.why);
            pending = true;
          } else if (s.k === 'move') view[12] = view[12]! + s.dx;
          else now += s.ms;
          // A display frame after each event.
          now += 16;
          const why = d.due(now, view);
          const moved = Math.abs(view[12]! - drawnView[12]!) > 1e-6 * Math.max(1, Math.abs(drawnView[12]!));
          if (pending || moved || now - drawnAt >= SAFETY_MS) {
            if (why === null) return false;
          }
          if (why !== null) {
            d.drawn(now, view);
            drawnAt = now;
            drawnView = [...view];
            pending = false;
          }
        }
        return true;
      }),
      { numRuns: fuzzRuns(200), seed: fuzzSeed(38) },
    );
  });
});
