// The 3D view's canvas and WebGL context, made by the entry point while the
// app's scripts still load: creating a context waits on the GPU process (most
// of the engine's start), and the page has nothing else to do then. The view
// adopts it once; later views make their own.

/** The context attributes the view's engine asks for (world.ts): an existing context is reused only as it was made. */
export const GL_ATTRIBUTES: WebGLContextAttributes = {
  // Opaque (the scene clears to an opaque sky): the browser's compositor then knows
  // nothing beneath the view shows through and skips drawing the page under it at
  // every frame, which software compositing (no GPU) pays for per pixel.
  alpha: false,
  preserveDrawingBuffer: false,
  stencil: true,
  antialias: false,
  powerPreference: 'high-performance',
};

let early: HTMLCanvasElement | null = null;

/** Makes the canvas and its WebGL2 context now (nothing when WebGL2 is missing: the view then makes its own). */
export function prepareCanvas(): void {
  try {
    const c = document.createElement('canvas');
    if (c.getContext('webgl2', GL_ATTRIBUTES)) early = c;
  } catch {
    // Some environments throw instead of returning null.
  }
}

/** Whether a WebGL2 context was made early (the view need not try again to know WebGL works). */
export function hasEarlyContext(): boolean {
  return early !== null;
}

/** The early canvas, once; null afterwards or when none was made. */
export function takeCanvas(): HTMLCanvasElement | null {
  const c = early;
  early = null;
  return c;
}

/** Whether this browser can draw the 3D view, and with which WebGL. */
export function webglSupport(): 'webgl2' | 'webgl' | null {
  if (hasEarlyContext()) return 'webgl2';
  try {
    const c = document.createElement('canvas');
    if (c.getContext('webgl2')) return 'webgl2';
    if (c.getContext('webgl')) return 'webgl';
  } catch {
    // Some environments throw instead of returning null.
  }
  return null;
}
