// Generated runs of scored, errored, stopped and missing case × trials, recorded in
// a real results database: the counts add up to the plan, every mean is over the
// scored results only (an error has no outcome, never a 0), the errors are counted
// with their commonest reason, the exit code is the documented one, and a resumed
// run picks exactly the errored, stopped and missing pairs (never a scored one).
// CI: a fixed seed and a small budget; `npm run fuzz` (FUZZ_SCALE, FUZZ_SEED) for longer.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { genericSpec } from '../../eval/report/spec';
import { errorsLine, headline, passHatK, summarize } from '../../eval/report/stats';
import { ERROR_KINDS, type ErrorKind, type ResultInput, doneKey, openResults } from '../../eval/results/index';
import { allScored, tally, toRun } from '../../eval/runner/tally';
import { EXIT_INTERRUPTED, EXIT_OK, EXIT_UNSCORED, resultsExitCode } from '../../hosts/cli/eval-exit';
import { fuzzRuns, fuzzSeed } from './support/budget';

const runs = fuzzRuns;
const seed = fuzzSeed(34);

type Outcome =
  { s: 'ok'; score: number; success: boolean } | { s: 'error'; kind: ErrorKind; why: string } | { s: 'stopped' } | { s: 'missing' };

const outcome: fc.Arbitrary<Outcome> = fc.oneof(
  fc.record({ s: fc.constant('ok' as const), score: fc.double({ min: 0, max: 1, noNaN: true }), success: fc.boolean() }),
  fc.record({
    s: fc.constant('error' as const),
    kind: fc.constantFrom(...ERROR_KINDS),
    why: fc.constantFrom('refused', 'timed out', 'died'),
  }),
  fc.constant({ s: 'stopped' as const }),
  fc.constant({ s: 'missing' as const }),
);

/** A plan of case × trials, each with what became of it. */
const plan = fc
  .record({ cases: fc.integer({ min: 1, max: 7 }), trials: fc.integer({ min: 1, max: 3 }) })
  .chain(({ cases, trials }) =>
    fc
      .array(outcome, { minLength: cases * trials, maxLength: cases * trials })
      .map((os) => os.map((o, i) => ({ caseId: `c${i % cases}`, trial: Math.floor(i / cases) + 1, o }))),
  );

const dir = mkdtempSync(join(tmpdir(), 'skillbridge-fuzz-results-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;

describe('results of generated runs', () => {
  it(
    'count up to the plan, average the scored only, name the commonest error, exit as documented and resume exactly the unscored',
    () => {
      const t0 = performance.now();
      let tried = 0;
      fc.assert(
        fc.property(plan, fc.boolean(), (pairs, interrupted) => {
          tried++;
          const db = openResults(join(dir, `r${n++}`), { durability: 'process' });
          try {
            const run = db.startRun({ suite: 'gen', model: 'scripted:x', workflow: 'flat', seed: 1, trials: 3 });
            for (const { caseId, trial, o } of pairs) {
              if (o.s === 'missing') continue;
              const row: ResultInput =
                o.s === 'ok'
                  ? { caseId, trial, status: 'ok', score: o.score, success: o.success }
                  : o.s === 'error'
                    ? { caseId, trial, status: 'error', error: `${o.kind}: ${o.why}`, errorKind: o.kind }
                    : { caseId, trial, status: 'stopped' };
              db.record(run.runId, row);
            }
            const results = db.results(run.runId);
            const of = (s: Outcome['s']) => pairs.filter((p) => p.o.s === s);

            // The counts add up to the plan, each as generated.
            const counts = tally(pairs, results);
            expect(counts).toEqual({
              planned: pairs.length,
              scored: of('ok').length,
              errors: of('error').length,
              stopped: of('stopped').length,
              missing: of('missing').length,
            });
            expect(counts.scored + counts.errors + counts.stopped + counts.missing).toBe(counts.planned);

            // Every mean is over the scored results only: an error is no 0.
            const spec = genericSpec('gen');
            const s = summarize(run, results, spec, db.file);
            const scores = of('ok').map((p) => (p.o as { score: number }).score);
            const mean = scores.length ? scores.reduce((a, b) => a + b, 0) / scores.length : null;
            if (mean === null) expect(s.score).toBeNull();
            else expect(s.score).toBeCloseTo(mean, 9);
            expect(headline(spec, results).n).toBe(scores.length);
            expect(s.metrics['score'] ?? null).toEqual(s.score);
            // pass^k is the same with the errors taken away.
            expect(passHatK(results)).toEqual(passHatK(results.filter((r) => r.status === 'ok')));
            expect(s).toMatchObject({ scored: counts.scored, errors: counts.errors, stopped: counts.stopped });

            // The errors by kind add up, commonest first, and the line names the commonest.
            expect(s.errorReasons.reduce((a, e) => a + e.count, 0)).toBe(counts.errors);
            for (let i = 1; i < s.errorReasons.length; i++)
              expect(s.errorReasons[i - 1]!.count).toBeGreaterThanOrEqual(s.errorReasons[i]!.count);
            const top = s.errorReasons[0];
            if (top) {
              expect(of('error').filter((p) => (p.o as { kind: ErrorKind }).kind === top.kind)).toHaveLength(top.count);
              expect(errorsLine(s)).toContain(`commonest: ${top.kind} ×${top.count}`);
            } else expect(errorsLine(s)).toBe('0 errors');

            // The documented exit code.
            const code = resultsExitCode([counts], interrupted);
            expect(code).toBe(interrupted ? EXIT_INTERRUPTED : counts.scored === counts.planned ? EXIT_OK : EXIT_UNSCORED);
            expect(allScored(counts)).toBe(counts.scored === counts.planned);

            // Resume: exactly the errored, stopped and missing pairs; the store's "done" is exactly the scored ones.
            const again = toRun(pairs, results).map((p) => doneKey(p.caseId, p.trial));
            expect(new Set(again)).toEqual(new Set(pairs.filter((p) => p.o.s !== 'ok').map((p) => doneKey(p.caseId, p.trial))));
            expect(db.done(run.runId)).toEqual(new Set(of('ok').map((p) => doneKey(p.caseId, p.trial))));
          } finally {
            db.close();
          }
        }),
        { seed, numRuns: runs(100) },
      );
      console.log(`eval results: ${tried} generated runs in ${((performance.now() - t0) / 1000).toFixed(1)} s (seed ${seed})`);
    },
    Math.max(120_000, runs(100) * 500),
  );
});
