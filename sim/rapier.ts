// Rapier is WebAssembly and must be initialised once per process before use.
// `-compat` builds embed the wasm, so this works in Node, Vitest, workers and browsers.
//
// Two builds are installed. The default is the WebAssembly SIMD build (Node 20,
// Chromium and Electron all run SIMD128): 0.20.0, the newest SIMD build published,
// steps the reference scene faster than the scalar 0.21.0 and its largest function
// compiles in a quarter of the memory. SKILLBRIDGE_RAPIER=scalar picks 0.21.0, so
// `bench sim` can compare them side by side. A world is deterministic for a given
// build; the two builds need not agree bit for bit. Every test passes with both.
import type RAPIER from '@dimforge/rapier3d-simd-compat';

export type RapierBuild = 'scalar' | 'simd';

export const DEFAULT_RAPIER_BUILD: RapierBuild = 'simd';

/** The build this process uses: SKILLBRIDGE_RAPIER=scalar|simd, else the default. */
export function rapierBuild(): RapierBuild {
  const v = globalThis.process?.env?.['SKILLBRIDGE_RAPIER'];
  return v === 'scalar' || v === 'simd' ? v : DEFAULT_RAPIER_BUILD;
}

const ready = new Map<RapierBuild, Promise<Rapier>>();

/**
 * Loads and initialises a build once per process. The types are the SIMD build's
 * (0.20): the scalar 0.21 has the same API plus soft bodies, which nothing uses.
 */
export function loadRapier(build: RapierBuild = rapierBuild()): Promise<Rapier> {
  let p = ready.get(build);
  if (!p) {
    const mod = build === 'simd' ? import('@dimforge/rapier3d-simd-compat') : import('@dimforge/rapier3d-compat');
    p = mod.then(async (m) => {
      const R = m.default as unknown as Rapier;
      await R.init();
      return R;
    });
    ready.set(build, p);
  }
  return p;
}

export type Rapier = typeof RAPIER;
export type { RAPIER };
