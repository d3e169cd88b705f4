// What the 3D view reports about itself on window.__skillbridge: end-to-end
// tests and `skillbridge bench app` read it; people can too, from the console.
export interface LatencyStats {
  last: number | null;
  median: number | null;
  p95: number | null;
  samples: number;
}

export interface ViewProbe {
  ready: boolean;
  webgl: string;
  renderer: string;
  /** Software GL (SwiftShader, llvmpipe): the view lowers its resolution and drops shadows. */
  software: boolean;
  sceneId: string | null;
  generation: number;
  /**
   * Frames drawn since the page loaded / since the current scene was built. The
   * view draws only when something changed (frame-demand.ts): a still scene adds
   * a frame every half second.
   */
  framesRendered: number;
  framesSinceLoad: number;
  /** Display frames the view looked at, drawn or not: the page's main thread kept up with the display. */
  displayFrames: number;
  /** Sequence number of the last pose frame drawn. */
  poseSeq: number;
  contextLost: boolean;
  meshCount: number;
  /** Robot-camera images rendered since the scene loaded (a second pass over the scene each). */
  insetRenders: number;
  /** Frames per second while something changes, null when idle (nothing changed in the last second). */
  fps(): number | null;
  /** What the last frame drew (draw calls, meshes, triangle indices): costs that do not depend on the machine's load. */
  drawStats(): { drawCalls: number; activeMeshes: number; activeIndices: number };
  poseLatency(): LatencyStats;
  resetStats(): void;
  /** World position of a drawn body (object, person or "robot#part"), as drawn. */
  bodyPosition(id: string): [number, number, number] | null;
  /** Where a body appears on the canvas (CSS pixels), to point at it. */
  screenPoint(id: string): [number, number] | null;
  /** The canvas rectangle (left, top, right, bottom; CSS pixels) a body's meshes cover, unclipped. */
  screenBox(id: string): [number, number, number, number] | null;
  /** Whether the robot can be seen from the orbit camera (nothing in the line of sight). */
  robotInView(): boolean;
  /** The hardware scaling level (pixels drawn per side = 1/level): the quality setting's resolution. */
  scaling(): number;
  /** The quality setting's level and the floor adaptive resolution may go to: [base, floor]. */
  scalingRange(): [number, number];
  /** The orbit camera's distance from its target, metres (how the view is framed). */
  cameraRadius(): number;
  /** The distance the default view would pick for the canvas as it is now (what reframing sets). */
  framedRadius(): number;
  /** The orbit camera's angles [alpha, beta], radians (a person's drag turns them; reframing sets the default). */
  cameraAngles(): [number, number];
  /** Whether the quality setting's antialiasing pass is on. */
  antialiased(): boolean;
  /** Highlighted ids (objects named in the running tool call). */
  highlighted(): string[];
  /** The always-on labels as drawn (presentation mode), in canvas pixels. */
  labels(): Array<{ id: string; label: string; x: number; y: number }>;
  /** The object being dragged in the view, if any. */
  readonly dragging: string | undefined;
}

export function stats(samples: readonly number[]): LatencyStats {
  if (!samples.length) return { last: null, median: null, p95: null, samples: 0 };
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number): number => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
  return { last: samples[samples.length - 1]!, median: at(0.5), p95: at(0.95), samples: samples.length };
}
