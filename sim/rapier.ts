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
import { phase } from '../base/phase';

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
      phase('rapier-module');
      const R = m.default as unknown as Rapier;
      // The command-line bundle adds compileWasm (scripts/build-cli.mjs): the compile
      // runs on V8's background threads while this thread goes on loading the command.
      const compile = (m as { compileWasm?: unknown }).compileWasm;
      if (typeof compile === 'function') await (compile as () => Promise<void>)();
      const memory = await initWithoutFetchGlobals(R);
      if (memory) rapierMemories.set(R, memory);
      // The bundle also keeps the body layout body-memory.ts finds, beside its wasm file.
      const store = (m as { layoutStore?: unknown }).layoutStore;
      if (typeof store === 'function') rapierLayoutStores.set(R, (store as () => LayoutStore)());
      phase('wasm-instantiated');
      return R;
    });
    ready.set(build, p);
  }
  return p;
}

/**
 * wasm-bindgen's init asks whether it was handed a fetch Request or Response
 * (`typeof Request`, `typeof Response`). In Node the first read of either global
 * loads undici: ~60 ms of CPU that a command which never fetches does not need.
 * Node defines both as lazy getters; they are hidden while init runs up to its
 * first await (both checks happen there) and then put back untouched. Should a
 * later Rapier check later, undici just loads as before.
 */
async function initWithoutFetchGlobals(R: Rapier): Promise<WasmMemory | undefined> {
  const lazy: Array<[string, PropertyDescriptor]> = [];
  for (const k of ['Request', 'Response']) {
    const d = Object.getOwnPropertyDescriptor(globalThis, k);
    if (d?.get && d.configurable) lazy.push([k, d]);
  }
  for (const [k] of lazy) Object.defineProperty(globalThis, k, { value: undefined, configurable: true, writable: true });
  let done: Promise<void> | undefined;
  const capture = captureMemory();
  try {
    done = R.init();
    await Promise.resolve();
  } finally {
    for (const [k, d] of lazy) Object.defineProperty(globalThis, k, d);
  }
  try {
    await done;
  } finally {
    capture.undo();
  }
  return capture.memory;
}

/**
 * The module's linear memory, kept as Rapier instantiates it (wasm-bindgen does
 * not export it): sim/world/body-memory.ts reads body state from it directly.
 * Only the instantiation during init is watched; the original is put back after.
 */
function captureMemory(): { memory: WasmMemory | undefined; undo: () => void } {
  const W = (globalThis as unknown as { WebAssembly: WasmApi }).WebAssembly;
  const original = W.instantiate;
  const out: { memory: WasmMemory | undefined; undo: () => void } = {
    memory: undefined,
    undo: () => {
      W.instantiate = original;
    },
  };
  W.instantiate = async (...args: unknown[]) => {
    const result = await original.apply(W, args);
    const instance = result instanceof W.Instance ? result : (result as { instance?: unknown }).instance;
    const memory = instance instanceof W.Instance ? instance.exports['memory'] : undefined;
    if (memory instanceof W.Memory) out.memory = memory;
    return result;
  };
  return out;
}

/** A WebAssembly memory: what body-memory.ts reads (the project's typings have no DOM lib). */
export interface WasmMemory {
  readonly buffer: ArrayBuffer;
}

interface WasmApi {
  instantiate: (...args: unknown[]) => Promise<unknown>;
  Instance: abstract new (...args: never[]) => { exports: Record<string, unknown> };
  Memory: abstract new (...args: never[]) => WasmMemory;
}

/** Rapier's linear memory by build module, for every build loaded. */
export const rapierMemories = new Map<Rapier, WasmMemory>();

/** Keeps what body-memory.ts found about a build between processes (the command-line bundle: a file beside the wasm). */
export interface LayoutStore {
  load(): unknown;
  save(value: unknown): void;
}

/** The layout store by build module, where the build has one. */
export const rapierLayoutStores = new Map<Rapier, LayoutStore>();

export type Rapier = typeof RAPIER;
export type { RAPIER };
