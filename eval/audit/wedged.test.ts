// Found by `skillbridge audit --calls 100000 --seed 1` (kitchen, rtw-basic, episode 137):
// a person's move put a chair into a table, its seat wedged under the top and pressed
// from the sides with nothing under it. The checker gave no verdict on whether it moved
// ("touches nothing below, at rest"); at rest and wedged, it now rests on what presses it.
import { expect, it } from 'vitest';
import { runAudit } from './run';

it('a chair wedged in a table is judged: no call of its episode is left unjudged', async () => {
  const r = await runAudit({ calls: 1, seed: 1, episodes: [137], shrinkBudget: 0 });
  expect(r.calls).toBeGreaterThan(30);
  expect(r.unjudged).toEqual({});
  expect({ lies: r.lies, leaks: r.leaks, invariants: r.invariants, messages: r.messages, crashes: r.crashes }).toEqual({
    lies: 0,
    leaks: 0,
    invariants: 0,
    messages: 0,
    crashes: 0,
  });
}, 120_000);
