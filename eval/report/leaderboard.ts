// One table over every run in a results folder: model, workflow, seed, suite, the
// headline with its 95 % interval, cases, trials, tokens, cost where priced, and
// a mark on runs made outside the suite's protocol. Rows are grouped by suite
// (headlines of different suites are different quantities) and ranked by headline;
// baselines (a workflow that calls no model, the oracle, the floors) are marked
// and listed after the models, unranked.
import type { Interval } from './intervals';
import type { LoadedRun } from './load';
import { reportSpecFor } from './specs';
import { headline, headlineInterval, passHatK, passHatKInterval, taskOf } from './stats';
import { isBaselineModel } from '../results/baseline';

export interface LeaderboardRow {
  suite: string;
  model: string;
  workflow: string;
  variant: string | null;
  /** The run's seed: runs of one model and workflow over several seeds (a sweep's `seeds`) are told apart. */
  seed: number;
  runId: string;
  status: string;
  score: number | null;
  interval: Interval | null;
  /** With several trials: pass^k for k = the run's trials (τ-bench: all k trials of a case succeed), with its interval; else null. */
  passK: { k: number; value: number; interval: Interval | null } | null;
  cases: number;
  trials: number;
  errors: number;
  /** Prompt + completion tokens over every trial; null when no trial reported any. */
  tokens: number | null;
  /** Only where the provider or --prices priced every priced trial; null when none was. */
  costUsd: number | null;
  /** The run was made with a workflow or tool set its suite is not defined for (--off-protocol). */
  offProtocol: boolean;
  /** No model made it: a model-free workflow (shown under its own name, whatever model a run recorded), the oracle or a floor. */
  baseline: boolean;
  /** Its place among the suite's models (1 = best); null for a baseline, which is not ranked. */
  rank: number | null;
}

/** Whether a run was recorded off its suite's protocol: a run field where the store has one, else the recorded option. */
export function offProtocolOf(run: LoadedRun['run']): boolean {
  const field = (run as { offProtocol?: unknown }).offProtocol;
  if (typeof field === 'boolean') return field;
  return run.args['offProtocol'] === true || run.args['off-protocol'] === true;
}

function sumOf(xs: Array<number | null>): number | null {
  const known = xs.filter((x): x is number => x !== null);
  return known.length ? known.reduce((a, b) => a + b, 0) : null;
}

/**
 * `noModel` names a workflow that calls no model (the caller's workflow list, eval/runner
 * baselineOf): a run of one recorded under a model's name is still shown as the baseline.
 */
export function leaderboard(runs: LoadedRun[], noModel: (workflow: string) => string | undefined = () => undefined): LeaderboardRow[] {
  const rows = runs.map(({ run, results }): LeaderboardRow => {
    const spec = reportSpecFor(run.suite);
    const finished = results.filter((r) => r.status !== 'stopped');
    const k = run.trials;
    const pk = k > 1 ? passHatK(results)[k - 1] : undefined;
    const tokens = sumOf(results.map((r) => (r.tokensIn === null && r.tokensOut === null ? null : (r.tokensIn ?? 0) + (r.tokensOut ?? 0))));
    const baseline = noModel(run.workflow);
    return {
      suite: run.suite,
      model: baseline ?? run.model,
      workflow: run.workflow,
      variant: run.variant,
      seed: run.seed,
      runId: run.runId,
      status: run.status,
      score: headline(spec, results).value,
      interval: headlineInterval(spec, results),
      passK: pk === undefined ? null : { k, value: pk, interval: passHatKInterval(results, k, taskOf(spec)) },
      cases: new Set(finished.map((r) => r.caseId)).size,
      trials: run.trials,
      errors: results.filter((r) => r.status === 'error').length,
      tokens,
      costUsd: sumOf(results.map((r) => r.costUsd)),
      offProtocol: offProtocolOf(run),
      baseline: baseline !== undefined || isBaselineModel(run.model),
      rank: null,
    };
  });
  rows.sort(
    (x, y) =>
      x.suite.localeCompare(y.suite) ||
      Number(x.baseline) - Number(y.baseline) ||
      (y.score ?? -1) - (x.score ?? -1) ||
      x.runId.localeCompare(y.runId),
  );
  const ranked = new Map<string, number>();
  for (const r of rows) {
    if (r.baseline) continue;
    r.rank = (ranked.get(r.suite) ?? 0) + 1;
    ranked.set(r.suite, r.rank);
  }
  return rows;
}

const HEAD = [
  'suite',
  'model',
  'workflow',
  'seed',
  'score [95 %]',
  'pass^k [95 %]',
  'cases',
  'trials',
  'errors',
  'tokens',
  'cost $',
  'run',
];
/** The columns of figures (aligned right). */
const FIGURES = (i: number) => i >= 3 && i <= 10;

function cells(r: LeaderboardRow): string[] {
  const score = r.score === null ? '—' : r.score.toFixed(3);
  return [
    r.suite,
    r.baseline ? `${r.model} (baseline)` : r.model,
    `${r.variant ?? r.workflow}${r.offProtocol ? ' (off-protocol)' : ''}`,
    String(r.seed),
    r.interval ? `${score} [${r.interval.low.toFixed(3)}, ${r.interval.high.toFixed(3)}]` : score,
    r.passK
      ? `^${r.passK.k} ${r.passK.value.toFixed(3)}${r.passK.interval ? ` [${r.passK.interval.low.toFixed(3)}, ${r.passK.interval.high.toFixed(3)}]` : ''}`
      : '—',
    String(r.cases),
    String(r.trials),
    String(r.errors),
    r.tokens === null ? '—' : String(r.tokens),
    r.costUsd === null ? '—' : r.costUsd.toFixed(4),
    r.runId,
  ];
}

/** The table for a terminal: aligned columns. */
export function leaderboardLines(rows: LeaderboardRow[]): string[] {
  const table = [HEAD, ...rows.map(cells)];
  const widths = HEAD.map((_, i) => Math.max(...table.map((r) => r[i]!.length)));
  return table.map((r) =>
    r
      .map((c, i) => (FIGURES(i) ? c.padStart(widths[i]!) : c.padEnd(widths[i]!)))
      .join('  ')
      .trimEnd(),
  );
}

/** The table as GitHub-flavoured markdown. */
export function leaderboardMarkdown(rows: LeaderboardRow[]): string {
  const esc = (s: string) => s.replace(/\|/g, '\\|');
  return [
    `| ${HEAD.join(' | ')} |`,
    `|${HEAD.map((_, i) => (FIGURES(i) ? '---:' : '---')).join('|')}|`,
    ...rows.map((r) => `| ${cells(r).map(esc).join(' | ')} |`),
    '',
  ].join('\n');
}
