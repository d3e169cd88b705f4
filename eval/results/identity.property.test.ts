// A run's identity, generated: two contents hash alike exactly when no field
// differs (whatever order their keys were written in), and the difference names
// every field that differs.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fuzzRuns, fuzzSeed } from '../../test/fuzz/support/budget';
import { type RunContent, contentDifference, contentHash } from './identity';

const small = fc.constantFrom('a', 'b', 'oracle', 'floor:noop', 'x'.repeat(70) + '1', 'x'.repeat(70) + '2');
const content: fc.Arbitrary<RunContent> = fc.record({
  suite: fc.constantFrom('alrm', 'rtw'),
  suiteVersion: fc.constantFrom('v1', 'v2'),
  scorer: fc.constantFrom('s1', 's2'),
  filter: fc.option(fc.constantFrom('boxes', 'boxes/3')),
  sample: fc.option(fc.integer({ min: 1, max: 3 })),
  shard: fc.option(fc.constantFrom('1/2', '2/2')),
  model: small,
  workflow: fc.constantFrom('flat', 'alrm/tap'),
  seed: fc.integer({ min: 0, max: 2 }),
  trials: fc.integer({ min: 1, max: 2 }),
  noise: fc.option(
    fc.record({ distanceSigma: fc.constantFrom(0, 0.1), detectionDropout: fc.constant(0), skillFailureRate: fc.constant(0) }),
  ),
  limits: fc.option(fc.record({ timeLimitS: fc.constantFrom(5, 10) })),
  judge: fc.option(fc.constantFrom('floor:noop')),
  offProtocol: fc.boolean(),
});

const reversed = <T extends object>(o: T): T => Object.fromEntries(Object.entries(o).reverse()) as T;

describe('run identity (generated)', () => {
  it('equal hash exactly when no field differs, in any key order; the difference names each differing field', () => {
    fc.assert(
      fc.property(content, content, (a, b) => {
        const diff = contentDifference(a, b);
        expect(contentHash(a) === contentHash(b)).toBe(diff === undefined);
        expect(contentHash(reversed(a))).toBe(contentHash(a));
        expect(contentDifference(a, reversed(a))).toBeUndefined();
        if (a.model !== b.model) expect(diff).toContain('--model');
        if (a.seed !== b.seed) expect(diff).toContain(`--seed ${a.seed} there, ${b.seed} here`);
      }),
      { numRuns: fuzzRuns(300), seed: fuzzSeed(37) },
    );
  });
});
