// Named moments of a command's life, for the breakdown `skillbridge bench cli` prints
// (node start, bundle load, wasm compile, world build, settling, the call, printing).
// Recorded as performance marks only when SKILLBRIDGE_PHASES=1: a long-running
// process (the app, `serve`) never accumulates them, and the check is one branch.
const on = globalThis.process?.env?.['SKILLBRIDGE_PHASES'] === '1';

export function phase(name: string): void {
  if (on) performance.mark(name);
}
