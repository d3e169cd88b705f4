// The evaluation worker as one JavaScript file when running from the sources:
// esbuild bundles eval/runner/worker.ts (~0.2 s) so each worker thread starts
// without tsx's loader hooks (about a second per thread on two cores). Packages
// stay external and resolve from node_modules, as from the sources. Where
// esbuild fails, the worker runs through a tsx bootstrap instead.
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { copyModelProcessScript } from '../../agents/models/local/process-launcher';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = new URL('../../', import.meta.url);
let bundling: Promise<URL | undefined> | undefined;

export function bundledEvalWorker(onLog?: (line: string) => void): Promise<URL | undefined> {
  bundling ??= build(onLog);
  return bundling;
}

async function build(onLog?: (line: string) => void): Promise<URL | undefined> {
  try {
    const { build: esbuild } = await import('esbuild');
    const result = await esbuild({
      entryPoints: [fileURLToPath(new URL('eval/runner/worker.ts', root))],
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
    // out/eval/ sits two levels below the root, as eval/runner/ does, so paths made from import.meta.url still resolve.
    const dir = new URL('out/eval/', root);
    mkdirSync(dir, { recursive: true });
    const file = new URL('eval-worker.mjs', dir);
    const tmp = new URL(`eval-worker.${process.pid}.${Date.now().toString(36)}.tmp`, dir);
    writeFileSync(tmp, code);
    renameSync(tmp, file);
    // Local models' process, found beside the bundle's copy of the provider.
    copyModelProcessScript(fileURLToPath(dir));
    return pathToFileURL(fileURLToPath(file));
  } catch (e) {
    onLog?.(`bundling the evaluation worker failed (${(e as Error).message}); running it from the sources instead`);
    return undefined;
  }
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
