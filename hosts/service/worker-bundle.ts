// The simulation worker as one JavaScript file, for hosts running from the
// TypeScript sources (`skillbridge serve`, the tests, the benchmarks). Loading
// ~150 modules through tsx's loader hooks takes about 0.8 s of a cold start on
// two cores; esbuild bundles them in about 0.1 s and the bundle loads in 0.4 s.
// It is built fresh for each process, so it never lags behind the sources; the
// desktop build makes its own (electron.vite.config.ts).
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { copyModelProcessScript } from '../../agents/models/local/process-launcher';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = new URL('../../', import.meta.url);
let bundling: Promise<URL | undefined> | undefined;

/**
 * The worker built with the command-line bundle (bin/skillbridge.js names it in
 * SKILLBRIDGE_SIM_WORKER), so a host started by the CLI skips bundling it at
 * start; undefined when running from the sources.
 */
export function prebuiltWorker(): URL | undefined {
  const href = process.env['SKILLBRIDGE_SIM_WORKER'];
  if (!href) return undefined;
  try {
    return new URL(href);
  } catch {
    return undefined;
  }
}

/** Bundles hosts/service/worker.ts into out/web/; undefined when esbuild is unavailable or fails (callers fall back to tsx). */
export function bundledWorker(onLog?: (line: string) => void): Promise<URL | undefined> {
  bundling ??= build(onLog);
  return bundling;
}

async function build(onLog?: (line: string) => void): Promise<URL | undefined> {
  try {
    const { build: esbuild } = await import('esbuild');
    const result = await esbuild({
      entryPoints: [fileURLToPath(new URL('hosts/service/worker.ts', root))],
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      // Packages resolve from node_modules at run time, as from the sources.
      packages: 'external',
      sourcemap: 'inline',
      write: false,
      logLevel: 'silent',
    });
    const code = result.outputFiles[0]?.contents;
    if (!code) throw new Error('esbuild produced no output');
    const dir = new URL('out/web/', root);
    mkdirSync(dir, { recursive: true });
    const file = new URL('sim-worker.mjs', dir);
    // Another process may be starting from the same checkout: write aside, then rename.
    const tmp = new URL(`sim-worker.${process.pid}.${Date.now().toString(36)}.tmp`, dir);
    writeFileSync(tmp, code);
    renameSync(tmp, file);
    // Local models' process, found beside the bundle's copy of the provider.
    copyModelProcessScript(fileURLToPath(dir));
    return pathToFileURL(fileURLToPath(file));
  } catch (e) {
    onLog?.(`bundling the simulation worker failed (${(e as Error).message}); running it from the sources instead`);
    return undefined;
  }
}
