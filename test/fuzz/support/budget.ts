// How many cases a property test or fuzzer tries: a small fixed budget in CI
// (the seed fixed, so a failure reproduces); `npm run fuzz` multiplies every
// budget by FUZZ_SCALE (default 10 there) and FUZZ_SEED changes the seed.
// FUZZ_RUNS replaces the budget outright (one fuzzer, run by hand).
export function fuzzRuns(ci: number): number {
  const n = Number(process.env['FUZZ_RUNS']);
  if (Number.isSafeInteger(n) && n > 0) return n;
  const k = Number(process.env['FUZZ_SCALE']);
  return Number.isFinite(k) && k > 0 ? Math.max(1, Math.round(ci * k)) : ci;
}

export function fuzzSeed(fallback: number): number {
  const n = Number(process.env['FUZZ_SEED']);
  return Number.isSafeInteger(n) ? n : fallback;
}
