// skillbridge eval, as a function every host calls (the CLI, the app's Evaluate
// view, the benchmark): checks the suite, workflow and model, loads the suite's
// cases, starts or resumes a run in the results database, hands case × trial
// pairs to this thread or to worker threads (a world built once per thread and
// restored for every case), records each result as it arrives (a Ctrl-C or a
// crash loses nothing recorded), and summarises the run as `report` does. A case
// whose outcome is unknown (verdict.ts) is an error, not a 0: counted apart, left
// out of the means, and run again by --resume with the stopped and missing ones.
import path from 'node:path';
import { type RunSummary, summarize } from '../report/stats';
import { isOffProtocol, markedVariant, offProtocolReason } from '../core/protocol';
import { DEFAULT_RESULTS_DIR } from '../report/load';
import { type ResultInput, type RunRecord, doneKey, gitCommit, newRunId, openResults } from '../results/index';
import type { EvalCase } from '../core/case';
import { PER_CASE } from '../core/suite';
import { SUITES, findSuite } from '../suites/index';
import { loadSuiteFile } from '../suites/file/index';
import type { ModelFiles, ModelSpec, ResumeRefs, RunId, SuiteFile, SuiteRef } from '../../base/host-refs';
import { EvalInputError } from './errors';
import { baselineOf, checkJudge, checkModel, checkWorkflow, positive, recordedLimits } from './inputs';
import { casesSourceKey, filterCases, generateCases, loadCases, sampleCases, scorerVersion } from './cases';
import { type Slot, inlineSlot, workerSlot } from './executors';
import type { WorkerInit } from './protocol';
import type { CaseTiming } from './run-case';
import { type ScaleFigures, type ScaleOptions, startScale } from '../scale/runner-hook';
import { type CaseTrial, type RunCounts, tally, toRun } from './tally';
import { checkNoise, recordedNoise } from './noise';
import { type Plan, refuseReuse, resumePlan, resumedScale } from './resume';
import { type RunContent, casesHash, contentDifference, contentHash, contentNoise, recordedContent } from '../results/identity';
import type { NoiseOptions } from '../../sim/world/types';
import type { LoadedRobot } from '../../scenes/urdf/load';
import { robotIdentity } from '../../scenes/urdf/content-hash';

export { EvalInputError, type EvalInputCode } from './errors';

export interface EvalOptions {
  /** Required unless resuming: a built-in suite, or a suite file the door's policy allowed. */
  suite?: SuiteRef;
  model?: ModelSpec;
  workflow?: string;
  trials?: number;
  jobs?: number;
  seed?: number;
  /** Only cases whose id contains, or one of whose labels equals, this text. */
  filter?: string;
  /** A deterministic sample of this many cases, spread over the suite's categories. */
  sample?: number;
  /** A run id to continue: its errored, stopped and missing case × trials run, the scored ones are kept. */
  resume?: RunId;
  /** Answer the model's requests from, and record them into, this folder (eval/scale/response-cache.ts). */
  responseCache?: string;
  /** With resume: run again only the case × trials that ended in an error (not the stopped or missing ones). */
  errorsOnly?: boolean;
  /** How the door reads again what the resumed run recorded (its model, judge and suite file); without it a run cannot be resumed. */
  reopen?: ResumeRefs;
  outDir?: string;
  limits?: { timeLimitS?: number; maxIterations?: number };
  /** Perception and skill noise in every case's world (seeded by --seed); recorded with the run as applied. */
  noise?: Partial<NoiseOptions>;
  /** A model spec that judges each finished case's free text where the suite has a judge (RAIDER's explanations). */
  judge?: ModelSpec;
  env?: Record<string, string | undefined>;
  /** Where the model and judge may read `scripted:FILE` and `local:` files: the door's grant (no default). */
  files: ModelFiles;
  signal?: AbortSignal;
  onProgress?: (p: EvalProgress) => void;
  onLog?: (line: string) => void;
  /** The options as given, recorded with the run. */
  args?: Record<string, unknown>;
  /** Case cache folder (tests). */
  cacheDir?: string;
  /** Run the cases on this thread (default with --jobs 1); false keeps them off it (the app's live view). */
  inline?: boolean;
  /** Evaluation at scale (eval/scale): cases in flight, rate limits, prices, shards, a queue. */
  scale?: ScaleOptions;
  /** Run a workflow or tool set the suite is not defined for; the run is marked "off protocol". */
  offProtocol?: boolean;
  /** A described robot in every case's world in place of the scene's own (--urdf); its content hash is part of the run's identity. */
  robot?: LoadedRobot;
}

