// How many cases a fuzzer tries: a small fixed budget in CI (the seed fixed, so
// a failure reproduces), more with `npm run fuzz` (FUZZ_RUNS, FUZZ_SEED).
export function fuzzRuns(ci: number): number {
  const n = Number(process.env['FUZZ_RUNS']);
  return Number.isSafeInteger(n) && n > 0 ? n : ci;
}

export function fuzzSeed(fallback: number): number {
  const n = Number(process.env['FUZZ_SEED']);
  return Number.isSafeInteger(n) ? n : fallback;
}
