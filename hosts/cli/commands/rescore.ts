// skillbridge rescore RUN: the run's cases scored again from their recorded end
// states with the current scorer, recorded as a new run (--dry-run: compared only).
// Exit 3 (eval-exit.ts) when the new run has trials without a score.
import { DEFAULT_RESULTS_DIR, errorsLine, withInterval } from '../../../eval/report/index';
import { rescoreRun } from '../../../eval/runner/rescore';
import { type Parsed, UsageError, stringFlag } from '../args';
import { EXIT_OK, EXIT_UNSCORED } from '../eval-exit';
import { type Output, json } from '../output';
import { TERMINAL } from '../../service/host-policy';

const f3 = (v: number | null) => (v === null ? '—' : v.toFixed(3));

export async function rescoreCommand(p: Parsed, o: Output): Promise<number> {
  if (p.positionals.length !== 1)
    throw new UsageError(
      `give one run: skillbridge rescore RUN [--db DIR] [--dry-run] (a run id in --db DIR, default ${DEFAULT_RESULTS_DIR}/)`,
    );
  const r = await rescoreRun({
    db: stringFlag(p.flags, 'db') ?? DEFAULT_RESULTS_DIR,
    runId: p.positionals[0]!,
    write: !p.flags['dry-run'],
    // A run of a suite file reads its file again, as the command line reads any file the person names.
    reopen: TERMINAL,
    ...(p.flags['json'] ? {} : { onLog: (t: string) => o.err(t) }),
  });
  // Without a score: the trials not scored again and those copied as errors.
  const unscored = r.failed.length + r.copiedErrors;
  const code = unscored ? EXIT_UNSCORED : EXIT_OK;
  if (p.flags['json']) {
    json(o, r);
    return code;
  }
  const s = r.summary;
  const score = s ? `; score ${withInterval(f3(s.score), s.interval, (v) => v.toFixed(3))}, ${errorsLine(s)}` : '';
  o.out(
    `${r.suite}  ${r.from}${r.runId ? ` → ${r.runId}` : ' (dry run)'}: ${r.rescored} trials scored again, ${r.changed.length} changed, ${r.failed.length} not rescorable, ${r.copied} copied as recorded${score}`,
  );
  for (const c of r.changed.slice(0, 20)) o.out(`  changed  ${c.caseId}#${c.trial}  ${f3(c.before.score)} → ${f3(c.after?.score ?? null)}`);
  if (r.changed.length > 20) o.out(`  … ${r.changed.length - 20} more (--json lists them all)`);
  for (const c of r.failed.slice(0, 5)) o.out(`  failed   ${c.caseId}#${c.trial}  ${c.error}`);
  if (r.failed.length > 5) o.out(`  … ${r.failed.length - 5} more not rescorable`);
  return code;
}
