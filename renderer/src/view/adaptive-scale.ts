// Adaptive resolution: when frames come slower than the display's rate, the view
// draws fewer pixels (a higher hardware scaling level), down to a floor that
// keeps shapes readable; when frames keep up for a while, it tries more pixels
// again, and backs off for a long hold if that costs the frame rate. Software GL
// is fill-rate bound, so pixels are what a slow machine can trade for smoothness.
// The quality setting gives the base level (its resolution) and the floor.

export interface AdaptiveOptions {
  /** Frames per second the view aims at. */
  target: number;
  /** Below this fps over a window the view draws fewer pixels. */
  slow: number;
  /** Seconds of frames a decision looks at. */
  windowS: number;
  /** Seconds the view must keep up before it tries more pixels. */
  steadyS: number;
  /** Seconds it holds a level after more pixels proved too slow. */
  holdS: number;
  /** Scaling level added or taken per step. */
  step: number;
}

// The aim is the display's 60: a level that drops a frame a second or more is left for fewer pixels
// (a try of more pixels that costs it is undone and held, so the level changes at most once a hold).
export const ADAPTIVE_DEFAULTS: AdaptiveOptions = { target: 59, slow: 58.5, windowS: 1.5, steadyS: 4, holdS: 20, step: 0.25 };

export class AdaptiveScale {
  private level: number;
  base: number;
  floor: number;
  private frames: number[] = [];
  private since = Number.NaN;
  private heldUntil = Number.NEGATIVE_INFINITY;
  /** The level left for more pixels last time, and when: if those prove slow, go back and hold. */
  private tried: { from: number; at: number } | null = null;

  constructor(
    base: number,
    floor: number,
    private readonly o: AdaptiveOptions = ADAPTIVE_DEFAULTS,
  ) {
    this.base = base;
    this.floor = Math.max(base, floor);
    this.level = base;
  }

  /** The level the view draws at now. */
  get current(): number {
    return this.level;
  }

  /** A new quality setting (its base level and floor), or drawing resumed: the window starts again, at the base or at `level`. */
  reset(base: number, floor: number, level = base): void {
    this.base = base;
    this.floor = Math.max(base, floor);
    this.level = Math.min(this.floor, Math.max(base, level));
    this.frames = [];
    this.since = Number.NaN;
    this.heldUntil = Number.NEGATIVE_INFINITY;
    this.tried = null;
  }

  /** A frame was drawn at `nowMs`; returns the new level when it changes, else null. */
  frame(nowMs: number): number | null {
    if (Number.isNaN(this.since)) this.since = nowMs;
    this.frames.push(nowMs);
    const span = this.o.windowS * 1000;
    while (this.frames.length && this.frames[0]! < nowMs - span) this.frames.shift();
    // Too soon after a change (or a start) to judge: the window must hold only frames at this level.
    if (nowMs - this.since < span) return null;
    const fps = (this.frames.length - 1) / ((nowMs - this.frames[0]!) / 1000);
    if (fps < this.o.slow) {
      if (this.tried && nowMs - this.tried.at < (this.o.steadyS + this.o.windowS) * 1000 && this.tried.from > this.level) {
        // More pixels cost the frame rate: back to where it was, and stay there a while.
        this.heldUntil = nowMs + this.o.holdS * 1000;
        return this.set(this.tried.from, nowMs, null);
      }
      return this.level < this.floor ? this.set(Math.min(this.floor, this.level + this.o.step), nowMs, null) : null;
    }
    if (fps >= this.o.target && this.level > this.base && nowMs - this.since >= this.o.steadyS * 1000 && nowMs >= this.heldUntil) {
      return this.set(Math.max(this.base, this.level - this.o.step), nowMs, { from: this.level, at: nowMs });
    }
    return null;
  }

  private set(level: number, nowMs: number, tried: { from: number; at: number } | null): number | null {
    if (level === this.level) return null;
    this.level = level;
    this.since = nowMs;
    this.frames = [nowMs];
    this.tried = tried;
    return level;
  }
}

/** The share of the screen's pixels per side the view draws at a scaling level, as a person reads it ("50 %"). */
export function resolutionPercent(level: number): number {
  return Math.round(100 / level);
}
