// The benchmarks keep working and report every figure they promise (values are
// printed, not asserted: timings on a shared CI box are not pass/fail material).
import { describe, expect, it } from 'vitest';
import { benchAgent } from './agent-bench';
import { benchSim } from './sim-bench';

describe('benchmarks', () => {
  it('bench sim reports each figure for a scene', async () => {
    const r = await benchSim({ scenes: ['tabletop/boxes'], quick: true });
    const s = r.scenes[0]!;
    for (const k of ['rtf', 'bareRtf', 'ratio', 'perceptionP99Ms', 'rssMB'] as const) expect(s[k]).toBeGreaterThan(0);
    expect(s.pickPlace).toMatch(/^pick /);
  }, 120_000);

  it('bench agent reports per-turn overhead for scripted and local-server runs', async () => {
    const r = await benchAgent({ quick: true });
    expect(r.runs.map((x) => `${x.model}:${x.turns}`)).toEqual(['scripted:1', 'scripted:20', 'local-server:1', 'local-server:20']);
    expect(r.perTurnMs.median).toBeGreaterThan(0);
    expect(r.traceWriteUs.recordsPerSecond).toBeGreaterThan(0);
    // Adversarial replies at 16 k, 60 k and 1 MB for each input shape, each with a parse time.
    expect(r.textParse.filter((row) => row.chars === 1_000_000).length).toBeGreaterThan(3);
    expect(r.textParse.every((row) => Number.isFinite(row.parseMs))).toBe(true);
  }, 120_000);
});
