// Types of renderer-build.mjs (plain JavaScript: the scripts run without a build step).
export type RendererBuildState =
  | { state: 'missing'; index: string }
  | { state: 'stale'; index: string; newer: string; builtAt: number; sourcesAt: number }
  | { state: 'fresh'; index: string; builtAt: number };
export function rendererBuildState(root: string): RendererBuildState;
export function ensureRendererBuilt(
  root: string,
  opts?: { say?: (line: string) => void; logLevel?: 'error' | 'warn' | 'info'; stdio?: 'inherit' | 'ignore' | 'pipe' },
): boolean;
