// A call's pictures are files beside its trace: two calls (a stage and a call id
// each) must never be given the same file, whatever the model names its calls.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PICTURE_NAME } from '../../contract/pictures';
import { fuzzRuns, fuzzSeed } from '../../test/fuzz/support/budget';
import { pictureFileName } from '../../agents/runtime/trace-recorder';

const part = fc.oneof(
  // A small alphabet of the characters names are made from, so near pairs come up often.
  { arbitrary: fc.stringMatching(/^[ab_ ./-]{1,4}$/), weight: 4 },
  fc.stringMatching(/^[\w.-]{1,12}$/),
  fc.string({ maxLength: 12 }),
  fc.constantFrom('call_1', 'plan', 'plan-call', 'call-1', 'a b', 'a_b', 'a/b', '.x', '-x', 'ü', 'x'.repeat(120)),
);
const pair = fc.tuple(fc.option(part, { nil: undefined }), part);

describe('picture file names', () => {
  it('plain ids read as they are', () => {
    expect(pictureFileName('call_1', undefined, 1, 'image/png')).toBe('call_1-1.png');
    expect(pictureFileName('call_1', 'planner', 2, 'image/jpeg')).toBe('planner-call_1-2.jpg');
  });

  it('the pairs the old names joined are told apart', () => {
    const names = [
      pictureFileName('call-1', 'plan', 1, 'image/png'),
      pictureFileName('1', 'plan-call', 1, 'image/png'),
      pictureFileName('plan-call-1', undefined, 1, 'image/png'),
      pictureFileName('a b', undefined, 1, 'image/png'),
      pictureFileName('a/b', undefined, 1, 'image/png'),
      pictureFileName('a_b', undefined, 1, 'image/png'),
    ];
    expect(new Set(names).size).toBe(names.length);
  });

  it('any two different calls get different names, each a file name a request may give', () => {
    fc.assert(
      fc.property(pair, pair, fc.integer({ min: 1, max: 9 }), ([s1, c1], [s2, c2], n) => {
        const a = pictureFileName(c1, s1, n, 'image/png');
        const b = pictureFileName(c2, s2, n, 'image/png');
        expect(PICTURE_NAME.test(a), a).toBe(true);
        if (s1 !== s2 || c1 !== c2) expect(a).not.toBe(b);
        else expect(a).toBe(b);
      }),
      { numRuns: fuzzRuns(2000), seed: fuzzSeed(57) },
    );
  });
});
