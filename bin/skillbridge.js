#!/usr/bin/env node
// The skillbridge command. Runs the prebuilt bundle in out/cli/ (scripts/build-cli.mjs),
// rebuilt here first when a source changed since; SKILLBRIDGE_FROM_SOURCES=1 runs
// the TypeScript sources through tsx instead (breakpoints in the sources; slower start).
import { readFileSync } from 'node:fs';
import v8 from 'node:v8';

// The moments `skillbridge bench cli` breaks a command's time into (base/phase.ts).
const phase = process.env.SKILLBRIDGE_PHASES === '1' ? (name) => performance.mark(name) : () => undefined;
phase('bin');

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
// The V8 flags set here, which V8's code cache depends on (base/code-cache.ts keys its files by them).
const v8Flags = [];
const setFlag = (flag) => {
  v8.setFlagsFromString(flag);
  v8Flags.push(flag);
};
if (!optimise) setFlag('--liftoff-only');
// Rapier's 3 MB module is validated function by function as each is first compiled
// rather than all at its compile (which halves it); the build validated it whole.
setFlag('--wasm-lazy-validation');
// V8 compiles a wasm function on its first call, on the calling thread: most of a
// one-shot call's physics time. The bundled Rapier marks the functions a world build
// and a call run as eager (scripts/lib/wasm-hints.mjs), so they compile on background
// threads while the bundle loads. Long runs keep plain lazy compilation and tiering.
if (!optimise && process.env.SKILLBRIDGE_WASM_HINTS !== '0') setFlag('--experimental-wasm-compilation-hints');

globalThis[Symbol.for('skillbridge.v8flags')] = v8Flags.join(' ');

async function fromSources() {
  // Inherited from a bundled parent, it would name a worker built from other sources.
  delete process.env.SKILLBRIDGE_SIM_WORKER;
  delete process.env.SKILLBRIDGE_EVAL_WORKER;
  const { register } = await import('tsx/esm/api');
  register();
  return import('../hosts/cli/main.ts');
}

/**
 * A call on a scene builds a Rapier world: its wasm starts compiling (decoding,
 * validation, the hinted functions, all on V8's background threads) before the
 * bundle loads; the bundled Rapier takes the promise over (scripts/build-cli.mjs).
 */
function compileRapierEarly(entry) {
  const args = process.argv.slice(2);
  if (args[0] !== 'call' || args.some((a) => a === '--robot' || a.startsWith('--robot='))) return;
  const file = `rapier-${process.env.SKILLBRIDGE_RAPIER === 'scalar' ? 'scalar' : 'simd'}.wasm`;
  let bytes;
  try {
    bytes = readFileSync(new URL(`./${file}`, entry));
  } catch {
    return; // A bundle without the file: Rapier compiles as it loads.
  }
  const module = WebAssembly.compile(bytes);
  module.catch(() => undefined); // A failure surfaces where the world is built, not as an unhandled rejection.
  globalThis[Symbol.for('skillbridge.rapierWasm')] = { file, module };
}

async function fromBundle() {
  const { cliBundle } = await import('../scripts/build-cli.mjs');
  // Only the sources of what this command can load are checked (scripts/build-cli.mjs).
  const entry = await cliBundle({ log: (l) => process.stderr.write(`skillbridge: ${l}\n`), command: process.argv[2] });
  phase('bundle-checked');
  if (!entry) return fromSources();
  compileRapierEarly(entry);
  // Built with the same sources: `serve` starts it instead of bundling the worker anew.
  process.env.SKILLBRIDGE_SIM_WORKER = new URL('./sim-worker.mjs', entry).href;
  process.env.SKILLBRIDGE_EVAL_WORKER = new URL('./eval-worker.mjs', entry).href;
  const bundle = await import(entry);
  phase('bundle-loaded');
  return bundle;
}

// Output piped into `head` (or a closed terminal) ends the command quietly, as Unix tools do.
// The handler is attached when a stream is first used: Node builds process.stdout and
// process.stderr on first use (on a pipe or a terminal, a socket: ~10 ms), and a one-shot
// command never does, writing straight to the descriptors (hosts/cli/output.ts).
const opened = [];
for (const name of ['stdout', 'stderr']) {
  const d = Object.getOwnPropertyDescriptor(process, name);
  const guard = (stream) => {
    if (opened.includes(stream)) return stream;
    opened.push(stream);
    stream.on('error', (e) => {
      if (e.code === 'EPIPE') process.exit(process.exitCode ?? 0);
      throw e;
    });
    return stream;
  };
  if (d?.get && d.configurable) Object.defineProperty(process, name, { ...d, get: () => guard(d.get.call(process)) });
  else guard(process[name]);
}

const argv = process.argv.slice(2);
const { main, exitsWhenDone } = await (process.env.SKILLBRIDGE_FROM_SOURCES ? fromSources() : fromBundle());
process.exitCode = await main(argv);
// A one-shot command has written its output and holds nothing open: ending here skips
// Node's teardown (freeing the heap and the compiled wasm; ~60 ms of a `call`). Not while
// a stream still queues output, which the exit would lose.
if (exitsWhenDone?.(argv) && opened.every((s) => s.writableLength === 0)) process.exit();
