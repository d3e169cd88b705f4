// skillbridge report RUN [RUN…]: a self-contained HTML report (and JUnit XML, CSV)
// over recorded evaluation runs. A RUN is a run id (in --db DIR, default
// eval-results/) or a results folder / .db file (all of its runs).
import { checkWritableFile } from '../out-files';
import path from 'node:path';
import { DEFAULT_RESULTS_DIR, type LoadedRun, type RunSummary, loadRuns, withInterval, writeReports } from '../../../eval/report/index';
import { type Parsed, UsageError, stringFlag } from '../args';
import { type Output, json } from '../output';

function defaultHtml(runs: LoadedRun[]): string {
  const first = runs[0]!;
  return path.join(first.dir, runs.length === 1 ? `report-${first.run.runId}.html` : 'report.html');
}

function line(s: RunSummary): string {
  const label = `${s.variant ?? s.workflow} · ${s.model}`;
  const passK = Object.keys(s.metrics).filter((k) => k.startsWith('pass^'));
  const last = passK.length > 1 ? `, ${passK.at(-1)} ${s.metrics[passK.at(-1)!]?.toFixed(2) ?? '—'}` : '';
  const score = withInterval(s.score === null ? '—' : s.score.toFixed(2), s.interval, (v) => v.toFixed(2));
  return `${s.suite}  ${s.runId}  ${label}: score ${score} over ${s.cases} cases, ${s.errors} errors${last} (${s.status})`;
}

export function reportCommand(p: Parsed, o: Output): number {
  if (p.positionals.length === 0) {
    throw new UsageError(
      `give one or more runs: skillbridge report RUN [RUN…], a run id (looked up in --db DIR, default ${DEFAULT_RESULTS_DIR}/) or a results folder`,
    );
  }
  // The outputs first: a folder given for a file is a usage error before any work.
  for (const flag of ['junit', 'csv', 'out'] as const) {
    const f = stringFlag(p.flags, flag);
    if (f) checkWritableFile(f, `--${flag}`);
  }
  const runs = loadRuns(p.positionals, stringFlag(p.flags, 'db') ?? DEFAULT_RESULTS_DIR);
  if (runs.length === 0) throw new UsageError(`no runs recorded in ${p.positionals.join(', ')}; run "skillbridge eval" first`);
  const junit = stringFlag(p.flags, 'junit');
  const csv = stringFlag(p.flags, 'csv');
  const html = stringFlag(p.flags, 'out') ?? (junit || csv ? undefined : defaultHtml(runs));
  if (html && !html.endsWith('.html')) throw new UsageError(`--out must name an .html file, got "${html}"`);
  if (html) checkWritableFile(html, '--out');
  const built = writeReports(runs, { html, junit, csv });
  if (p.flags['json']) {
    json(o, { runs: built.summaries, html: html ?? null, junit: junit ?? null, csv: csv ?? null });
    return 0;
  }
  for (const s of built.summaries) o.out(line(s));
  for (const [what, file] of [
    ['report', html],
    ['JUnit XML', junit],
    ['CSV', csv],
  ] as const) {
    if (file) o.out(`wrote ${what}: ${file}`);
  }
  return 0;
}
