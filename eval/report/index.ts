// Reports over recorded runs: the self-contained HTML, JUnit XML and CSV.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { resultsCsv } from './csv';
import type { Comparison } from './compare';
import { type BuiltReport, buildReport } from './html';
import { junitXml } from './junit';
import type { LoadedRun } from './load';
import type { EvidenceReader } from './transcript';

export { type ChartSpec } from './charts';
export { resultsCsv } from './csv';
export { type BuiltReport, buildReport } from './html';
export { type CaseEvidence, type EvidenceReader, type TranscriptEntry } from './transcript';
export { junitXml } from './junit';
export { DEFAULT_RESULTS_DIR, type LoadedRun, loadRuns } from './load';
export * from './spec';
export { REPORT_SPECS, reportSpecFor } from './specs';
export {
  type ErrorReason,
  type RunSummary,
  errorReasons,
  errorsLine,
  headlineInterval,
  metricInterval,
  passHatK,
  summarize,
} from './stats';
export { INTERVAL_METHOD, type Interval, bootstrap, wilson, withInterval } from './intervals';

export { type CaseDiff, type Comparison, ComparisonError, compareRuns, comparisonLines, exactPaired } from './compare';
export { type LeaderboardRow, leaderboard, leaderboardLines, leaderboardMarkdown } from './leaderboard';

export interface ReportOutputs {
  /** Two runs compared case by case: a section in the HTML. */
  comparison?: Comparison;
  html?: string;
  junit?: string;
  csv?: string;
  /** The host's reader of each case's recorded files, for the transcripts. */
  evidence?: EvidenceReader;
}

function write(file: string, text: string): void {
  mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  writeFileSync(file, text);
}

/** Writes whichever outputs are asked for and returns the built report. */
export function writeReports(runs: LoadedRun[], out: ReportOutputs, now = new Date()): BuiltReport {
  const built = buildReport({
    runs,
    outFile: out.html ?? path.join(runs[0]?.dir ?? '.', 'report.html'),
    now,
    ...(out.comparison ? { comparison: out.comparison } : {}),
    ...(out.evidence ? { evidence: out.evidence } : {}),
  });
  if (out.html) write(out.html, built.html);
  if (out.junit) write(out.junit, junitXml(runs));
  if (out.csv) write(out.csv, resultsCsv(runs));
  return built;
}
