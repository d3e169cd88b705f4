// The simulation worker as one JavaScript file, for hosts running from the
// TypeScript sources (`skillbridge serve`, the tests, the benchmarks), built by
// base/worker-bundle; the desktop build makes its own (electron.vite.config.ts).
import { bundleWorker } from '../../base/worker-bundle';
import { copyModelProcessScript } from '../../agents/models/local/process-launcher';

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
  // Local models' process is found beside the bundle's copy of the provider.
  bundling ??= bundleWorker(
    {
      entry: 'hosts/service/worker.ts',
      outDir: 'out/web',
      file: 'sim-worker.mjs',
      what: 'simulation worker',
      beside: copyModelProcessScript,
    },
    onLog,
  );
  return bundling;
}
