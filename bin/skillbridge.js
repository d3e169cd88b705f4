#!/usr/bin/env node
// The skillbridge command. Runs the TypeScript sources directly through tsx, so
// the CLI, the tests and the app all execute the same code.
import v8 from 'node:v8';
import { register } from 'tsx/esm/api';

// Rapier runs as WebAssembly. V8's optimising tier spends ~2 s of CPU and
// ~130 MB on the first skill of a process; the baseline tier starts at once and
// is fast enough for one-shot commands and for the app. The physics and agent
// benchmarks keep the optimising tier; `bench app` measures the app as `serve`
// runs it (SKILLBRIDGE_WASM_OPTIMIZE=1 forces the optimising tier everywhere).
// An evaluation runs the physics for minutes, so it takes the optimising tier too.
const optimise =
  process.env.SKILLBRIDGE_WASM_OPTIMIZE || (process.argv[2] === 'bench' && process.argv[3] !== 'app') || process.argv[2] === 'eval';
if (!optimise) v8.setFlagsFromString('--liftoff-only');

register();
const { main } = await import('../hosts/cli/main.ts');
process.exitCode = await main(process.argv.slice(2));