export interface EvalProgress {
  runId: string;
  suite: string;
  total: number;
  done: number;
  errors: number;
  stopped: number;
  /** Running mean of the case scores so far (errors, which have none, left out). */
  score: number | null;
  elapsedMs: number;
  etaMs: number | null;
  last?: { caseId: string; trial: number; status: ResultInput['status']; score: number | null; error?: string | null };
}

export interface EvalTimings {
  /** Case × trials run by this invocation. */
  cases: number;
  meanTotalMs: number;
  /** In the case: restore, hashes, opening the conversation, scoring, the trace (not the model, not the robot's skills). */
  meanOverheadMs: number;
  /** Writing the row to the results database (the main thread, beside the workers). */
  meanRecordMs: number;
  meanRestoreMs: number;
  meanModelMs: number;
  meanToolMs: number;
  worldBuilds: number;
  worldBuildMs: number;
  /** Generating the cases (null: they came from the cache). */
  generatedMs: number | null;
  /** Cases in flight and memory (eval/scale). */
  scale: ScaleFigures;
}

export interface EvalResult {
  summary: RunSummary;
  run: RunRecord;
  timings: EvalTimings;
  /** The planned case × trials: scored, errored, stopped and missing (they add up). */
  counts: RunCounts;
  interrupted: boolean;
}

export function suiteIds(): string[] {
  return SUITES.map((s) => s.id);
}

