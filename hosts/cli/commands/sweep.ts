// skillbridge sweep FILE: suites × models × workflows × trials from a JSON
// sweep file into one results folder (default sweep-results/), resumable (run
// it again: finished runs are kept, the rest resumed), then one report over the
// folder and a leaderboard per suite. Exit 3 (eval-exit.ts) when a run has a case
// × trial without a score; running the sweep again retries those.
import path from 'node:path';
import { errorsLine, loadRuns, writeReports } from '../../../eval/report/index';
import { openResults } from '../../../eval/results/index';
import { loadSweep, runSweep, sweepCells } from '../../../eval/scale/sweep';
import { type Parsed, UsageError, stringFlag } from '../args';
import { resultsExitCode } from '../eval-exit';
import { type Output, json } from '../output';
import { queueScale } from './scale-eval';
import { TERMINAL } from '../../service/host-policy';
import { readCaseEvidence } from '../../../eval/runner/evidence';
import { isBaselineModel } from '../../../eval/results/baseline';

export async function sweepCommand(p: Parsed, o: Output): Promise<number> {
  if (p.positionals.length !== 1) throw new UsageError('give one sweep file: skillbridge sweep FILE.json [--out DIR]');
  const sweep = loadSweep(p.positionals[0]!);
  const outDir = stringFlag(p.flags, 'out') ?? 'sweep-results';
  // The results code takes a name ending in .db for the database itself; a sweep writes its report beside it.
  if (outDir.endsWith('.db'))
    throw new UsageError(
      `--out ${JSON.stringify(outDir)}: a sweep's --out is its folder (results.db and the report go in it), not a .db file`,
    );
  const scale = await queueScale(p, { namesRuns: true });
  // The results database is opened (made, checked) before the first run says anything: bad input is one line.
  openResults(outDir).close();
  const asJson = Boolean(p.flags['json']);
  const ac = new AbortController();
  const onSigint = () => (ac.signal.aborted ? process.exit(130) : ac.abort());
  process.on('SIGINT', onSigint);
  let rows;
  let cell = '';
  let lastLine = 0;
  try {
    rows = await runSweep(sweep, {
      outDir,
      scale,
      door: TERMINAL,
      signal: ac.signal,
      env: process.env,
      // Progress goes to stderr always (under --json too): stdout holds only the answer.
      onCell: (c, i, n) => {
        cell = `[${i + 1}/${n}]`;
        o.err(`${cell} ${c.suite} · ${c.model} · ${c.workflow ?? 'default'} · seed ${c.seed} (${c.runId})`);
      },
      onProgress: (pr) => {
        if (pr.done !== pr.total && performance.now() - lastLine < 5000) return;
        lastLine = performance.now();
        o.err(`${cell} ${pr.done}/${pr.total} cases, score ${pr.score === null ? '–' : pr.score.toFixed(3)}, ${pr.errors} errors`);
      },
      onLog: (l) => o.err(l),
    });
  } finally {
    process.off('SIGINT', onSigint);
  }
  const cells = sweepCells(sweep);
  const ids = new Set(cells.map((c) => c.runId));
  const seedOf = new Map(cells.map((c) => [c.runId, c.seed]));
  const runs = loadRuns([outDir]).filter((r) => ids.has(r.run.runId));
  const html = path.join(outDir, `report-${sweep.name}.html`);
  const built = writeReports(runs, { html, evidence: readCaseEvidence });
  const board = [...built.summaries]
    // Baselines (the oracle, the floors, a workflow that calls no model) after the models, unranked.
    .sort((a, b) =>
      a.suite < b.suite
        ? -1
        : a.suite > b.suite
          ? 1
          : Number(isBaselineModel(a.model)) - Number(isBaselineModel(b.model)) || (b.score ?? -1) - (a.score ?? -1),
    )
    .map((s) => ({
      suite: s.suite,
      model: s.model,
      baseline: isBaselineModel(s.model),
      workflow: s.variant ?? s.workflow,
      seed: seedOf.get(s.runId) ?? null,
      score: s.score,
      cases: s.cases,
      errors: s.errors,
      errorReasons: s.errorReasons,
      runId: s.runId,
      status: s.status,
    }));
  const interrupted = ac.signal.aborted;
  const code = resultsExitCode(
    rows.map((r) => r.counts),
    interrupted,
  );
  if (asJson) {
    json(o, { sweep: sweep.name, db: path.join(outDir, 'results.db'), report: html, runs: rows, leaderboard: board, interrupted });
    return code;
  }
  o.out(
    `sweep ${sweep.name}: ${rows.length} runs (${rows.filter((r) => r.action === 'kept').length} kept from before), results in ${outDir}/`,
  );
  let suite = '';
  for (const [i, b] of board.entries()) {
    if (b.suite !== suite) {
      suite = b.suite;
      o.out(`  ${suite}:`);
    }
    const rank = b.baseline ? ' –' : `${String(board.filter((x, j) => x.suite === suite && j <= i && !x.baseline).length).padStart(2)}.`;
    o.out(
      `    ${rank} ${(b.score === null ? '–' : b.score.toFixed(3)).padStart(5)}  ${b.model}${b.baseline ? ' (baseline)' : ''} · ${b.workflow} · seed ${b.seed ?? '–'}  (${b.cases} cases, ${errorsLine(b)}${b.status === 'finished' ? '' : `, ${b.status}`})`,
    );
  }
  o.out(`  report: ${html}`);
  const again = `skillbridge sweep ${p.positionals[0]}${stringFlag(p.flags, 'out') ? ` --out ${outDir}` : ''}`;
  if (interrupted) o.out(`  stopped: run "${again}" again to go on`);
  else if (code !== 0) o.out(`  some case × trials have no score (exit 3): run "${again}" again to retry them`);
  return code;
}
