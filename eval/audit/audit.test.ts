// The quick truth audit that CI runs: at least 2,000 seeded random
// but valid tool calls over every scene and many tool sets, with e-stops, people
// moving things and battery changes, each checked by the independent checker.
// `skillbridge audit --calls 100000` is the long run.
import { describe, expect, it } from 'vitest';
import { runAudit } from './run';

describe('quick truth audit', () => {
  it('2,000 calls over every scene: no lies, leaks, invariant breaks, message contradictions or crashes, and nothing unjudged', async () => {
    const r = await runAudit({ calls: 2000, seed: 7, episode: 20, shrinkBudget: 0 });
    expect(r.calls).toBeGreaterThanOrEqual(2000);
    expect(Object.keys(r.scenes).length).toBe(7);
    const summary = r.violations.slice(0, 5).map((v) => `${v.class} ${v.scene} ${v.set}: ${v.detail} ${JSON.stringify(v.script)}`);
    expect({
      lies: r.lies,
      leaks: r.leaks,
      invariants: r.invariants,
      messages: r.messages,
      crashes: r.crashes,
      unjudged: r.unjudged,
      first: summary,
    }).toEqual({
      lies: 0,
      leaks: 0,
      invariants: 0,
      messages: 0,
      crashes: 0,
      unjudged: {},
      first: [],
    });
  }, 600_000);
});
