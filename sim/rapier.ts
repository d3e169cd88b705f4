// Rapier is WebAssembly and must be initialised once per process before use.
// `-compat` embeds the wasm, so this works in Node, Vitest, workers and browsers.
import RAPIER from '@dimforge/rapier3d-compat';

let ready: Promise<typeof RAPIER> | undefined;

export function loadRapier(): Promise<typeof RAPIER> {
  ready ??= RAPIER.init().then(() => RAPIER);
  return ready;
}

export type Rapier = typeof RAPIER;
export type { RAPIER };
