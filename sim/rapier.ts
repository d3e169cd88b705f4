// Rapier is WebAssembly and must be initialised once per process before use.
// `-compat` builds embed the wasm, so this works in Node, Vitest, workers and browsers.
//
// Two builds are installed: the scalar one and the WebAssembly SIMD one (Node 20,
// Chromium and Electron all run SIMD128). One is the default; SKILLBRIDGE_RAPIER
// picks the other, so `bench sim` can compare them side by side. A world is
// deterministic for a given build; the two builds need not agree bit for bit.
import type RAPIER from '@dimforge/rapier3d-compat';

export type RapierBuild = 'scalar' | 'simd';

export const DEFAULT_RAPIER_BUILD: RapierBuild = 'scalar';

/** The build this process uses: SKILLBRIDGE_RAPIER=scalar|simd, else the default. */
export function rapierBuild(): RapierBuild {
  const v = globalThis.process?.env?.['SKILLBRIDGE_RAPIER'];
  return v === 'scalar' || v === 'simd' ? v : DEFAULT_RAPIER_BUILD;
}

const ready = new Map<RapierBuild, Promise<Rapier>>();

/**
 * Loads and initialises a build once per process. Both builds expose the same API
 * for everything the simulator uses (0.21 adds soft bodies, which it does not use),
 * so the other build is typed as the default one.
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
