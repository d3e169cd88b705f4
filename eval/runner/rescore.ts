// skillbridge rescore RUN: scores a recorded run's cases again from their recorded
// end states (eval/core/end-state.ts) with the suite's current scorer, without
// running a model or a skill, and records the result as a new run beside it. A
// trial that cannot be scored again (no end state recorded, its case no longer
// generated, a world that does not restore to its recorded hash) is recorded as
// an error naming why: it counts as a miss, never as its old score. An end state
// that is not the one the trial recorded (another case's or trial's, a world whose
// hash is not the recorded world_hash_end, a scorer version other than the run's,
// or a score the run's own scorer does not reproduce) refuses the whole rescore,
// naming the case: a file copied from another run must not launder its scores.
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { type RunSummary, summarize } from '../report/stats';
import { type ResultInput, type ResultRecord, gitCommit, openResults } from '../results/index';
import { type EndState, endStateFile, readEndState } from '../core/end-state';
import type { AnySuite, CaseOutcome } from '../core/suite';
import { WorldPool } from '../core/world';
import { recordedContent } from '../results/identity';
import { withSimulatedUser } from '../core/simulated-user';
import type { EvalCase } from '../core/case';
import { SimWorldModel } from '../../robot/sim/world-model';
import type { WorldSnapshot } from '../../sim/world/types';
import { findSuite } from '../suites/index';
import { generateCases, loadCases, scorerVersion } from './cases';
import { loadSuiteFile } from '../suites/file/index';
import type { ResumeRefs } from '../../base/host-refs';
import { EvalInputError } from './errors';
import { type Unscored, caseScore, isUnscored, modelFailure } from './verdict';

/** An end state that is not the recorded trial's: the rescore is refused. */
class NotThisTrial extends Error {}

/** A trial the current scorer does not score either: an error of this kind. */
class StillUnscored extends Error {
  constructor(readonly unscored: Unscored) {
    super(unscored.why);
  }
}

export interface RescoreOptions {
  /** The results folder (or its .db file) holding the run. */
  db: string;
  runId: string;
  /** Record the new scores as a new run (default); false only compares. */
  write?: boolean;
  cacheDir?: string;
  /** The suite, when the run's suite is not a built-in one (a --suite FILE run). */
  suite?: AnySuite;
  /** How the host reads again the suite file a run was made from (its policy); without it such a run is not rescored. */
  reopen?: Pick<ResumeRefs, 'suiteFile'>;
  onLog?: (text: string) => void;
}

export interface RescoredCase {
  caseId: string;
  trial: number;
  before: { score: number | null; metrics: Record<string, number | null> };
  after: { score: number | null; metrics: Record<string, number | null> } | null;
  /** Why it could not be scored again. */
  error?: string;
}

export interface RescoreResult {
  from: string;
  /** The new run, when written. */
  runId: string | null;
  suite: string;
  /** ok trials scored again, and those whose score or metrics changed. */
  rescored: number;
  changed: RescoredCase[];
  /** ok trials that could not be scored again (recorded as errors in the new run). */
  failed: RescoredCase[];
  /** Trials that had ended in an error or were stopped: copied as they were. */
  copied: number;
  /** Of those, the errors (no score before, none now). */
  copiedErrors: number;
  summary: RunSummary | null;
}

function snapshotHash(s: WorldSnapshot): string {
  return createHash('sha256').update(s.physics).update(s.state).digest('hex').slice(0, 16);
}

