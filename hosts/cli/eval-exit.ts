// The exit codes of the commands that record evaluation results (eval, sweep,
// rescore), beside the CLI's own: 2 bad input (one line), 70 our bug.
import type { RunCounts } from '../../eval/runner/tally';

/** Every planned case × trial was scored. */
export const EXIT_OK = 0;
/** The run went to its end but some case × trials have no score: they errored (or never ran); --resume runs exactly those. */
export const EXIT_UNSCORED = 3;
/** Stopped by Ctrl-C: --resume goes on. */
export const EXIT_INTERRUPTED = 130;

/** The exit code of one run (eval) or several (sweep): interrupted first, then any case × trial without a score. */
export function resultsExitCode(counts: ReadonlyArray<Pick<RunCounts, 'planned' | 'scored'>>, interrupted: boolean): number {
  if (interrupted) return EXIT_INTERRUPTED;
  return counts.every((c) => c.scored === c.planned) ? EXIT_OK : EXIT_UNSCORED;
}
