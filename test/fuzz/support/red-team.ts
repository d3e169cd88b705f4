// The red team as CI runs it on one suite: the suite's small case set (its full set,
// RAIDER's a stratified sample of it), floor:noop on every case, then the named
// shapes and a bred budget of cases played, a fixed seed; `npm run fuzz` multiplies
// the budget (FUZZ_SCALE), FUZZ_SEED changes the seed. Each figure not marked raw
// must stay within 0.1 of floor:noop's, save the findings the suite's scorer still
// credits (listed per suite, to be emptied as the scorers are fixed).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { WorldPool } from '../../../eval/core/world';
import type { EvalCase } from '../../../eval/core/case';
import type { AnySuite } from '../../../eval/core/suite';
import { sampleCases } from '../../../eval/runner/cases';
import { readFindings } from '../../../eval/redteam/findings';
import { type SearchOptions, type SuiteAttackResult, attackSuite, fmt, overTheLine, stratified } from '../../../eval/redteam/search';
import { TERMINAL } from '../../support/host-refs';
import { sharedSmallCases } from '../../support/shared-cases';
import { fuzzRuns, fuzzSeed } from './budget';

export interface RedTeamCi {
  /** Cases played in CI (floor:noop's included). */
  budget: number;
  /** Cases at most (a stratified sample of the small set). */
  sample?: number;
  /** Cases a new strategy plays before it earns the rest. */
  race?: number;
}

export async function redTeamCi(
  suite: AnySuite,
  ci: RedTeamCi,
  o: Partial<SearchOptions> = {},
  given?: EvalCase[],
): Promise<SuiteAttackResult> {
  const seed = fuzzSeed(1);
  const all = given ?? (await sharedSmallCases(suite));
  const axis = suite.report.categoryAxis;
  const sampled = stratified(ci.sample && ci.sample < all.length ? sampleCases(all, ci.sample, seed, axis) : all, axis, seed);
  // The cases of the findings kept as regressions join the sample, and their champions start the search: a small
  // budget then searches around every class found before (a sample of a few cases can miss a class altogether).
  const findings = given ? [] : readFindings().filter((f) => f.suite === suite.id);
  const ids = new Set(sampled.map((c) => c.id));
  const extra = findings.flatMap((f) => f.cases).filter((c) => !ids.has(c.id) && ids.add(c.id));
  // Interleaved, so the cases a new strategy plays first hold some of them too.
  const cases = interleave(sampled, extra);
  const champions = findings.map((f) => ({ name: `finding: ${f.found}`, genome: f.genome }));
  const traceDir = mkdtempSync(path.join(tmpdir(), `skillbridge-red-team-${suite.id}-`));
  const pool = new WorldPool({ seed });
  try {
    return await attackSuite(
      suite,
      cases,
      { pool, traceDir, seed, refs: TERMINAL },
      { budget: fuzzRuns(ci.budget), seed, ...(ci.race ? { race: ci.race } : {}), ...(champions.length ? { champions } : {}), ...o },
    );
  } finally {
    await pool.dispose();
    rmSync(traceDir, { recursive: true, force: true });
  }
}

/** `a` and `b` alternating, the rest of the longer after. */
function interleave<T>(a: readonly T[], b: readonly T[]): T[] {
  return Array.from({ length: Math.max(a.length, b.length) }, (_, i) => [a[i], b[i]]).flatMap((p) => p.filter((x) => x !== undefined));
}

/** The figures over the line that are not known findings, as lines (empty: the line holds). */
export function newBreaches(r: SuiteAttackResult, known: readonly string[]): string[] {
  return overTheLine(r)
    .filter((m) => !known.includes(m.id))
    .map((m) => `${r.suite} ${m.label}: ${fmt(m.best)} without the goal (floor:noop ${fmt(m.noop)}) by ${m.name}: ${m.strategy}`);
}

/** The run's figures, printed (a benchmark's, never asserted on time). */
export function report(r: SuiteAttackResult): void {
  console.log(
    `red team ${r.suite}: ${r.cases} cases, ${r.plays} played, ${r.replayed} replayed, ${r.strategies} strategies (${r.full} on every case), ${r.seconds} s\n` +
      r.metrics
        .map(
          (m) =>
            `  ${m.label}${m.raw ? ' (raw)' : ''}: best ${fmt(m.best)}, floor:noop ${fmt(m.noop)}${m.name && (m.best ?? 0) > (m.noop ?? 0) ? ` by ${m.name}` : ''}`,
        )
        .join('\n'),
  );
}

/** A test's time limit for a CI budget: case generation (shared, once per run) and up to 1.5 s per case played, so `npm run fuzz` gets its longer run. */
export function timeLimit(ci: RedTeamCi): number {
  return 120_000 + fuzzRuns(ci.budget) * 1_500;
}
