// Loaded local models, shared by the runs of one thread: a run (or an evaluation
// case) builds a new Model each time, and loading a GGUF takes seconds and
// gigabytes, so the process stays up between runs. One process per file (as it is
// on disk) × context settings; it generates one request at a time, so runs on one
// model at once queue. A process nobody used for `idleMs` ends, and so do all at
// shutdown (unloadLocalModels).
import { statSync } from 'node:fs';
import { createLocalRuntime, type LocalRuntime, type RuntimeOptions } from './local-runtime';

/** Default idle time before a loaded model's process ends. */
export const DEFAULT_IDLE_MS = 5 * 60_000;

interface Entry {
  runtime: LocalRuntime;
  /** Requests in flight through this entry. */
  busy: number;
  timer: ReturnType<typeof setTimeout> | undefined;
}

const entries = new Map<string, Entry>();
let idleMs = DEFAULT_IDLE_MS;

function keyOf(o: RuntimeOptions): string {
  // A file replaced on disk (a new download under the same name) is a new model.
  let stamp = '';
  try {
    const s = statSync(o.file);
    stamp = `${s.size}:${s.mtimeMs}`;
  } catch {
    // checkGgufFile has named a missing file before a runtime is asked for.
  }
  return JSON.stringify([o.file, stamp, o.gpu, o.maxContext, o.threads]);
}

function arm(key: string, e: Entry): void {
  if (e.timer) clearTimeout(e.timer);
  e.timer = setTimeout(() => {
    if (e.busy || entries.get(key) !== e) return;
    entries.delete(key);
    void e.runtime.dispose();
  }, idleMs);
  e.timer.unref();
}

/**
 * The shared runtime for these settings, and a way to mark it busy: `use` wraps
 * each request so the idle clock only runs while nothing is in flight.
 */
export function sharedRuntime(o: RuntimeOptions): {
  runtime: LocalRuntime;
  use: <T>(work: () => Promise<T>) => Promise<T>;
} {
  const key = keyOf(o);
  let e = entries.get(key);
  if (!e) {
    e = { runtime: createLocalRuntime(o), busy: 0, timer: undefined };
    entries.set(key, e);
    arm(key, e);
  }
  const entry = e;
  return {
    runtime: entry.runtime,
    use: async (work) => {
      entry.busy++;
      if (entry.timer) clearTimeout(entry.timer);
      try {
        return await work();
      } finally {
        entry.busy--;
        if (!entry.busy) arm(key, entry);
      }
    },
  };
}

/** Ends every shared model process (a host shutting down). */
export async function unloadLocalModels(): Promise<void> {
  const all = [...entries.values()];
  entries.clear();
  for (const e of all) if (e.timer) clearTimeout(e.timer);
  await Promise.all(all.map((e) => e.runtime.dispose()));
}

/** How long an unused model stays loaded (a host's setting; tests use a short one). */
export function setLocalModelIdleMs(ms: number): void {
  idleMs = ms;
}

/** Loaded models in this thread (for tests and diagnostics). */
export function loadedLocalModels(): number {
  return entries.size;
}
