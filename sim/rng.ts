// Seeded randomness for noise and failure injection. mulberry32: tiny, fast, and
// its whole state is one integer, so snapshots can carry it.
export class Rng {
  constructor(private state: number) {
    this.state = state >>> 0;
  }

  /** Uniform in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** Standard normal (Box–Muller). */
  gaussian(): number {
    const u = Math.max(this.next(), 1e-12);
    const v = this.next();
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
  }

  chance(p: number): boolean {
    return p > 0 && this.next() < p;
  }

  get seed(): number {
    return this.state;
  }

  set seed(s: number) {
    this.state = s >>> 0;
  }
}
