// The app's Evaluate view, host side: lists the suites, runs one (a sample of
// its cases, the current model) on an evaluation worker thread so the live view
// keeps stepping, streams progress as { type: 'eval' } events, lists runs and
// cases from the results database, builds the report page, and hands a case to
// the session to replay in the 3D view. What a page names — the suite, the
// model, a run id — reaches here already parsed by the host policy.
import path from 'node:path';
import { AppApiError, type Request, type Response } from '../../contract/api';
import type { EvalCaseRow, EvalRunInfo } from '../../contract/eval';
import type { AppEvent } from '../../contract/schemas';
import type { EvalModel } from './host-policy';
import type { RunId, SuiteRef, TraceImageId } from '../../base/host-refs';
import { readTrace } from '../../agents/runtime/trace';
import { buildReport } from '../../eval/report/html';
import { loadRunsById } from '../../eval/report/load';
import { reportSpecFor } from '../../eval/report/specs';
import { summarize } from '../../eval/report/stats';
import { ResultsError, type RunRecord, openResults } from '../../eval/results/index';
import type { EvalCase } from '../../eval/core/case';
import { EvalInputError } from '../../eval/runner/errors';
import { loadCases } from '../../eval/runner/cases';
import { runEval } from '../../eval/runner/runner';
import { SUITES, findSuite } from '../../eval/suites/index';
import { caseImage, caseReplay } from './case-replay';
import { protocolOf } from '../../eval/core/protocol';
import { redactHostPaths } from './page-errors';
import { readCaseEvidence } from '../../eval/runner/evidence';
import { TEXT_CAP, verdictRows } from '../../eval/report/transcript';

/** startEval as the policy parsed it: a built-in suite, a model with its environment and file grant. */
export type EvalStart = Omit<Request<'startEval'>, 'suite' | 'model'> & { suite: SuiteRef; model: EvalModel };

/** A request naming an evaluated run, its id parsed by the policy. */
export type WithRunId<M extends 'evalCases' | 'evalReport' | 'caseReplay' | 'caseTranscript' | 'replayCase' | 'getCaseImage'> = Omit<
  Request<M>,
  'runId'
> & {
  runId: RunId;
};

/** A results database's answer for a page: an unknown run is the page's mistake, said without the host's paths. */
function resultsAnswer(e: unknown): never {
  if (e instanceof ResultsError) throw new AppApiError('invalid_request', redactHostPaths(e.message));
  throw e;
}

export interface EvalHostOptions {
  /** The results folder (web mode ./eval-results, desktop userData/eval-results). */
  dir: string;
  emit: (e: AppEvent) => void;
  /** Replays a case's recorded calls in its world, built with the run's seed (so it ends where the case ended). */
  replay: (c: EvalCase, calls: Array<{ tool: string; args: unknown }>, seed: number) => Promise<Response<'replayCase'>>;
}

export class EvalHost {
  private running: { runId: string | undefined; ac: AbortController; done: Promise<unknown> } | undefined;

  constructor(private readonly opts: EvalHostOptions) {}

  listSuites(): Response<'listSuites'> {
    return SUITES.map((s) => ({
      id: s.id,
      title: s.title,
      paper: s.paper,
      defaultWorkflow: s.defaultWorkflow,
      // Only the workflows the suite is defined for: the app runs nothing off protocol.
      workflows: [...protocolOf(s).workflows],
    }));
  }

