#!/usr/bin/env node
// The skillbridge command. Runs the prebuilt bundle in out/cli/ (scripts/build-cli.mjs),
// rebuilt here first when a source changed since; SKILLBRIDGE_FROM_SOURCES=1 runs
// the TypeScript sources through tsx instead (breakpoints in the sources; slower start).
import { readFileSync } from 'node:fs';
import v8 from 'node:v8';

// The moments `skillbridge bench cli` breaks a command's time into (base/phase.ts).
const phase = process.env.SKILLBRIDGE_PHASES === '1' ? (name) => performance.mark(name) : () => undefined;
phase('bin');

// glibc's malloc serves each block of 128 KB or more with freshly mapped memory and
// unmaps it on free, so every large temporary (a file read, a parser's buffer) costs
// fresh pages (~20 us each on a small VM). Freeing one such block raises that
// threshold to the block's size (glibc's dynamic threshold): this 4 MB buffer is
// never touched (calloc'd fresh memory is known zero) and the first scavenge frees it;
// from then on blocks under 4 MB come from the heap and are reused (`bench cli`: ~900
// fewer page faults on a call's main thread). Elsewhere it is just an unused buffer.
new ArrayBuffer(4 << 20);

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
  process.argv[2] === 'sweep' ||
  process.argv[2] === 'red-team';
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

// V8 doubles the young generation (from 1 MB semi-spaces up to 16 MB) whenever
// many objects survive a scavenge, as they do while a command loads its modules.
// In a one-shot command each doubling is fresh memory, which it touches once and
// the kernel tears down at exit: it keeps the first size instead (more scavenges, all
// over warm memory; `bench cli`: ~2,800 fewer page faults, ~90 ms less main-thread
// CPU and ~11 MB less memory in a call). Long runs keep V8's growth.
if (['scenes', 'tools', 'call'].includes(process.argv[2])) setFlag('--semi-space-growth-factor=1');

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
 * `entry` is the bundle's entry URL: the wasm file lies beside it.
 */
function compileRapierEarly(entry) {
  const file = `rapier-${process.env.SKILLBRIDGE_RAPIER === 'scalar' ? 'scalar' : 'simd'}.wasm`;
  let bytes;
  try {
    bytes = readFileSync(new URL(`./${file}`, entry));
  } catch {
    return; // A bundle without the file: Rapier compiles as it loads.
  }
  const module = WebAssembly.compile(bytes);
  phase('wasm-compile-started');
  module.catch(() => undefined); // A failure surfaces where the world is built, not as an unhandled rejection.
  globalThis[Symbol.for('skillbridge.rapierWasm')] = { file, module };
}

/**
 * The entry of the build out/cli/manifest.json names, read without the bundle check
 * (a stat of each of ~460 inputs, and loading scripts/build-cli.mjs): Rapier's compile
 * starts that much sooner, and is dropped if the check then finds another entry.
 */
function lastBuiltEntry() {
  try {
    const m = /"entry":"([^"]+)"/.exec(readFileSync(new URL('../out/cli/manifest.json', import.meta.url), 'utf8'));
    return m ? new URL(`../out/cli/${m[1]}`, import.meta.url).href : undefined;
  } catch {
    return undefined;
  }
}

async function fromBundle() {
  const args = process.argv.slice(2);
  const rapier = args[0] === 'call' && !args.some((a) => a === '--robot' || a.startsWith('--robot='));
  const guess = rapier ? lastBuiltEntry() : undefined;
  if (guess) compileRapierEarly(guess);
  const { cliBundle } = await import('../scripts/build-cli.mjs');
  // Only the sources of what this command can load are checked (scripts/build-cli.mjs).
  const entry = await cliBundle({ log: (l) => process.stderr.write(`skillbridge: ${l}\n`), command: process.argv[2] });
  phase('bundle-checked');
  if (rapier && entry !== guess) {
    delete globalThis[Symbol.for('skillbridge.rapierWasm')];
    if (entry) compileRapierEarly(entry);
  }
  if (!entry) return fromSources();
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
