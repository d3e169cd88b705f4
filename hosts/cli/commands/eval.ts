// skillbridge eval: runs a suite's cases against a model through a workflow and
// records every case × trial in the results database. A live progress bar on
// stderr (counts, running score, ETA); Ctrl-C stops cleanly (the run can go on
// with --resume RUN), a second Ctrl-C quits at once.
import cliProgress from 'cli-progress';
import { withInterval } from '../../../eval/report/index';
import { type EvalProgress, type EvalResult, runEval } from '../../../eval/runner/runner';
import { type Parsed, UsageError, intFlag, numberFlag, stringFlag } from '../args';
import { type Output, json } from '../output';
import { queueScale, scaleLine } from './scale-eval';
import { TERMINAL } from '../../service/host-policy';

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
    db: s.db,
    cases: s.cases,
    errors: s.errors,
    score: s.score,
    interval: s.interval,
    metrics: s.metrics,
    intervals: s.intervals,
    seconds: s.seconds,
  };
}

export async function evalCommand(p: Parsed, o: Output): Promise<number> {
  if (p.positionals.length)
    throw new UsageError(`eval takes no positional arguments, got "${p.positionals.join(' ')}"; use --suite and --model`);
  // A suite scores each case from the simulated world's physics (its ground truth)
  // and starts it from a world the runner builds; a real robot offers neither.
  if (p.flags['robot'] !== undefined || p.flags['shadow'] !== undefined)
    throw new UsageError(
      "eval runs each case in a simulated world it builds and scores it from that world's physics; a real robot (--robot) " +
        "can neither be put into a case's starting state nor read for ground truth. Measure the workflow here, then try it on " +
        'the robot with "skillbridge run --robot URL"',
    );
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
    } else if (!asJson && (pr.done === pr.total || performance.now() - lastLine > 5000)) {
      // Without a terminal (CI logs): a line every few seconds.
      lastLine = performance.now();
      o.err(`${pr.done}/${pr.total} cases, score ${payload.score}, ${pr.errors} errors, ETA ${payload.remaining}`);
    }
    if (pr.last?.status === 'error' && !asJson) {
      const line = `  ${pr.last.caseId}: error: ${pr.last.error ?? ''}`;
      if (bar) bar.stop();
      o.err(line);
      if (bar) bar.start(pr.total, pr.done, payload);
    }
  };
  const timeLimit = p.flags['time-limit'] === undefined ? undefined : numberFlag(p.flags, 'time-limit', 0);
  const maxIterations = optionalInt(p, 'max-iterations');
  let r: EvalResult;
  try {
    const suite = stringFlag(p.flags, 'suite');
    const model = stringFlag(p.flags, 'model');
    const workflow = stringFlag(p.flags, 'workflow');
    const filter = stringFlag(p.flags, 'filter');
    const resume = stringFlag(p.flags, 'resume');
    const out = stringFlag(p.flags, 'out');
    const trials = optionalInt(p, 'trials');
    const jobs = optionalInt(p, 'jobs');
    const seed = optionalInt(p, 'seed');
    const sample = optionalInt(p, 'sample');
    const judge = stringFlag(p.flags, 'judge');
    const scale = await queueScale(p);
    // What the person typed, parsed by the command line's policy (a suite may be a file, a script any file).
    r = await runEval({
      scale,
      ...(suite ? { suite: TERMINAL.suite(suite) } : {}),
      ...(model ? { model: TERMINAL.model(model) } : {}),
      ...(workflow ? { workflow } : {}),
      ...(filter ? { filter } : {}),
      ...(resume ? { resume: TERMINAL.runId(resume) } : {}),
      files: TERMINAL.files(),
      reopen: TERMINAL,
      ...(out ? { outDir: out } : {}),
      ...(trials !== undefined ? { trials } : {}),
      ...(jobs !== undefined ? { jobs } : {}),
      ...(seed !== undefined ? { seed } : {}),
      ...(sample !== undefined ? { sample } : {}),
      ...(judge ? { judge: TERMINAL.model(judge, '--judge') } : {}),
      ...(p.flags['off-protocol'] ? { offProtocol: true } : {}),
      ...(timeLimit !== undefined || maxIterations !== undefined
        ? {
            limits: {
              ...(timeLimit !== undefined ? { timeLimitS: timeLimit } : {}),
              ...(maxIterations !== undefined ? { maxIterations } : {}),
            },
          }
        : {}),
      env: process.env,
      signal: ac.signal,
      onProgress,
      onLog: (l) => {
        if (!asJson) o.err(l);
      },
      args: Object.fromEntries(Object.entries(p.flags).filter(([k]) => k !== 'json')),
    });
  } finally {
    bar?.stop();
    process.off('SIGINT', onSigint);
  }
  if (asJson) {
    json(o, evalJson(r));
    return r.interrupted ? 130 : 0;
  }
  const s = r.summary;
  const passK = Object.keys(s.metrics).filter((k) => k.startsWith('pass^'));
  const pk = passK.length ? `, ${passK.map((k) => `${k} ${s.metrics[k]?.toFixed(2) ?? '–'}`).join(', ')}` : '';
  const score = withInterval(s.score === null ? '–' : s.score.toFixed(3), s.interval, (v) => v.toFixed(3));
  o.out(`${s.suite}  ${s.runId}  ${s.variant ?? s.workflow} · ${s.model}: score ${score} over ${s.cases} cases, ${s.errors} errors${pk}`);
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
  if (r.interrupted) o.out(`  stopped: continue with "skillbridge eval --resume ${s.runId}${dir ? ` --out ${dir}` : ''}"`);
  else o.out(`  report: skillbridge report ${s.runId}${dir ? ` --db ${dir}` : ''}`);
  return r.interrupted ? 130 : 0;
}
