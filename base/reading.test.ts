import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bool, field, finite, known, unknown, within } from './reading';

describe('Reading', () => {
  it('a field is known only when every part of its path is an own property with a value', () => {
    expect(field({ a: { b: 1 } }, 'a.b', 5)).toEqual(known(1, 5));
    expect(field({ data: true }, 'pressed', 0)).toEqual(unknown('the message has no field `pressed`'));
    expect(field({ a: null }, 'a', 0).known).toBe(false);
    expect(field({}, 'constructor', 0).known).toBe(false);
    expect(field({ a: [1] }, 'a.0', 0).known).toBe(false);
  });

  it('no JSON value but a finite number reads as a number, and no value but a boolean as a boolean', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.constantFrom(NaN, Infinity, -Infinity, undefined), (v, odd) => {
        for (const x of [v, odd]) {
          const n = finite(known(x, 0), 'x');
          expect(n.known).toBe(typeof x === 'number' && Number.isFinite(x));
          const b = bool(known(x, 0), 'x');
          expect(b.known).toBe(typeof x === 'boolean');
        }
      }),
    );
  });

  it('an old reading is unknown, saying how old', () => {
    const r = within(known(true, 0), 2500, 2, 'the e-stop');
    expect(r).toEqual(unknown('the e-stop is stale: last measured 2.5 s ago, max 2 s'));
    expect(within(known(true, 0), 2000, 2, 'x').known).toBe(true);
  });
});
