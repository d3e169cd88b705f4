// Compilation hints added to a WebAssembly module (scripts/lib/wasm-hints.mjs): the
// chosen functions eager with Liftoff as both tiers, every other function default,
// in a custom section between the function and code sections; the module stays valid.
import { describe, expect, it } from 'vitest';
import { eagerHints, functionCounts, validWasm, wasmSections, withEagerHints } from '../scripts/lib/wasm-hints.mjs';

// One imported function "m.f" and two declared ones, all () -> ().
const MODULE = Uint8Array.from([
  ...[0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00],
  ...[0x01, 0x04, 0x01, 0x60, 0x00, 0x00], // types
  ...[0x02, 0x07, 0x01, 0x01, 0x6d, 0x01, 0x66, 0x00, 0x00], // import m.f
  ...[0x03, 0x03, 0x02, 0x00, 0x00], // two functions
  ...[0x0a, 0x07, 0x02, 0x02, 0x00, 0x0b, 0x02, 0x00, 0x0b], // their bodies
]);

describe('wasm compilation hints', () => {
  it('marks the listed functions (indices counting imports) eager and leaves the rest default', () => {
    expect(functionCounts(MODULE)).toEqual({ imported: 1, declared: 2 });
    expect(eagerHints(MODULE)).toBeUndefined();
    const hinted = withEagerHints(MODULE, [2, 0, 7]);
    expect(validWasm(hinted)).toBe(true);
    // Index 0 is the import and 7 does not exist: only function 2 (the second declared) is eager.
    expect(eagerHints(hinted)).toEqual([0x00, 0x02 | (1 << 2) | (1 << 4)]);
    const ids = wasmSections(hinted).map((s) => s.id);
    expect(ids).toEqual([1, 2, 3, 0, 10]);
    // Hinting twice changes nothing.
    expect(withEagerHints(hinted, [1])).toBe(hinted);
  });
});
