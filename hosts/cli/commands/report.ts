// skillbridge report RUN [RUN…]: a self-contained HTML report (and JUnit XML, CSV)
// over recorded evaluation runs. A RUN is a run id (in --db DIR, default
// eval-results/) or a results folder / .db file (all of its runs). Two runs of one
// suite are also compared case by case; --leaderboard DIR ranks every run in a folder.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import {
  type Comparison,
  ComparisonError,
  DEFAULT_RESULTS_DIR,
  type LoadedRun,
  type RunSummary,
  compareRuns,
  comparisonLines,
  errorsLine,
  leaderboard,
  leaderboardLines,
  leaderboardMarkdown,
  loadRuns,
  withInterval,
  writeReports,
} from '../../../eval/report/index';
import { EvalInputError } from '../../../eval/runner/errors';
import { baselineOf } from '../../../eval/runner/inputs';
import { type Parsed, UsageError, stringFlag } from '../args';
import { checkWritableFile } from '../out-files';
import { type Output, json } from '../output';
import { readCaseEvidence } from '../../../eval/runner/evidence';

function defaultHtml(runs: LoadedRun[]): string {
  const first = runs[0]!;
  return path.join(first.dir, runs.length === 1 ? `report-${first.run.runId}.html` : 'report.html');
}

function line(s: RunSummary): string {
  const label = `${s.variant ?? s.workflow} · ${s.model}`;
  const passK = Object.keys(s.metrics).filter((k) => k.startsWith('pass^'));
  const last = passK.length > 1 ? `, ${passK.at(-1)} ${s.metrics[passK.at(-1)!]?.toFixed(2) ?? '—'}` : '';
  const score = withInterval(s.score === null ? '—' : s.score.toFixed(2), s.interval, (v) => v.toFixed(2));
  return `${s.suite}  ${s.runId}  ${label}: score ${score} over ${s.cases} cases, ${errorsLine(s)}${last} (${s.status})`;
}

function leaderboardCommand(p: Parsed, o: Output, dir: string): number {
  if (p.positionals.length) throw new UsageError(`--leaderboard takes a results folder and no runs, got "${p.positionals.join(' ')}"`);
  const md = stringFlag(p.flags, 'md');
  if (md) checkWritableFile(md, '--md');
  const rows = leaderboard(loadRuns([dir]), baselineOf);
  if (rows.length === 0) throw new UsageError(`no runs recorded in ${dir}; run "skillbridge eval" first`);
  if (md) writeFileSync(md, leaderboardMarkdown(rows));
  if (p.flags['json']) {
    json(o, { leaderboard: rows, md: md ?? null });
    return 0;
  }
  for (const l of leaderboardLines(rows)) o.out(l);
  if (md) o.out(`wrote leaderboard: ${md}`);
  return 0;
}

/** Two runs of one suite: their per-case diff. --diff insists (and refuses what cannot be compared). */
function comparisonOf(p: Parsed, runs: LoadedRun[]): { comparison: Comparison | null; note: string | null } {
  const demanded = Boolean(p.flags['diff']);
  if (demanded && runs.length !== 2)
    throw new UsageError(`--diff compares exactly two runs, got ${runs.length}: skillbridge report RUN_A RUN_B --diff`);
  if (runs.length !== 2) return { comparison: null, note: null };
  const [a, b] = runs as [LoadedRun, LoadedRun];
  if (!demanded && a.run.suite !== b.run.suite) return { comparison: null, note: null };
  try {
    return { comparison: compareRuns(a, b), note: null };
  } catch (e) {
    if (!(e instanceof ComparisonError)) throw e;
    if (demanded) throw new EvalInputError('not-comparable', e.message);
    return { comparison: null, note: `no per-case diff: ${e.message}` };
  }
}

export function reportCommand(p: Parsed, o: Output): number {
  const board = stringFlag(p.flags, 'leaderboard');
  if (board) return leaderboardCommand(p, o, board);
  if (p.positionals.length === 0) {
    throw new UsageError(
      `give one or more runs: skillbridge report RUN [RUN…], a run id (looked up in --db DIR, default ${DEFAULT_RESULTS_DIR}/) or a results folder; or --leaderboard DIR`,
    );
  }
  // The outputs first: a folder given for a file is a usage error before any work.
  for (const flag of ['junit', 'csv', 'out', 'md'] as const) {
    const f = stringFlag(p.flags, flag);
    if (f) checkWritableFile(f, `--${flag}`);
  }
  const runs = loadRuns(p.positionals, stringFlag(p.flags, 'db') ?? DEFAULT_RESULTS_DIR);
  if (runs.length === 0) throw new UsageError(`no runs recorded in ${p.positionals.join(', ')}; run "skillbridge eval" first`);
  const { comparison, note } = comparisonOf(p, runs);
  const junit = stringFlag(p.flags, 'junit');
  const csv = stringFlag(p.flags, 'csv');
  const md = stringFlag(p.flags, 'md');
  const html = stringFlag(p.flags, 'out') ?? (junit || csv || md ? undefined : defaultHtml(runs));
  if (html && !html.endsWith('.html')) throw new UsageError(`--out must name an .html file, got "${html}"`);
  if (html) checkWritableFile(html, '--out');
  const built = writeReports(runs, { html, junit, csv, evidence: readCaseEvidence, ...(comparison ? { comparison } : {}) });
  if (md) writeFileSync(md, markdown(built.summaries, comparison));
  if (p.flags['json']) {
    json(o, { runs: built.summaries, comparison, html: html ?? null, junit: junit ?? null, csv: csv ?? null, md: md ?? null });
    return 0;
  }
  for (const s of built.summaries) o.out(line(s));
  if (comparison) for (const l of comparisonLines(comparison)) o.out(l);
  if (note) o.out(note);
  for (const [what, file] of [
    ['report', html],
    ['JUnit XML', junit],
    ['CSV', csv],
    ['markdown', md],
  ] as const) {
    if (file) o.out(`wrote ${what}: ${file}`);
  }
  return 0;
}

/** The summaries (each figure with its 95 % interval) and the comparison as markdown. */
function markdown(summaries: RunSummary[], comparison: Comparison | null): string {
  const fmt = (v: number | null | undefined) => (v === null || v === undefined ? '—' : v.toFixed(3));
  const out = ['| suite | run | workflow · model | cases | errors | score [95 %] | metrics [95 %] |', '|---|---|---|---:|---:|---:|---|'];
  for (const s of summaries) {
    const metrics = Object.entries(s.metrics)
      .map(([k, v]) => `${k} ${withInterval(fmt(v), v === null ? null : s.intervals[k], fmt)}`)
      .join('; ');
    const score = withInterval(fmt(s.score), s.interval, fmt);
    out.push(`| ${s.suite} | ${s.runId} | ${s.variant ?? s.workflow} · ${s.model} | ${s.cases} | ${s.errors} | ${score} | ${metrics} |`);
  }
  if (comparison) out.push('', '```', ...comparisonLines(comparison, Infinity), '```');
  return `${out.join('\n')}\n`;
}
