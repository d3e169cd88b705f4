import { describe, expect, it } from 'vitest';
import { DrawRate, FrameDemand, IDLE_MS, SAFETY_MS, SETTLE_FRAMES, type Wake } from './frame-demand';
import { readoutText } from './fps-readout';

const VIEW = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, -2, -5, 1, 1280, 720];

/** A demand past its scene's settling frames, with VIEW drawn at t=0. */
function settled(): FrameDemand {
  const d = new FrameDemand();
  d.loaded(0);
  d.drawn(0, VIEW);
  return d;
}

describe('FrameDemand: what wakes a draw', () => {
  it('a still scene with an unmoved camera needs no frame until the safety redraw', () => {
    const d = settled();
    expect(d.due(16, VIEW)).toBeNull();
    expect(d.due(SAFETY_MS - 1, VIEW)).toBeNull();
    expect(d.due(SAFETY_MS, VIEW)).toBe('safety');
  });

  it('an idle page (pages of a class side by side) draws at most one frame in two seconds', () => {
    const d = settled();
    let frames = 0;
    for (let t = 16; t <= 10_000; t += 16)
      if (d.due(t, VIEW) !== null) {
        d.drawn(t, VIEW);
        frames++;
      }
    expect(frames).toBeLessThanOrEqual(5);
    expect(frames).toBeGreaterThan(0);
  });

  it.each<Wake>(['poses', 'replay', 'scene', 'view', 'pointer', 'inset', 'shown'])('a %s wake draws the next frame, once', (why) => {
    const d = settled();
    d.wake(why);
    expect(d.due(16, VIEW)).toBe(why);
    d.drawn(16, VIEW);
    expect(d.due(33, VIEW)).toBeNull();
  });

  it('a camera that moved (view matrix or canvas size) draws; a change below float noise does not', () => {
    const d = settled();
    const turned = [...VIEW];
    turned[12] = 0.01;
    expect(d.due(16, turned)).toBe('camera');
    const resized = [...VIEW];
    resized[16] = 1281;
    expect(d.due(16, resized)).toBe('camera');
    const noise = [...VIEW];
    noise[14] = -5 * (1 + 1e-9);
    expect(d.due(16, noise)).toBeNull();
  });

  it("a new scene's first frames are drawn back to back, then it waits for a change", () => {
    const d = new FrameDemand();
    d.loaded();
    let drawn = 0;
    for (let t = 0; t < 40; t++) {
      if (d.due(t * 16, VIEW) === null) break;
      d.drawn(t * 16, VIEW);
      drawn++;
    }
    expect(drawn).toBe(SETTLE_FRAMES);
  });

  it('a view never drawn draws at once', () => {
    expect(new FrameDemand().due(0, VIEW)).toBe('camera');
  });
});

describe('DrawRate: the readout and adaptive resolution see the rate while things change', () => {
  it('idle when nothing changed in the last second', () => {
    const r = new DrawRate();
    for (let t = 0; t < 3000; t += 16) r.tick(t, false);
    expect(r.fps(3000)).toBeNull();
    expect(r.busyMs).toBe(0);
  });

  it('the rate of frames drawn back to back while busy (25 ms a frame: 40 fps)', () => {
    const r = new DrawRate();
    for (let t = 0; t <= 1000; t += 25) r.tick(t, true);
    expect(r.fps(1000)).toBeCloseTo(40, 5);
    expect(r.busyMs).toBe(1000);
  });

  it('a scene changing every other display frame draws at what a frame takes, not at the rate of changes', () => {
    const r = new DrawRate();
    for (let i = 0; i <= 60; i++) r.tick(i * 16, i % 2 === 0);
    // Each drawn frame held the page 16 ms.
    expect(r.fps(960)).toBeCloseTo(62.5, 5);
    expect(r.busyMs).toBe(30 * 16);
  });

  it('goes idle a second after the last change; a pause does not count as a slow frame', () => {
    const r = new DrawRate();
    for (let t = 0; t <= 500; t += 20) r.tick(t, true);
    r.tick(520, false);
    expect(r.fps(520)).toBeCloseTo(50, 5);
    expect(r.fps(520 + IDLE_MS + 1)).toBeNull();
    r.tick(600, true);
    r.pause();
    r.tick(5000, true);
    expect(r.tick(5020, true)).toBe(20);
  });
});

describe('the fps readout', () => {
  it('says idle, not "0 fps", when nothing changed; the rate while something does', () => {
    expect(readoutText({ fps: null, level: 2 })).toBe('idle');
    expect(readoutText({ fps: 47.6, level: 2 })).toBe('48 fps');
  });
});
