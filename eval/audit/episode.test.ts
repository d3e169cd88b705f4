// One episode of an audit runs alone exactly as it ran in the whole run (its own
// random stream), so `skillbridge audit --seed K --episode N` replays what a long
// audit found in seconds.
import { expect, it } from 'vitest';
import { runAudit } from './run';
import type { ScriptStep } from './script';

it('an episode run alone takes the same steps as in the whole run', async () => {
  const all = new Map<number, ScriptStep[]>();
  const opts = { scenes: ['tabletop/fruits'], seed: 4, episode: 6, shrinkBudget: 0 };
  await runAudit({ ...opts, calls: 18, onStep: (ep, s) => void (all.get(ep) ?? all.set(ep, []).get(ep)!).push(s) });
  expect([...all.keys()]).toEqual([0, 1, 2]);
  const alone: ScriptStep[] = [];
  const r = await runAudit({ ...opts, calls: 1, episodes: [2], onStep: (ep, s) => void (ep === 2 && alone.push(s)) });
  expect(alone).toEqual(all.get(2));
  expect(r.calls).toBe(all.get(2)!.filter((s) => 'tool' in s).length);
}, 120_000);
