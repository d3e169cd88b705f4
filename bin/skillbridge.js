#!/usr/bin/env node
// The skillbridge command. Runs the prebuilt bundle in out/cli/ (scripts/build-cli.mjs),
// rebuilt here first when a source changed since; SKILLBRIDGE_FROM_SOURCES=1 runs
// the TypeScript sources through tsx instead (breakpoints in the sources; slower start).
import v8 from 'node:v8';

// Rapier runs as WebAssembly. V8's optimising tier about doubles the time of a
// one-shot `call` and adds ~55 MB (`bench cli` measures both); the baseline tier
// starts at once and is fast enough for one-shot commands and for the app. The
// physics and agent benchmarks keep the optimising tier; `bench app` measures the
// app as `serve` runs it (SKILLBRIDGE_WASM_OPTIMIZE=1 forces the optimising tier everywhere).
// An evaluation or a truth audit runs the physics for minutes, so it takes the optimising tier too.
const optimise =
  process.env.SKILLBRIDGE_WASM_OPTIMIZE ||
  (process.argv[2] === 'bench' && process.argv[3] !== 'app') ||
  process.argv[2] === 'eval' ||
  process.argv[2] === 'audit' ||
  process.argv[2] === 'worker' ||
  process.argv[2] === 'sweep';
if (!optimise) v8.setFlagsFromString('--liftoff-only');

async function fromSources() {
  // Inherited from a bundled parent, it would name a worker built from other sources.
  delete process.env.SKILLBRIDGE_SIM_WORKER;
  delete process.env.SKILLBRIDGE_EVAL_WORKER;
  const { register } = await import('tsx/esm/api');
  register();
  return import('../hosts/cli/main.ts');
}

async function fromBundle() {
  const { cliBundle } = await import('../scripts/build-cli.mjs');
  const entry = await cliBundle({ log: (l) => process.stderr.write(`skillbridge: ${l}\n`) });
  if (!entry) return fromSources();
  // Built with the same sources: `serve` starts it instead of bundling the worker anew.
  process.env.SKILLBRIDGE_SIM_WORKER = new URL('./sim-worker.mjs', entry).href;
  process.env.SKILLBRIDGE_EVAL_WORKER = new URL('./eval-worker.mjs', entry).href;
  return import(entry);
}

// Output piped into `head` (or a closed terminal) ends the command quietly, as Unix tools do.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (e) => {
    if (e.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw e;
  });
}

const { main } = await (process.env.SKILLBRIDGE_FROM_SOURCES ? fromSources() : fromBundle());
process.exitCode = await main(process.argv.slice(2));