  async startEval(req: EvalStart): Promise<Response<'startEval'>> {
    if (this.running) throw new AppApiError('busy', 'an evaluation is running; stop it first');
    const ac = new AbortController();
    const { spec, env, files } = req.model;
    const suiteId = req.suite.kind === 'builtin' ? req.suite.id : req.suite.given;
    let resolveId: (id: string) => void = () => undefined;
    let rejectStart: (e: Error) => void = () => undefined;
    const started = new Promise<string>((res, rej) => {
      resolveId = res;
      rejectStart = rej;
    });
    const running: { runId: string | undefined; ac: AbortController; done: Promise<unknown> } = {
      runId: undefined,
      ac,
      done: Promise.resolve(),
    };
    this.running = running;
    const emit = this.opts.emit;
    running.done = runEval({
      suite: req.suite,
      model: spec,
      ...(req.workflow ? { workflow: req.workflow } : {}),
      ...(req.sample ? { sample: req.sample } : {}),
      ...(req.trials ? { trials: req.trials } : {}),
      outDir: this.opts.dir,
      env,
      files,
      signal: ac.signal,
      // Always on a worker thread: the session's own thread keeps stepping the live view.
      inline: false,
      args: { from: 'app', ...req, suite: suiteId, model: spec },
      onLog: (text) => emit({ type: 'eval', event: { kind: 'log', text } }),
      onProgress: (p) => {
        if (!running.runId) {
          running.runId = p.runId;
          resolveId(p.runId);
        }
        emit({
          type: 'eval',
          event: {
            kind: 'progress',
            runId: p.runId,
            suite: p.suite,
            total: p.total,
            done: p.done,
            errors: p.errors,
            score: p.score,
            etaMs: p.etaMs,
            ...(p.last ? { last: { caseId: p.last.caseId, status: p.last.status, score: p.last.score } } : {}),
          },
        });
      },
    })
      .then((r) => emit({ type: 'eval', event: { kind: 'ended', run: this.info(r.run, r.summary), error: null } }))
      .catch((e: unknown) => {
        const message = e instanceof Error ? e.message : String(e);
        if (!running.runId) rejectStart(e instanceof EvalInputError ? new AppApiError('invalid_request', message) : new Error(message));
        else
          emit({
            type: 'eval',
            event: {
              kind: 'ended',
              run: {
                runId: running.runId,
                suite: suiteId,
                model: spec,
                workflow: req.workflow ?? '',
                status: 'failed',
                startedAt: '',
                cases: 0,
                errors: 0,
                score: null,
              },
              error: message,
            },
          });
      })
      .finally(() => {
        if (this.running === running) this.running = undefined;
      });
    return { runId: await started };
  }

  stopEval(): Response<'stopEval'> {
    if (!this.running) return { ok: false, message: 'no evaluation is running' };
    this.running.ac.abort();
    return { ok: true, message: 'stopping: the running cases end as "stopped"; the run can be resumed' };
  }

  private info(run: RunRecord, s: { cases: number; errors: number; score: number | null }): EvalRunInfo {
    return {
      runId: run.runId,
      suite: run.suite,
      model: run.model,
      workflow: run.workflow,
      status: run.status,
      startedAt: run.startedAt,
      cases: s.cases,
      errors: s.errors,
      score: s.score,
    };
  }

  listEvalRuns(): Response<'listEvalRuns'> {
    let db;
    try {
      db = openResults(this.opts.dir, { mode: 'read' });
    } catch {
      return [];
    }
    try {
      return db
        .runs()
        .map((run) => this.info(run, summarize(run, db.results(run.runId), reportSpecFor(run.suite), db.file)))
        .reverse();
    } finally {
      db.close();
    }
  }

  private withDb<T>(fn: (db: ReturnType<typeof openResults>) => T): T {
    let db;
    try {
      db = openResults(this.opts.dir, { mode: 'read' });
    } catch (e) {
      return resultsAnswer(e);
    }
    try {
      return fn(db);
    } catch (e) {
      return resultsAnswer(e);
    } finally {
      db.close();
    }
  }

  evalCases(req: WithRunId<'evalCases'>): Response<'evalCases'> {
    return this.withDb((db) => {
      db.requireRun(req.runId);
      return db.results(req.runId).map((r): EvalCaseRow => ({
        caseId: r.caseId,
        trial: r.trial,
        status: r.status,
        score: r.score,
        labels: r.labels,
        error: r.error,
        failureClass: r.failureClass,
        durationMs: r.durationMs,
      }));
    });
  }

  /** One run of this host's results folder, by id (never a path: the folder's other runs and files stay out of it). */
  evalReport(req: WithRunId<'evalReport'>): Response<'evalReport'> {
    let runs;
    try {
      runs = loadRunsById([req.runId], this.opts.dir);
    } catch (e) {
      return resultsAnswer(e);
    }
    const name = `report-${req.runId}.html`;
    return { name, html: buildReport({ runs, outFile: path.join(runs[0]?.dir ?? this.opts.dir, name), evidence: readCaseEvidence }).html };
  }

