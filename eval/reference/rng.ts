// The random floor's generator: the same case, seed and trial give the same calls.
export { seededRandom } from '../../base/seeded-random';

/** A 32-bit hash of a string (FNV-1a), to seed per case and trial. */
export function hash32(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

export function pickOne<T>(rnd: () => number, xs: readonly T[]): T | undefined {
  return xs.length ? xs[Math.floor(rnd() * xs.length)] : undefined;
}
