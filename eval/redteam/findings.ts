// The red team's findings kept as regressions (findings.json): per finding, the
// champion strategy of a recorded run and the cases on which it earned a metric
// without reaching the case's goal. findings.test.ts replays each on its cases;
// CI's red team (test/fuzz/support/red-team.ts) adds those cases to its sample
// and starts its search from those champions, so a small CI budget searches
// around every class found before, not only where the sample happens to fall.
import path from 'node:path';
import { z } from 'zod';
import { readUserTextSync } from '../../base/user-file';
import { EvalCase } from '../core/case';
import { GenomeZ } from './genome';

export const Finding = z.object({
  suite: z.string(),
  metric: z.string(),
  /** The run's line: the figure, the strategy's name and what it does. */
  found: z.string(),
  genome: GenomeZ,
  cases: z.array(EvalCase),
});
export type Finding = z.infer<typeof Finding>;

export function readFindings(file = path.join(import.meta.dirname, 'findings.json')): Finding[] {
  return z.array(Finding).parse(JSON.parse(readUserTextSync(file)));
}