  /** A case × trial's transcript from its recorded trace in this host's results folder (a row naming a file elsewhere is refused). */
  caseTranscript(req: WithRunId<'caseTranscript'>): Response<'caseTranscript'> {
    const { row, dir } = this.withDb((db) => {
      db.requireRun(req.runId);
      return { row: db.results(req.runId).find((r) => r.caseId === req.caseId && r.trial === req.trial), dir: db.dir };
    });
    if (!row) throw new AppApiError('invalid_request', `run ${req.runId} has no case ${req.caseId} trial ${req.trial}`);
    const head = { caseId: row.caseId, trial: row.trial, status: row.status, score: row.score, verdict: verdictRows(row) };
    if (!row.tracePath) return { ...head, steps: [], problems: ['No trace was recorded for this case.'] };
    const file = path.resolve(dir, row.tracePath);
    if (path.relative(path.resolve(dir), file).startsWith('..'))
      throw new AppApiError('invalid_request', `case ${row.caseId}: its trace is outside the results folder`);
    const ev = readCaseEvidence(file);
    // Long texts are cut as the report cuts them: the trace file keeps the rest.
    const cut = (t: string) =>
      t.length > TEXT_CAP ? `${t.slice(0, TEXT_CAP)}… [${t.length - TEXT_CAP} more characters in the trace file]` : t;
    const steps = ev.entries.map((e) => ({
      kind: e.kind,
      title: e.title,
      ...(e.text !== undefined ? { text: cut(e.text) } : {}),
      ...(e.code !== undefined ? { code: cut(e.code) } : {}),
      ...(e.reasoning !== undefined ? { reasoning: cut(e.reasoning) } : {}),
      ...(e.prior ? { prior: true } : {}),
    }));
    return { ...head, steps, problems: ev.problems };
  }

  async caseReplay(req: WithRunId<'caseReplay'>): Promise<Response<'caseReplay'>> {
    const { run, row, dir } = this.withDb((db) => {
      const run = db.requireRun(req.runId);
      const row = db.results(req.runId).find((r) => r.caseId === req.caseId && r.trial === req.trial);
      return { run, row, dir: db.dir };
    });
    if (!row) throw new AppApiError('invalid_request', `run ${req.runId} has no case ${req.caseId} trial ${req.trial}`);
    return caseReplay(dir, run, row);
  }

  async caseImage(req: WithRunId<'getCaseImage'>, image: TraceImageId): Promise<Response<'getCaseImage'>> {
    const { row, dir } = this.withDb((db) => {
      db.requireRun(req.runId);
      return { row: db.results(req.runId).find((r) => r.caseId === req.caseId && r.trial === req.trial), dir: db.dir };
    });
    if (!row) throw new AppApiError('invalid_request', `run ${req.runId} has no case ${req.caseId} trial ${req.trial}`);
    return caseImage(dir, row, image);
  }

  async replayCase(req: WithRunId<'replayCase'>): Promise<Response<'replayCase'>> {
    const { run, row, dir } = this.withDb((db) => {
      const run = db.requireRun(req.runId);
      const row = db.results(req.runId).find((r) => r.caseId === req.caseId && r.trial === req.trial);
      return { run, row, dir: db.dir };
    });
    if (!row) throw new AppApiError('invalid_request', `run ${req.runId} has no case ${req.caseId} trial ${req.trial}`);
    const suite = findSuite(run.suite);
    if (!suite) throw new AppApiError('invalid_request', `this build has no suite "${run.suite}"`);
    const { cases } = await loadCases(suite, {});
    const c = cases.find((x) => x.id === req.caseId);
    if (!c)
      throw new AppApiError('invalid_request', `case ${req.caseId} is no longer among the ${suite.id} cases (the scenes or code changed)`);
    if (!row.tracePath) return { ok: false, message: 'this case has no trace to replay', calls: 0 };
    const trace = readTrace(path.resolve(dir, row.tracePath));
    const calls = trace.records
      .filter((r): r is Extract<typeof r, { type: 'tool_call' }> => r.type === 'tool_call')
      .map((r) => {
        let args: unknown;
        try {
          args = JSON.parse(r.arguments) as unknown;
        } catch {
          args = r.arguments;
        }
        return { tool: r.name, args };
      });
    return this.opts.replay(c, calls, run.seed);
  }

  async dispose(): Promise<void> {
    this.running?.ac.abort();
    await this.running?.done;
  }
}
