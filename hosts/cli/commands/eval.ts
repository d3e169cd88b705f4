// skillbridge eval: runs a suite's cases against a model through a workflow and
// records every case × trial in the results database. A live progress bar on
// stderr (counts, running score, ETA); Ctrl-C stops cleanly (the run can go on
// with --resume RUN), a second Ctrl-C quits at once. A case whose outcome is
// unknown (an unreachable model, a scorer that did not decide) is an error: the
// summary counts them with the commonest reason, and the exit code is 3
// (eval-exit.ts); --resume RUN runs exactly the errored, stopped and missing ones.
import cliProgress from 'cli-progress';
import { errorsLine, withInterval } from '../../../eval/report/index';
import { runTableLines } from '../../../eval/report/run-table';
import { findSuite } from '../../../eval/suites/index';
import { type EvalOptions, type EvalProgress, type EvalResult, runEval } from '../../../eval/runner/runner';
import { type Parsed, UsageError, intFlag, numberFlag, stringFlag } from '../args';
import { resultsExitCode } from '../eval-exit';
import { parseNoise } from '../noise';
import { type Output, json } from '../output';
import { queueScale, scaleLine } from './scale-eval';
import { TERMINAL } from '../../service/host-policy';
import { urdfRobotForScenes } from '../urdf-flag';

function seconds(ms: number | null): string {
  if (ms === null || !Number.isFinite(ms)) return '–';
  const s = Math.round(ms / 1000);
  return s >= 60 ? `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s` : `${s}s`;
}

function optionalInt(p: Parsed, name: string): number | undefined {
  return p.flags[name] === undefined ? undefined : intFlag(p.flags, name, 0);
}

/** What `eval --json` prints: exactly these keys. */
export function evalJson(r: EvalResult) {
  const s = r.summary;
  return {
    suite: s.suite,
    model: s.model,
    workflow: s.workflow,
    offProtocol: s.offProtocol,
    runId: s.runId,
    /** finished, or stopped (Ctrl-C: continue with --resume RUN). */
    status: r.run.status,
    db: s.db,
    cases: s.cases,
    errors: s.errors,
    errorReasons: s.errorReasons,
    counts: r.counts,
    score: s.score,
    interval: s.interval,
    metrics: s.metrics,
    intervals: s.intervals,
    /** The ids in metrics that are a paper's raw figures (not checked against the gold structure). */
    rawMetrics: s.raw,
    seconds: s.seconds,
  };
}

/** The run's options from the command line (scale and the host's hooks apart); each flag is applied here or refused. */
export function evalOptions(p: Parsed): Omit<EvalOptions, 'scale' | 'env' | 'signal' | 'onProgress' | 'onLog'> {
  if (p.positionals.length)
    throw new UsageError(`eval takes no positional arguments, got "${p.positionals.join(' ')}"; use --suite and --model`);
  // The table of options (command-flags.ts) refused what eval does not take: a real robot, a run id beside --resume,
  // threads beside a queue. A resumed run refuses a filter, sample, noise, limit or protocol other than its own (runner).
  const resume = stringFlag(p.flags, 'resume');
  const timeLimit = p.flags['time-limit'] === undefined ? undefined : numberFlag(p.flags, 'time-limit', 0, { min: 0.001 });
  const maxIterations = p.flags['max-iterations'] === undefined ? undefined : intFlag(p.flags, 'max-iterations', 1, { min: 1 });
  const suite = stringFlag(p.flags, 'suite');
  const model = stringFlag(p.flags, 'model');
  const workflow = stringFlag(p.flags, 'workflow');
  const filter = stringFlag(p.flags, 'filter');
  const out = stringFlag(p.flags, 'out');
  const cache = stringFlag(p.flags, 'cache');
  const trials = optionalInt(p, 'trials');
  const jobs = optionalInt(p, 'jobs');
  const seed = optionalInt(p, 'seed');
  const sample = optionalInt(p, 'sample');
  const judge = stringFlag(p.flags, 'judge');
  const noise = parseNoise(stringFlag(p.flags, 'noise'));
  // --urdf: the described robot in every case's world in place of the scene's own; a robot that cannot be is bad input.
  const robot = urdfRobotForScenes(p.flags);
  // What the person typed, parsed by the command line's policy (a suite may be a file, a script any file).
  return {
    ...(suite !== undefined ? { suite: TERMINAL.suite(suite) } : {}),
    ...(model !== undefined ? { model: TERMINAL.model(model) } : {}),
    ...(workflow !== undefined ? { workflow } : {}),
    ...(filter !== undefined ? { filter } : {}),
    ...(resume !== undefined ? { resume: TERMINAL.runId(resume) } : {}),
    ...(p.flags['errors-only'] ? { errorsOnly: true } : {}),
    ...(cache !== undefined ? { responseCache: cache } : {}),
    files: TERMINAL.files(),
    reopen: TERMINAL,
    ...(out !== undefined ? { outDir: out } : {}),
    ...(trials !== undefined ? { trials } : {}),
    ...(jobs !== undefined ? { jobs } : {}),
    ...(seed !== undefined ? { seed } : {}),
    ...(sample !== undefined ? { sample } : {}),
    ...(judge !== undefined ? { judge: TERMINAL.model(judge, '--judge') } : {}),
    ...(noise ? { noise } : {}),
    ...(p.flags['off-protocol'] ? { offProtocol: true } : {}),
    ...(robot ? { robot } : {}),
    ...(timeLimit !== undefined || maxIterations !== undefined
      ? {
          limits: {
            ...(timeLimit !== undefined ? { timeLimitS: timeLimit } : {}),
            ...(maxIterations !== undefined ? { maxIterations } : {}),
          },
        }
      : {}),
    args: Object.fromEntries(Object.entries(p.flags).filter(([k]) => k !== 'json')),
  };
}

