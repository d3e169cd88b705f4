// Drawing only what changed: software GL spends 20-50 ms of CPU on every frame,
// so a view that redraws a still scene 60 times a second takes a core from the
// simulation, the model and the other groups' pages for nothing. A frame is
// drawn when something it shows changed (a pose frame, the camera, the scene,
// an option, the pointer), during a scene's first frames, and at a low rate
// whatever happens, so a change nobody announced never stays unseen for long.

/** What announces a change the next frame must show. */
export type Wake = 'poses' | 'replay' | 'scene' | 'view' | 'pointer' | 'inset' | 'shown';
/** Why a frame is drawn: a wake, the camera moved, a new scene settling, or the safety redraw. */
export type DrawReason = Wake | 'camera' | 'settling' | 'safety';

/**
 * A frame is drawn at least this often, changed or not. Rarely: a class's pages
 * side by side on one machine each pay a whole frame for it, idle or not.
 */
export const SAFETY_MS = 2000;
/** A new scene's first frames are drawn back to back (its shaders compile, its layout settles). */
export const SETTLE_FRAMES = 10;
/** A view (camera matrix, canvas size) closer than this to the one drawn is the same picture. */
const VIEW_EPSILON = 1e-6;

export class FrameDemand {
  private woken: Wake | null = null;
  private settle = 0;
  private lastDrawAt = Number.NEGATIVE_INFINITY;
  private drawnView: number[] | null = null;

  constructor(private readonly safetyMs = SAFETY_MS) {}

  /** Something the next frame must show changed. */
  wake(why: Wake): void {
    this.woken ??= why;
  }

  /** A new scene was built: its first frames are drawn whatever changes. */
  loaded(frames = SETTLE_FRAMES): void {
    this.settle = frames;
    this.drawnView = null;
    this.wake('scene');
  }

  /**
   * At a display frame: why a frame must be drawn now, or null when the one on
   * screen still shows everything. `view` is what the camera sees from (its view
   * and projection matrices, the canvas's size), compared with the last drawn.
   */
  due(nowMs: number, view: ArrayLike<number>): DrawReason | null {
    if (this.woken) return this.woken;
    if (this.settle > 0) return 'settling';
    if (!this.drawnView || differs(view, this.drawnView)) return 'camera';
    if (nowMs - this.lastDrawAt >= this.safetyMs) return 'safety';
    return null;
  }

  /** A frame was drawn at `nowMs` from `view`. */
  drawn(nowMs: number, view: ArrayLike<number>): void {
    this.woken = null;
    if (this.settle > 0) this.settle--;
    this.lastDrawAt = nowMs;
    this.drawnView = Array.from(view);
  }
}

function differs(a: ArrayLike<number>, b: readonly number[]): boolean {
  if (a.length !== b.length) return true;
  for (let i = 0; i < a.length; i++) if (!(Math.abs(a[i]! - b[i]!) <= VIEW_EPSILON * Math.max(1, Math.abs(b[i]!)))) return true;
  return false;
}

/** With no frame wanted for this long, the view is idle (the readout says so rather than a rate). */
export const IDLE_MS = 1000;

/**
 * The rate the view draws at while things change: each display frame that drew
 * something that changed, timed to the next display frame (how long that draw
 * held the page), over the last second. Frames the safety redraw or a scene's
 * settling drew, and the time nothing changed, do not count: a still scene is
 * idle, not slow. `busyMs` is a clock that runs only through those frames, for
 * adaptive resolution to judge the rate by.
 */
export class DrawRate {
  private prevTick: number | null = null;
  private prevBusy = false;
  private samples: Array<{ at: number; ms: number }> = [];
  busyMs = 0;

  /** A display frame at `nowMs`; `busy`: it drew a change. Returns the time the previous busy frame took, if it was one. */
  tick(nowMs: number, busy: boolean): number | null {
    let took: number | null = null;
    if (this.prevBusy && this.prevTick !== null) {
      took = Math.max(0, nowMs - this.prevTick);
      this.busyMs += took;
      this.samples.push({ at: nowMs, ms: took });
    }
    this.prevTick = nowMs;
    this.prevBusy = busy;
    while (this.samples.length && this.samples[0]!.at < nowMs - IDLE_MS) this.samples.shift();
    return took;
  }

  /** Frames per second while busy over the last second, or null when idle (nothing changed in it). */
  fps(nowMs: number): number | null {
    const recent = this.samples.filter((s) => s.at >= nowMs - IDLE_MS);
    if (!recent.length) return null;
    const total = recent.reduce((a, s) => a + s.ms, 0);
    return total > 0 ? (recent.length * 1000) / total : null;
  }

  /** Drawing stopped (a hidden tab): the next frame does not time the pause. */
  pause(): void {
    this.prevTick = null;
    this.prevBusy = false;
  }
}
