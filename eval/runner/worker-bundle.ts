// The evaluation worker as one JavaScript file when running from the sources
// (base/worker-bundle), so each worker thread starts without tsx's loader hooks.
// Where esbuild fails, the worker runs through a tsx bootstrap instead.
import { bundleWorker } from '../../base/worker-bundle';
import { copyModelProcessScript } from '../../agents/models/local/process-launcher';

let bundling: Promise<URL | undefined> | undefined;

export function bundledEvalWorker(onLog?: (line: string) => void): Promise<URL | undefined> {
  // Local models' process is found beside the bundle's copy of the provider.
  bundling ??= bundleWorker(
    {
      entry: 'eval/runner/worker.ts',
      outDir: 'out/eval',
      file: 'eval-worker.mjs',
      what: 'evaluation worker',
      beside: copyModelProcessScript,
    },
    onLog,
  );
  return bundling;
}

/** The worker's script and data: the one built with the command-line bundle, a bundle of the sources, or the tsx bootstrap. */
export async function evalWorkerScript(onLog?: (line: string) => void): Promise<{ url: URL; entry?: string }> {
  // bin/skillbridge.js names the worker it built beside the command-line bundle.
  const prebuilt = process.env['SKILLBRIDGE_EVAL_WORKER'];
  if (prebuilt) {
    try {
      return { url: new URL(prebuilt) };
    } catch {
      // not a URL: build one below
    }
  }
  const bundled = import.meta.url.endsWith('.ts') ? await bundledEvalWorker(onLog) : undefined;
  if (bundled) return { url: bundled };
  if (import.meta.url.endsWith('.ts')) {
    return { url: new URL('./worker-bootstrap.mjs', import.meta.url), entry: new URL('./worker.ts', import.meta.url).href };
  }
  // A bundled host ships the worker beside itself.
  return { url: new URL('./eval-worker.mjs', import.meta.url) };
}
