// A worker thread's entry as one JavaScript file, for hosts running from the
// TypeScript sources: loading a worker's ~150 modules through tsx's loader hooks
// takes about a second of a cold start on two cores; esbuild bundles them in
// 0.1-0.2 s. Packages stay external and resolve from node_modules, as from the
// sources. Built fresh per process, so it never lags behind the sources.
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';

export interface WorkerBundle {
  /** The entry, from the repository's root (e.g. "hosts/service/worker.ts"). */
  entry: string;
  /** The folder to write into, from the root; two levels deep, as the entry's own, so paths made from import.meta.url resolve. */
  outDir: string;
  /** The bundle's file name. */
  file: string;
  /** What the worker is, for the log line when bundling fails. */
  what: string;
  /** Run in the folder after writing (files the bundle expects beside itself). */
  beside?: (dir: string) => void;
}

const root = new URL('../', import.meta.url);

/** The bundle's URL; undefined when esbuild is unavailable or fails (callers fall back to tsx). */
export async function bundleWorker(b: WorkerBundle, onLog?: (line: string) => void): Promise<URL | undefined> {
  try {
    const { build } = await import('esbuild');
    const result = await build({
      entryPoints: [fileURLToPath(new URL(b.entry, root))],
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      packages: 'external',
      sourcemap: 'inline',
      write: false,
      logLevel: 'silent',
    });
    const code = result.outputFiles[0]?.contents;
    if (!code) throw new Error('esbuild produced no output');
    const dir = new URL(b.outDir.endsWith('/') ? b.outDir : `${b.outDir}/`, root);
    mkdirSync(dir, { recursive: true });
    const file = new URL(b.file, dir);
    // Another process may be starting from the same checkout: write aside, then rename.
    const tmp = new URL(`${b.file}.${process.pid}.${Date.now().toString(36)}.tmp`, dir);
    writeFileSync(tmp, code);
    renameSync(tmp, file);
    b.beside?.(fileURLToPath(dir));
    return pathToFileURL(fileURLToPath(file));
  } catch (e) {
    onLog?.(`bundling the ${b.what} failed (${(e as Error).message}); running it from the sources instead`);
    return undefined;
  }
}
