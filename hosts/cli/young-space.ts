// A one-shot `call` allocates a few megabytes of short-lived numbers while the
// skill runs (V8's first tiers box every floating-point result). V8 answers by
// doubling its young generation at each scavenge, and every page of the larger
// space is touched for the first time: ~2,000 page faults, a third of the call's
// time on a machine where a fresh page costs ~20 µs. Holding the young generation
// at its size (growth factor 1) keeps the scavenges on pages already touched;
// the objects that live on are promoted as before. Nothing the call computes
// depends on it. The command lets it go before it ends, so the V8 flags at exit
// (which the code cache is keyed by, base/code-cache.ts) are those at start.
import v8 from 'node:v8';

/** V8's default growth factor of the young generation (--semi-space-growth-factor). */
const DEFAULT_FACTOR = 2;

/** Whoever runs node chose a growth factor: theirs stands. */
function chosenByUser(): boolean {
  return [...process.execArgv, process.env['NODE_OPTIONS'] ?? ''].some((a) => /semi[-_]space[-_]growth[-_]factor/.test(a));
}

let held = false;

/** Stops the young generation growing until releaseYoungSpace. */
export function holdYoungSpace(): void {
  if (held || chosenByUser()) return;
  v8.setFlagsFromString('--semi-space-growth-factor=1');
  held = true;
}

/** Lets the young generation grow as V8 likes again. */
export function releaseYoungSpace(): void {
  if (!held) return;
  held = false;
  v8.setFlagsFromString(`--semi-space-growth-factor=${DEFAULT_FACTOR}`);
}