/** JSON with its keys sorted: a restored world's bookkeeping may list the same keys in another order. */
function canonical(v: unknown): string {
  return JSON.stringify(v, (_k, x: unknown) =>
    x && typeof x === 'object' && !Array.isArray(x)
      ? Object.fromEntries(Object.entries(x).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : x,
  );
}

/** The same physics bytes and the same bookkeeping. */
function sameWorld(a: WorldSnapshot, b: WorldSnapshot): boolean {
  return (
    Buffer.compare(Buffer.from(a.physics), Buffer.from(b.physics)) === 0 &&
    canonical(JSON.parse(a.state)) === canonical(JSON.parse(b.state))
  );
}

function sameMetrics(a: Record<string, number | null>, b: Record<string, number | null>): boolean {
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  return [...keys].every((k) => (a[k] ?? null) === (b[k] ?? null));
}

/** Booleans as the store keeps them (0/1), non-finite numbers as null. */
function stored(m: Record<string, number | boolean | null>): Record<string, number | null> {
  const out: Record<string, number | null> = {};
  for (const [k, v] of Object.entries(m))
    out[k] = typeof v === 'boolean' ? Number(v) : typeof v === 'number' && Number.isFinite(v) ? v : null;
  return out;
}

/** The scorer versions a rescore compares: the one the run recorded (absent before they were recorded) and this one. */
interface Scorers {
  /** The scorer that scored the run's rows. */
  recorded: string | undefined;
  /** The scorer the end states were written under (a rescored run keeps its origin's end states). */
  written: string | undefined;
  current: string;
}

/** Whether an end state is the one its trial recorded: its case and trial, the recorded end world, the run's scorer. */
function checkIsTrial(end: EndState, r: ResultRecord, scorers: Scorers): void {
  if (end.caseId !== r.caseId || end.trial !== r.trial)
    throw new NotThisTrial(`the end state is of case "${end.caseId}" trial ${end.trial}, not this trial's`);
  if (r.worldHashEnd === null) throw new NotThisTrial('the run recorded no end world hash to check the end state against');
  if (end.hash !== r.worldHashEnd)
    throw new NotThisTrial(
      `the end state's world hashes to ${end.hash}, the run recorded ${r.worldHashEnd}: it is not this trial's end state`,
    );
  if (end.scorer !== scorers.written)
    throw new NotThisTrial(
      `the end state was written under scorer ${end.scorer ?? '(none recorded)'}, the run records scorer ${scorers.written ?? '(none recorded)'}`,
    );
  const calls = end.events.filter((e) => e.type === 'tool_start').length;
  if (calls !== r.toolCalls) throw new NotThisTrial(`the end state holds ${calls} tool calls, the run recorded ${r.toolCalls}`);
}

async function scoreAgain(
  suite: AnySuite,
  c: EvalCase,
  r: ResultRecord,
  dir: string,
  pool: WorldPool,
  scorers: Scorers,
): Promise<{ input: ResultInput; metrics: Record<string, number | null> }> {
  if (!r.tracePath) throw new Error('no trace recorded');
  const trace = path.resolve(dir, r.tracePath);
  const file = endStateFile(trace);
  if (!existsSync(file))
    throw new Error(
      `no end state at ${path.relative(dir, file)}${existsSync(trace) ? ' beside its trace' : ''}: it was not kept with the run's results (or was removed); run the case again`,
    );
  const end = readEndState(file);
  checkIsTrial(end, r, scorers);
  const gold = suite.gold.parse(c.gold);
  const { cw, robot: simRobot } = await pool.checkout(c.world);
  if (snapshotHash(end.world) !== end.hash) throw new Error(`the recorded world is damaged: it does not hash to ${end.hash}`);
  cw.control.restore(end.world);
  if (!sameWorld(cw.control.snapshot(), end.world)) throw new Error('the recorded world does not restore to itself in this version');
  if (end.worldModel && simRobot.worldModel instanceof SimWorldModel) simRobot.worldModel.restoreEdits(end.worldModel);
  const robot = withSimulatedUser(simRobot, cw.control, c.answers);
  const outcome: CaseOutcome = { events: end.events, times: end.times, turn: end.turn, control: cw.control, robot, extra: end.extra };
  const failed = modelFailure(end.events, end.turn);
  if (failed) throw new StillUnscored(failed);
  let scored;
  try {
    scored = await suite.score({ ...c, gold }, outcome);
  } catch (e) {
    throw new StillUnscored({ kind: 'scorer-undecided', why: `the scorer failed: ${e instanceof Error ? e.message : String(e)}` });
  }
  const metrics = stored(scored.metrics);
  // The free-text judge's verdict is not the scorer's: it is kept as recorded.
  const judged = suite.judge && suite.judge.metric in r.metrics ? { [suite.judge.metric]: r.metrics[suite.judge.metric] ?? null } : {};
  const score = caseScore(suite.report, scored.metrics);
  if (isUnscored(score)) throw new StillUnscored(score);
  return {
    metrics: { ...metrics, ...judged },
    input: {
      caseId: r.caseId,
      trial: r.trial,
      status: 'ok',
      score,
      success: scored.success ?? score >= 1,
      metrics: { ...metrics, ...judged },
      labels: r.labels,
      failureClass: scored.failureClass ?? null,
      durationMs: r.durationMs,
      modelMs: r.modelMs,
      tokensIn: r.tokensIn,
      tokensOut: r.tokensOut,
      costUsd: r.costUsd,
      toolCalls: r.toolCalls,
      tracePath: trace,
      worldHashStart: r.worldHashStart,
      worldHashEnd: r.worldHashEnd,
      scorerVersion: scorers.current,
    },
  };
}

function copied(r: ResultRecord, dir: string): ResultInput {
  return {
    caseId: r.caseId,
    trial: r.trial,
    status: r.status,
    score: r.score,
    ...(r.success !== null ? { success: r.success } : {}),
    metrics: r.metrics,
    labels: r.labels,
    durationMs: r.durationMs,
    modelMs: r.modelMs,
    tokensIn: r.tokensIn,
    tokensOut: r.tokensOut,
    costUsd: r.costUsd,
    toolCalls: r.toolCalls,
    failureClass: r.failureClass,
    error: r.error,
    errorKind: r.errorKind,
    tracePath: r.tracePath ? path.resolve(dir, r.tracePath) : null,
    worldHashStart: r.worldHashStart,
    worldHashEnd: r.worldHashEnd,
    // Copied as recorded: judged (or not) by the scorer that judged it then.
    scorerVersion: r.scorerVersion,
  };
}

export async function rescoreRun(o: RescoreOptions): Promise<RescoreResult> {
  const write = o.write !== false;
  const db = openResults(o.db, write ? {} : { mode: 'read' });
  try {
    const run = db.requireRun(o.runId);
    // A run of a suite file is scored again with the file it recorded, read again under the host's policy.
    const file = typeof run.args['suiteFile'] === 'string' ? run.args['suiteFile'] : undefined;
    const suite = o.suite ?? (file && o.reopen ? loadSuiteFile(o.reopen.suiteFile(file)) : findSuite(run.suite));
    if (!suite)
      throw new EvalInputError(
        'unknown-suite',
        file
          ? `run ${run.runId} is of the suite file ${file}, which this host does not read again`
          : `run ${run.runId} is of suite "${run.suite}", which this version does not have`,
      );
    // A run with a described robot (eval --urdf) was played in worlds this rescore would build with the scenes' own robots.
    const robot = recordedContent(run.args)?.robot;
    if (robot !== undefined)
      throw new EvalInputError(
        'not-rescorable',
        `run ${run.runId} ran with the robot ${robot} (--urdf) in place of the scenes' own; rescore builds the scenes' robots and would score another robot's run. Run it again with eval --urdf`,
      );
    const results = db.results(run.runId);
    const { cases } =
      file && !o.suite
        ? { cases: await generateCases(suite) }
        : await loadCases(suite, {
            ...(o.cacheDir ? { cacheDir: o.cacheDir } : {}),
            ...(o.onLog ? { onProgress: o.onLog } : {}),
          });
    const byId = new Map(cases.map((c) => [c.id, c]));
    const text = (k: string) => (typeof run.args[k] === 'string' ? (run.args[k] as string) : undefined);
    const scorers: Scorers = {
      recorded: text('scorer'),
      written: text('endStateScorer') ?? text('scorer'),
      current: scorerVersion(suite.id),
    };
    const pool = new WorldPool({ seed: run.seed });
    const rows: ResultInput[] = [];
    const changed: RescoredCase[] = [];
    const failed: RescoredCase[] = [];
    let rescored = 0;
    let copiedN = 0;
    let copiedErrors = 0;
    try {
      for (const r of results) {
        if (r.status !== 'ok') {
          rows.push(copied(r, db.dir));
          copiedN++;
          if (r.status === 'error') copiedErrors++;
          continue;
        }
        const before = { score: r.score, metrics: r.metrics };
        try {
          const c = byId.get(r.caseId);
          if (!c) throw new Error(`case "${r.caseId}" is no longer generated by ${suite.id}`);
          const again = await scoreAgain(suite, c, r, db.dir, pool, scorers);
          rows.push(again.input);
          rescored++;
          const after = { score: again.input.score ?? null, metrics: again.metrics };
          if (after.score !== before.score || !sameMetrics(before.metrics, after.metrics)) {
            // The scorer that scored the run scores its end state as it did then, or the end state is not what it scored.
            if (scorers.recorded === scorers.current)
              throw new NotThisTrial(
                `the run's own scorer (${scorers.current}) scores this end state ${after.score}, the run recorded ${before.score}: it is not what was scored`,
              );
            changed.push({ caseId: r.caseId, trial: r.trial, before, after });
          }
        } catch (e) {
          if (e instanceof NotThisTrial)
            throw new EvalInputError('not-rescorable', `case "${r.caseId}" trial ${r.trial}: ${e.message}; nothing was rescored`);
          const why = `not rescored: ${e instanceof Error ? e.message : String(e)}`;
          const errorKind = e instanceof StillUnscored ? e.unscored.kind : 'not-rescorable';
          failed.push({ caseId: r.caseId, trial: r.trial, before, after: null, error: why });
          rows.push({
            ...copied(r, db.dir),
            status: 'error',
            score: null,
            metrics: {},
            error: why,
            errorKind,
            // Only the current scorer's own failure was a judgement of this one; otherwise no scorer judged the row.
            scorerVersion: errorKind === 'scorer-undecided' ? scorers.current : null,
          });
        }
      }
    } finally {
      await pool.dispose();
    }
    if (!write)
      return { from: run.runId, runId: null, suite: suite.id, rescored, changed, failed, copied: copiedN, copiedErrors, summary: null };
    const next = db.startRun({
      suite: run.suite,
      model: run.model,
      workflow: run.workflow,
      variant: run.variant,
      seed: run.seed,
      trials: run.trials,
      commit: gitCommit(),
      args: { ...run.args, rescoredFrom: run.runId, scorer: scorers.current, endStateScorer: scorers.written },
    });
    for (const row of rows) db.record(next.runId, row);
    db.finishRun(next.runId, run.status === 'running' ? 'stopped' : run.status, `rescored from ${run.runId}`);
    const final = db.requireRun(next.runId);
    const summary = summarize(final, db.results(next.runId), suite.report, db.file);
    return { from: run.runId, runId: next.runId, suite: suite.id, rescored, changed, failed, copied: copiedN, copiedErrors, summary };
  } finally {
    db.close();
  }
}
