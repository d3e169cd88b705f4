// Types of software-gl.mjs (plain JavaScript: the browser-test scripts run without a build step).
export type GlBackend = 'gpu' | 'llvmpipe' | 'swiftshader';
export const GL_CHOICES: readonly ['auto', 'gpu', 'llvmpipe', 'swiftshader'];
export interface GlPlan {
  backend: GlBackend;
  /** Why this backend, in words. */
  why: string;
  /** Chromium switches without the leading "--" (Electron's appendSwitch takes "name=value" split at "="). */
  switches: string[];
  /** Environment the browser's processes need for it (Mesa reads LIBGL_ALWAYS_SOFTWARE). */
  env: Record<string, string>;
}
export function hasMesaLlvmpipe(exists?: (path: string) => boolean): boolean;
export function glPlan(opts?: {
  env?: Record<string, string | undefined>;
  platform?: string;
  exists?: (path: string) => boolean;
  software?: boolean;
}): GlPlan;
export function chromiumArgs(p: GlPlan): string[];