export async function runEval(o: EvalOptions): Promise<EvalResult> {
  const log = o.onLog ?? (() => undefined);
  const outDir = o.outDir ?? DEFAULT_RESULTS_DIR;
  const db = openResults(outDir);
  try {
    // ---- what to run: a new run from the options, or the run being resumed
    let plan: Plan;
    let resumed: RunRecord | undefined;
    const suiteGiven = o.suite ? (o.suite.kind === 'builtin' ? o.suite.id : o.suite.given) : undefined;
    if (o.errorsOnly && !o.resume)
      throw new EvalInputError('bad-option', 'errors-only retries the errored case × trials of a recorded run: give it with --resume RUN');
    if (o.resume) {
      ({ resumed, plan } = resumePlan({ ...o, resume: o.resume }, db, suiteGiven));
    } else {
      if (!o.suite) throw new EvalInputError('bad-option', `--suite is required: one of ${suiteIds().join(', ')}`);
      if (!o.model)
        throw new EvalInputError(
          'bad-option',
          '--model is required: a model spec (ollama:qwen3:8b, openai:gpt-4.1-mini) or oracle, floor:noop',
        );
      plan = { suiteId: suiteGiven!, model: o.model, workflow: '', seed: o.seed ?? 1, trials: positive('trials', o.trials, 1, 100) };
    }
    // A resumed run runs with its own jobs, concurrency, rates and shard unless given again.
    const restored = resumed ? resumedScale(resumed, o.scale, o.jobs) : { scale: o.scale, jobs: o.jobs };
    const jobs = positive('jobs', restored.jobs, 1, 64);
    const scaleAsked = restored.scale;
    // A suite file the door allowed: the user's own cases; a resumed run reads the file it was started with.
    const recordedFile = resumed?.args['suiteFile'];
    const suiteFile: SuiteFile | undefined =
      typeof recordedFile === 'string' && o.reopen
        ? o.reopen.suiteFile(recordedFile)
        : !resumed && o.suite?.kind === 'file'
          ? o.suite.file
          : undefined;
    const suite = suiteFile ? loadSuiteFile(suiteFile) : findSuite(plan.suiteId);
    if (!suite) throw new EvalInputError('unknown-suite', `unknown suite "${plan.suiteId}"; suites: ${suiteIds().join(', ')}`);
    plan.workflow ||= o.workflow ?? suite.defaultWorkflow;
    if ((plan.workflow !== PER_CASE || !suite.caseWorkflow) && !suite.ownWorkflows?.[plan.workflow]) checkWorkflow(plan.workflow);
    checkModel(plan.model);
    // A workflow that calls no model is recorded under its own name, never the model it was given.
    const baseline = baselineOf(plan.workflow);
    // The oracle follows a built-in suite's plan for each case; a suite file's cases have goals, not plans.
    if (suiteFile && String(plan.model) === 'oracle')
      throw new EvalInputError(
        'unknown-model',
        `--model oracle has no plan for a suite file's cases (${suite.id}): run a model, a scripted one (scripted:FILE) or a floor (floor:noop)`,
      );
    // Off the suite's protocol only when asked; a resumed run keeps what it was started as.
    const offAllowed = resumed ? isOffProtocol(resumed) : o.offProtocol === true;
    const offWorkflow = offProtocolReason(suite, plan.workflow);
    if (offWorkflow && !offAllowed) throw new EvalInputError('off-protocol', offWorkflow);
    // A resumed run keeps its judge (recorded with the run) unless told otherwise.
    const recordedJudge = resumed?.args['judge'];
    const judge = o.judge ?? (typeof recordedJudge === 'string' && o.reopen ? o.reopen.model(recordedJudge, '--judge') : undefined);
    if (judge !== undefined) checkJudge(judge);
    // A judge is asked only where the suite has free text to judge: elsewhere it would be accepted and never asked.
    if (o.judge !== undefined && !suite.judge)
      throw new EvalInputError(
        'bad-option',
        `--judge: suite ${suite.id} has no free-text answer to judge (${SUITES.filter((s) => s.judge)
          .map((s) => s.id)
          .join(', ')} has); leave --judge out`,
      );
    if (!Number.isInteger(plan.seed) || plan.seed < 0)
      throw new EvalInputError('bad-option', `--seed must be a whole number ≥ 0, got ${plan.seed}`);
    // The noise and limits applied are those recorded: a resumed run keeps its own.
    const noise = resumed ? recordedNoise(resumed.args) : o.noise === undefined ? undefined : checkNoise(o.noise);
    const limits = resumed ? recordedLimits(resumed.args) : o.limits;

    // ---- the cases
    const loaded = suiteFile
      ? { cases: await generateCases(suite), generatedMs: null }
      : await loadCases(suite, { ...(o.cacheDir ? { cacheDir: o.cacheDir } : {}), onProgress: log });
    let cases: EvalCase[] = filterCases(loaded.cases, resumed ? (resumed.args['filter'] as string | undefined) : o.filter);
    const sample = resumed ? (resumed.args['sample'] as number | undefined) : o.sample;
    if (sample !== undefined) cases = sampleCases(cases, positive('sample', sample, 1, 100_000), plan.seed, suite.report.categoryAxis);
    if (cases.length === 0) {
      throw new EvalInputError(
        'no-cases',
        `no ${suite.id} case matches --filter "${o.filter ?? ''}"; case ids look like ${loaded.cases[0]?.id ?? '(none)'}`,
      );
    }
    const offReason = offProtocolReason(suite, plan.workflow, cases);
    const off = Boolean(offReason) && offAllowed;
    if (offReason && !off) throw new EvalInputError('off-protocol', offReason);

    // ---- the run's identity: its content, hashed; an id used before for other content is refused
    const shard = scaleAsked?.shard;
    const filter = resumed ? (resumed.args['filter'] as string | undefined) : o.filter;
    const content: RunContent = {
      suite: suite.id,
      suiteVersion: suiteFile ? casesHash(loaded.cases) : casesSourceKey(plan.suiteId),
      // The hash of the sources its suite's scores come from (a suite file's: the file suites' code).
      scorer: scorerVersion(suiteFile ? 'file' : suite.id),
      filter: filter ?? null,
      sample: sample ?? null,
      shard: shard ? `${shard.index}/${shard.count}` : null,
      model: baseline ?? plan.model,
      workflow: plan.workflow,
      seed: plan.seed,
      trials: plan.trials,
      noise: contentNoise(noise),
      limits: limits ?? null,
      judge: judge ?? null,
      offProtocol: off,
      ...(o.robot ? { robot: robotIdentity(o.robot) } : {}),
    };
    const identity = contentHash(content);
    const was = resumed ? recordedContent(resumed.args) : undefined;
    const changed = was && contentDifference(was, content);
    if (resumed && changed)
      throw new EvalInputError('resume-mismatch', `run ${resumed.runId} cannot go on as it was started: ${changed}; start a new run`);
    const runId = resumed?.runId ?? scaleAsked?.runId ?? newRunId(suite.id);
    if (!resumed) refuseReuse(db, runId, content);
    await scaleAsked?.claim?.(runId, content);

    // ---- the run
    const run =
      resumed ??
      db.startRun({
        suite: suite.id,
        model: baseline ?? plan.model,
        workflow: plan.workflow,
        variant: markedVariant(suite.variant?.(plan.workflow) ?? null, plan.workflow, off),
        seed: plan.seed,
        trials: plan.trials,
        commit: gitCommit(),
        args: {
          ...Object.fromEntries(Object.entries(o.args ?? {}).filter(([k]) => k !== 'noise')),
          ...(noise ? { noise } : {}),
          ...(limits ? { limits } : {}),
          ...(baseline ? { modelSpec: plan.model } : {}),
          ...(suiteFile ? { suiteFile } : { casesKey: casesSourceKey(plan.suiteId) }),
          scorer: scorerVersion(suite.id),
          ...(o.filter ? { filter: o.filter } : {}),
          ...(sample !== undefined ? { sample } : {}),
          ...(judge ? { judge } : {}),
          ...(off ? { offProtocol: true } : {}),
          jobs,
          ...(scaleAsked?.concurrency !== undefined ? { concurrency: scaleAsked.concurrency } : {}),
          ...(scaleAsked?.rpm !== undefined ? { rpm: scaleAsked.rpm } : {}),
          ...(scaleAsked?.tpm !== undefined ? { tpm: scaleAsked.tpm } : {}),
          ...(content.shard ? { shard: content.shard } : {}),
          identity: content,
          identityHash: identity,
        },
        runId,
      });
    if (resumed) db.resumeRun(run.runId);
    const scale = startScale(scaleAsked, jobs, plan.model);
    const planned: Array<CaseTrial & { c: EvalCase }> = [];
    for (let trial = 1; trial <= plan.trials; trial++) {
      // Cases of one world together: a thread builds each world once.
      const byWorld = [...cases].sort((a, b) => (a.world.key < b.world.key ? -1 : a.world.key > b.world.key ? 1 : 0));
      for (const c of byWorld) if (scale.mine(c.id, trial)) planned.push({ caseId: c.id, trial, c });
    }
    const recorded = db.results(run.runId);
    // Only a scored pair is kept: an error (its outcome unknown), a stopped and a missing one run (again).
    const errored = new Set(recorded.filter((r) => r.status === 'error').map((r) => doneKey(r.caseId, r.trial)));
    const items = toRun(planned, recorded)
      .filter((p) => !o.errorsOnly || errored.has(doneKey(p.caseId, p.trial)))
      .map((p) => ({ c: p.c, trial: p.trial }));
    const init: WorkerInit = {
      suite: suite.id,
      identity,
      workflow: plan.workflow,
      model: plan.model,
      seed: plan.seed,
      traceDir: path.resolve(path.dirname(db.file), 'traces', run.runId),
      ...(suiteFile ? { suiteFile } : {}),
      env: o.env ?? { ...process.env },
      files: o.files,
      ...(limits ? { limits } : {}),
      ...(noise ? { noise } : {}),
      ...(o.robot ? { robot: o.robot } : {}),
      ...(judge ? { judge } : {}),
      ...(o.responseCache ? { responseCache: path.resolve(o.responseCache) } : {}),
      ...scale.init,
    };

    // ---- progress over everything the run holds (a resumed run starts from what it has)
    const plannedKeys = new Set(planned.map((p) => `${p.caseId}#${p.trial}`));
    const prior = recorded.filter((r) => r.status === 'ok' && plannedKeys.has(`${r.caseId}#${r.trial}`));
    const total = prior.length + items.length;
    let finished = prior.length;
    let errors = 0;
    let stopped = 0;
    let scoreSum = prior.reduce((s, r) => s + (r.score ?? 0), 0);
    let scored = prior.length;
    const t0 = performance.now();
    const timings: CaseTiming[] = [];
    let thisRun = 0;
    let recordMs = 0;
    const progress = (last?: EvalProgress['last']) => {
      const elapsedMs = performance.now() - t0;
      const rate = thisRun > 0 ? elapsedMs / thisRun : null;
      o.onProgress?.({
        runId: run.runId,
        suite: suite.id,
        total,
        done: finished,
        errors,
        stopped,
        score: scored ? scoreSum / scored : null,
        elapsedMs,
        etaMs: rate === null ? null : rate * (total - finished),
        ...(last ? { last } : {}),
      });
    };
    progress();

    // ---- run them
    const slots: Slot[] = [];
    let interrupted = o.signal?.aborted ?? false;
    const onAbort = () => {
      interrupted = true;
      for (const s of slots) s.stop();
    };
    o.signal?.addEventListener('abort', onAbort, { once: true });
    try {
      const n = Math.min(jobs, Math.max(1, items.length));
      if (scaleAsked?.slots) slots.push(...(await scaleAsked.slots(init, run.runId)));
      else if (jobs === 1 && o.inline !== false) slots.push(inlineSlot(init));
      else for (let i = 0; i < n; i++) slots.push(await workerSlot(init, log));
      const queue = [...items];
      const take = (slot: Slot) => {
        // Prefer a case whose world this slot has built; else start the world with most cases left.
        let i = queue.findIndex((x) => slot.built.has(x.c.world.key));
        if (i < 0) {
          const left = new Map<string, number>();
          for (const x of queue) left.set(x.c.world.key, (left.get(x.c.world.key) ?? 0) + 1);
          const claimed = new Set(slots.filter((s) => s !== slot).flatMap((s) => [...s.built]));
          const best = [...left.entries()].sort((a, b) => Number(claimed.has(a[0])) - Number(claimed.has(b[0])) || b[1] - a[1])[0];
          i = best ? queue.findIndex((x) => x.c.world.key === best[0]) : -1;
        }
        return i < 0 ? undefined : queue.splice(i, 1)[0];
      };
      const record = (r: ResultInput, timing: CaseTiming) => {
        const tr = performance.now();
        let rec = scale.priced(r);
        try {
          db.record(run.runId, rec);
        } catch (e) {
          rec = {
            caseId: r.caseId,
            trial: r.trial,
            status: 'error',
            labels: r.labels ?? {},
            error: `result not recordable: ${(e as Error).message}`,
            errorKind: 'unrecordable',
          };
          db.record(run.runId, rec);
        }
        recordMs += performance.now() - tr;
        if (rec.status === 'stopped') stopped++;
        else {
          finished++;
          thisRun++;
          timings.push(timing);
          if (rec.status === 'error') errors++;
          else {
            scoreSum += rec.score ?? 0;
            scored++;
          }
        }
        progress({ caseId: rec.caseId, trial: rec.trial ?? 1, status: rec.status, score: rec.score ?? null, error: rec.error ?? null });
      };
      // Each slot runs `capacity` cases at once (--concurrency), each lane one after another.
      await Promise.all(
        slots.flatMap((slot) =>
          Array.from({ length: slot.capacity }, async () => {
            // The next case starts before this one's row is written: the worker is not kept waiting for the disk.
            const next = () => {
              const item = interrupted ? undefined : take(slot);
              return item ? scale.track(slot.run(item.c, item.trial)) : undefined;
            };
            let running = next();
            while (running) {
              const { record: r, timing } = await running;
              running = next();
              record(r, timing);
            }
          }),
        ),
      );
    } finally {
      o.signal?.removeEventListener('abort', onAbort);
      await Promise.all(slots.map((s) => s.close()));
      scale.stop();
    }
    const status = interrupted ? 'stopped' : 'finished';
    const final = db.finishRun(
      run.runId,
      status,
      interrupted ? `stopped after ${finished} of ${total} case × trials; continue with --resume ${run.runId}` : null,
    );
    const results = db.results(run.runId);
    const summary = summarize(final, results, suite.report, db.file);
    const mean = (f: (t: CaseTiming) => number) => (timings.length ? timings.reduce((s, t) => s + f(t), 0) / timings.length : 0);
    const builds = timings.filter((t) => t.buildMs > 0);
    return {
      summary,
      run: final,
      counts: tally(planned, results),
      interrupted,
      timings: {
        cases: timings.length,
        meanTotalMs: mean((t) => t.totalMs),
        meanOverheadMs: mean((t) => t.overheadMs),
        meanRecordMs: timings.length ? recordMs / timings.length : 0,
        meanRestoreMs: mean((t) => t.restoreMs),
        meanModelMs: mean((t) => t.modelMs),
        meanToolMs: mean((t) => t.toolMs),
        worldBuilds: builds.length,
        worldBuildMs: builds.reduce((s, t) => s + t.buildMs, 0),
        generatedMs: loaded.generatedMs,
        scale: scale.figures,
      },
    };
  } finally {
    db.close();
  }
}
