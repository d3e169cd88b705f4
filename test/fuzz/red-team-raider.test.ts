// The red team on RAIDER in CI (test/fuzz/support/red-team.ts): no shape built from
// what a model receives earns credit without the case's goal beyond 0.1 over
// floor:noop, save the findings its scorer still credits.
import { expect, it } from 'vitest';
import { findSuite } from '../../eval/suites/index';
import { newBreaches, redTeamCi, report, timeLimit } from './support/red-team';

/** What the suite's scorer still credits without the goal: nothing. */
const KNOWN: string[] = [];

const CI = { budget: 190, race: 6 };

it(
  'RAIDER: the red team earns nothing beyond floor:noop + 0.1 without the goal',
  async () => {
    const r = await redTeamCi(findSuite('raider')!, CI);
    report(r);
    expect(r.strategies).toBeGreaterThan(10);
    expect(newBreaches(r, KNOWN)).toEqual([]);
  },
  timeLimit(CI),
);
