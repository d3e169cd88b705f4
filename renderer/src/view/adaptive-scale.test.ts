import { describe, expect, it } from 'vitest';
import { AdaptiveScale, resolutionPercent } from './adaptive-scale';

/** Feeds frames at `fps` for `seconds` from `t0` (ms); returns the time after and every level change seen. */
function run(a: AdaptiveScale, t0: number, seconds: number, fps: (level: number) => number, changes: number[] = []) {
  let t = t0;
  const end = t0 + seconds * 1000;
  while (t < end) {
    t += 1000 / fps(a.current);
    const c = a.frame(t);
    if (c !== null) changes.push(c);
  }
  return { t, changes };
}

describe('adaptive resolution', () => {
  it('a slow view draws fewer pixels step by step, never past the floor', () => {
    const a = new AdaptiveScale(2, 3);
    const { changes } = run(a, 0, 30, () => 20);
    expect(changes).toEqual([2.25, 2.5, 2.75, 3]);
    expect(a.current).toBe(3);
  });

  it('a view that keeps up stays at the quality setting’s resolution', () => {
    const a = new AdaptiveScale(2, 3);
    expect(run(a, 0, 30, () => 60).changes).toEqual([]);
    expect(a.current).toBe(2);
  });

  it('finds the most pixels the machine draws at the target rate, and holds it instead of oscillating', () => {
    // The machine keeps 60 fps at level 2.5 or more, ~45 below it.
    const a = new AdaptiveScale(2, 3);
    const fps = (level: number) => (level >= 2.5 ? 60 : 45);
    const { changes } = run(a, 0, 60, fps);
    expect(a.current).toBe(2.5);
    // Up to 2.5, a try at 2.25 that proved slow, back to 2.5; then one more try per hold (20 s), not every window.
    expect(changes.slice(0, 4)).toEqual([2.25, 2.5, 2.25, 2.5]);
    expect(changes.filter((l) => l === 2.25).length).toBeLessThanOrEqual(1 + 60 / 20);
  });

  it('a level that draws in the 50s is not kept: the view aims at the display’s 60, and a try that costs it is undone', () => {
    // 60 fps at level 2.5 or more, 58 below: a frame dropped every half second, short of the display's rate.
    const fps = (level: number) => (level >= 2.5 ? 60 : 58);
    const a = new AdaptiveScale(2, 3);
    const { changes } = run(a, 0, 60, fps);
    expect(changes.slice(0, 2)).toEqual([2.25, 2.5]);
    expect(a.current).toBe(2.5);
  });

  it('goes back to more pixels once the machine is quiet again', () => {
    const a = new AdaptiveScale(2, 3);
    const busy = run(a, 0, 20, () => 20);
    expect(a.current).toBe(3);
    run(a, busy.t, 60, () => 60);
    expect(a.current).toBe(2);
  });

  it('a new quality setting starts at its own base level', () => {
    const a = new AdaptiveScale(2, 3);
    run(a, 0, 20, () => 20);
    a.reset(1.4, 1.4);
    expect(a.current).toBe(1.4);
    expect(run(a, 100_000, 20, () => 10).changes).toEqual([]);
  });

  it('says the resolution as a share of the screen’s pixels per side', () => {
    expect(resolutionPercent(1)).toBe(100);
    expect(resolutionPercent(2)).toBe(50);
    expect(resolutionPercent(3)).toBe(33);
  });
});