export async function evalCommand(p: Parsed, o: Output): Promise<number> {
  const options = evalOptions(p);
  const asJson = Boolean(p.flags['json']);
  const ac = new AbortController();
  let sigints = 0;
  const onSigint = () => {
    sigints++;
    if (sigints === 1) {
      o.err('\nstopping: the running cases end as "stopped" and the run can be resumed (Ctrl-C again to quit at once)');
      ac.abort();
    } else process.exit(130);
  };
  process.on('SIGINT', onSigint);
  const tty = Boolean(process.stderr.isTTY);
  const bar = tty
    ? new cliProgress.SingleBar(
        {
          stream: process.stderr,
          // Own token names: cli-progress's built-in {eta} and {duration} would override ours.
          format: '{bar} {value}/{total} cases | score {score} | errors {errors} | {spent} elapsed, ETA {remaining} | {last}',
          barsize: 24,
          hideCursor: true,
          clearOnComplete: false,
          etaBuffer: 20,
        },
        cliProgress.Presets.shades_classic,
      )
    : undefined;
  let started = false;
  let lastLine = 0;
  const onProgress = (pr: EvalProgress) => {
    const payload = {
      score: pr.score === null ? '–' : pr.score.toFixed(3),
      errors: pr.errors,
      spent: seconds(pr.elapsedMs),
      remaining: seconds(pr.etaMs),
      last: pr.last
        ? `${pr.last.caseId}${pr.last.trial > 1 ? `#${pr.last.trial}` : ''} ${pr.last.status === 'ok' ? (pr.last.score ?? 0).toFixed(2) : pr.last.status}`
        : '',
    };
    if (bar) {
      if (!started) bar.start(pr.total, pr.done, payload);
      else bar.update(pr.done, payload);
      started = true;
    } else if (pr.done === pr.total || performance.now() - lastLine > 5000) {
      // Without a terminal (CI logs, --json into a file): a line every few seconds on stderr, stdout kept for the answer.
      lastLine = performance.now();
      o.err(`${pr.done}/${pr.total} cases, score ${payload.score}, ${pr.errors} errors, ETA ${payload.remaining}`);
    }
    if (pr.last?.status === 'error') {
      const line = `  ${pr.last.caseId}: error: ${pr.last.error ?? ''}`;
      if (bar) bar.stop();
      o.err(line);
      if (bar) bar.start(pr.total, pr.done, payload);
    }
  };
  let r: EvalResult;
  try {
    const scale = await queueScale(p);
    r = await runEval({
      ...options,
      scale,
      env: process.env,
      signal: ac.signal,
      onProgress,
      onLog: (l) => o.err(l),
    });
  } finally {
    bar?.stop();
    process.off('SIGINT', onSigint);
  }
  const code = resultsExitCode([r.counts], r.interrupted);
  if (asJson) {
    json(o, evalJson(r));
    return code;
  }
  const s = r.summary;
  const passK = Object.keys(s.metrics).filter((k) => k.startsWith('pass^'));
  const pk = passK.length ? `, ${passK.map((k) => `${k} ${s.metrics[k]?.toFixed(2) ?? '–'}`).join(', ')}` : '';
  const score = withInterval(s.score === null ? '–' : s.score.toFixed(3), s.interval, (v) => v.toFixed(3));
  o.out(
    `${s.suite}  ${s.runId}  ${s.variant ?? s.workflow} · ${s.model}: score ${score} over ${s.scored} scored of ${r.counts.planned} case × trials, ${errorsLine(s)}${pk}`,
  );
  const spec = findSuite(s.suite)?.report;
  for (const line of spec ? runTableLines(spec, s) : []) o.out(line);
  const t = r.timings;
  if (t.cases) {
    o.out(
      `  ${t.cases} case × trials in ${seconds((s.seconds ?? 0) * 1000)}: per case ${Math.round(t.meanTotalMs)} ms (model ${Math.round(t.meanModelMs)}, robot ${Math.round(t.meanToolMs)}, harness ${Math.round(t.meanOverheadMs)} + record ${Math.round(t.meanRecordMs)}; restore ${t.meanRestoreMs.toFixed(1)}); ${t.worldBuilds} world builds`,
    );
  }
  const mem = scaleLine(r);
  if (mem) o.out(mem);
  o.out(`  results: ${s.db}`);
  const dir = stringFlag(p.flags, 'out');
  const resumeLine = `skillbridge eval --resume ${s.runId}${dir ? ` --out ${dir}` : ''}`;
  if (r.interrupted) o.out(`  stopped: continue with "${resumeLine}"`);
  else {
    o.out(`  report: skillbridge report ${s.runId}${dir ? ` --db ${dir}` : ''}`);
    const c = r.counts;
    if (c.scored < c.planned)
      o.out(
        `  not scored: ${c.errors} errored, ${c.stopped + c.missing} not run of ${c.planned} (exit 3); run them again with "${resumeLine}"`,
      );
  }
  return code;
}
