// The Babylon view of a live scene (world-core.ts) with what tests, the probe and
// overlays ask of it: frame rates, pose latency, draw counts, where a body shows
// on the canvas, and the camera's framing.
import type { LatencyStats } from './probe';
import { seesRobot } from './world-cameras';
import { WorldCore } from './world-core';

export { INSET_H, INSET_W } from './world-cameras';
export type { Hover } from './world-pick';
export type { LabelPoint } from './world-labels';
export type { DropHandler } from './world-drag';
export type { ViewOptions, ViewMotion, WorldCallbacks } from './world-core';

export class World extends WorldCore {
  /** Frames per second while something changes, or null when nothing changed in the last second (idle, not slow). */
  fps(): number | null {
    return this.rate.fps(performance.now());
  }

  poseLatency(): LatencyStats {
    return this.cur?.poses.latency() ?? { last: null, median: null, p95: null, samples: 0 };
  }

  resetStats(): void {
    this.cur?.poses.resetStats();
  }

  get poseSeq(): number {
    return this.cur?.poses.seq ?? -1;
  }

  /** What the last frame drew: draw calls, meshes that passed culling, and their triangle indices (load-independent costs). */
  drawStats(): { drawCalls: number; activeMeshes: number; activeIndices: number } {
    const s = this.cur?.graph.scene;
    const sorted = [...this.drawCalls].sort((a, b) => a - b);
    return {
      // The median of the last frames' (a frame that also refreshes the robot camera draws more).
      drawCalls: sorted[Math.floor(sorted.length / 2)] ?? 0,
      activeMeshes: s?.getActiveMeshes().length ?? 0,
      activeIndices: s?.getActiveIndices() ?? 0,
    };
  }

  /** Robot-camera images rendered since the scene loaded. */
  get insetRenders(): number {
    return this.cur?.robotCam.renders ?? 0;
  }

  get meshCount(): number {
    return this.cur?.graph.scene.meshes.length ?? 0;
  }

  /** Whether the robot can be seen from the orbit camera as it stands (for tests and the probe). */
  robotInView(): boolean {
    const cur = this.cur;
    if (!cur) return false;
    return seesRobot(cur.graph, cur.camera.position, cur.meta);
  }

  /** Where a body's origin appears on the canvas, in CSS pixels from its top-left corner. */
  screenPoint(id: string): [number, number] | null {
    return this.cur?.picker.screenPoint(this.engine, this.cur.camera, id) ?? null;
  }

  cameraRadius(): number {
    return this.cur?.camera.radius ?? 0;
  }

  /** The orbit camera's angles (alpha around the vertical, beta from it), radians. */
  cameraAngles(): [number, number] {
    const c = this.cur?.camera;
    return c ? [c.alpha, c.beta] : [0, 0];
  }

  /** Where the top of a body appears on the canvas (a speech bubble's anchor), in CSS pixels. */
  topPoint(id: string): [number, number] | null {
    return this.cur?.picker.topPoint(this.engine, this.cur.camera, id) ?? null;
  }

  /** The canvas rectangle a body covers (left, top, right, bottom in CSS pixels): how large the default view shows it. */
  screenBox(id: string): [number, number, number, number] | null {
    return this.cur?.picker.screenBox(this.engine, this.cur.camera, id) ?? null;
  }

  bodyPosition(id: string): [number, number, number] | null {
    return this.cur?.picker.bodyPosition(id) ?? null;
  }
}
