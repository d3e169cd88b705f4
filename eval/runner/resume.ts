// What a resumed run runs with: everything it was started with. An option given
// again must equal the recorded one (a different value would be ignored, so it is
// refused); the scale settings (--jobs, --concurrency, --rpm, --tpm, the shard)
// come back as recorded unless given again, so a resumed run runs as fast and
// over the same share of cases as it started.
import { isOffProtocol } from '../core/protocol';
import type { ResultsDb, RunRecord } from '../results/index';
import type { ModelSpec, ResumeRefs, RunId } from '../../base/host-refs';
import type { NoiseOptions } from '../../sim/world/types';
import type { ScaleOptions, Shard } from '../scale/runner-hook';
import { type RunContent, contentDifference, recordedContent } from '../results/identity';
import { EvalInputError } from './errors';
import { checkSameCode, recordedLimits } from './inputs';
import { checkNoise, noiseClash, recordedNoise } from './noise';
import { startedWith } from '../results/baseline';

export interface Plan {
  suiteId: string;
  model: ModelSpec;
  workflow: string;
  seed: number;
  trials: number;
}

/** The options a resume is checked against (runner.ts EvalOptions). */
export interface ResumeAsked {
  resume: RunId;
  reopen?: ResumeRefs;
  model?: ModelSpec;
  workflow?: string;
  seed?: number;
  trials?: number;
  filter?: string;
  sample?: number;
  offProtocol?: boolean;
  limits?: { timeLimitS?: number; maxIterations?: number };
  noise?: Partial<NoiseOptions>;
}

/** The resumed run and its plan, or a one-line refusal naming the option that differs. */
export function resumePlan(o: ResumeAsked, db: ResultsDb, suiteGiven: string | undefined): { resumed: RunRecord; plan: Plan } {
  if (!o.reopen) throw new EvalInputError('bad-option', 'this host does not resume runs; start a new one');
  const resumed = db.requireRun(o.resume);
  const clash = (name: string, given: string | number | undefined, was: string | number) => {
    if (given !== undefined && given !== was)
      throw new EvalInputError(
        'resume-mismatch',
        `run ${resumed.runId} was started with --${name} ${was}, not ${given}; leave --${name} out to resume it, or start a new run`,
      );
  };
  clash('suite', suiteGiven, resumed.suite);
  clash('model', o.model, startedWith(resumed));
  clash('workflow', o.workflow, resumed.workflow);
  clash('seed', o.seed, resumed.seed);
  clash('trials', o.trials, resumed.trials);
  // What the run was started with is what its remaining cases run with: a different value would be ignored, so it is refused.
  const recorded = resumed.args;
  const text = (v: unknown) => (v === undefined ? 'none' : String(v));
  const kept = (name: string, given: unknown, was: unknown) => {
    if (given !== undefined && JSON.stringify(given) !== JSON.stringify(was))
      throw new EvalInputError(
        'resume-mismatch',
        `run ${resumed.runId} was started with --${name} ${text(was)}, not ${text(given)}; leave --${name} out to resume it, or start a new run`,
      );
  };
  kept('filter', o.filter, recorded['filter']);
  kept('sample', o.sample, recorded['sample']);
  if (o.offProtocol !== undefined && o.offProtocol !== isOffProtocol(resumed))
    throw new EvalInputError(
      'resume-mismatch',
      `run ${resumed.runId} was started ${isOffProtocol(resumed) ? 'off' : 'on'} its suite's protocol; leave --off-protocol out to resume it`,
    );
  const wasLimits = recordedLimits(recorded);
  kept('time-limit', o.limits?.timeLimitS, wasLimits?.timeLimitS);
  kept('max-iterations', o.limits?.maxIterations, wasLimits?.maxIterations);
  const was = recordedNoise(resumed.args);
  if (o.noise !== undefined && noiseClash(checkNoise(o.noise), was))
    throw new EvalInputError(
      'resume-mismatch',
      `run ${resumed.runId} was started with ${was ? `--noise ${JSON.stringify(was)}` : 'no --noise'}; leave --noise out to resume it, or start a new run`,
    );
  checkSameCode(resumed);
  const plan: Plan = {
    suiteId: resumed.suite,
    model: o.reopen.model(startedWith(resumed), "the resumed run's model"),
    workflow: resumed.workflow,
    seed: resumed.seed,
    trials: resumed.trials,
  };
  return { resumed, plan };
}

const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);

/** The shard a run recorded ("K/N"), or undefined. */
export function recordedShard(args: Record<string, unknown>): Shard | undefined {
  const m = typeof args['shard'] === 'string' ? /^(\d+)\/(\d+)$/.exec(args['shard']) : null;
  return m ? { index: Number(m[1]), count: Number(m[2]) } : undefined;
}

/** The resumed run's scale settings: each as given again, else as recorded; a shard other than the run's is refused. */
export function resumedScale(
  run: RunRecord,
  given: ScaleOptions | undefined,
  jobs: number | undefined,
): { scale: ScaleOptions; jobs: number | undefined } {
  const a = run.args;
  const shard = recordedShard(a);
  const g = given?.shard;
  if (g && (!shard || g.index !== shard.index || g.count !== shard.count))
    throw new EvalInputError(
      'resume-mismatch',
      `run ${run.runId} was started ${shard ? `as --shard ${shard.index}/${shard.count}` : 'without --shard'}, not --shard ${g.index}/${g.count}; leave --shard out to resume it`,
    );
  // The queue's workers decide how many cases run at once: a queued run's concurrency is theirs.
  const local = !given?.slots;
  const concurrency = given?.concurrency ?? (local ? num(a['concurrency']) : undefined);
  const rpm = given?.rpm ?? (local ? num(a['rpm']) : undefined);
  const tpm = given?.tpm ?? (local ? num(a['tpm']) : undefined);
  return {
    scale: {
      ...given,
      ...(concurrency !== undefined ? { concurrency } : {}),
      ...(rpm !== undefined ? { rpm } : {}),
      ...(tpm !== undefined ? { tpm } : {}),
      ...(shard ? { shard } : {}),
    },
    jobs: jobs ?? num(a['jobs']),
  };
}

/**
 * A new run under an id the results folder already holds is refused in one line:
 * naming what differs when the content is another's, or saying how to continue it.
 */
export function refuseReuse(db: ResultsDb, runId: string, content: RunContent): void {
  const known = db.run(runId);
  if (!known) return;
  const was = recordedContent(known.args);
  const diff = was ? contentDifference(was, content) : undefined;
  if (diff)
    throw new EvalInputError(
      'run-id-reused',
      `run id "${runId}" is already a run in ${db.file} with other content (${diff}); choose another --run-id, or continue that run with --resume ${runId}`,
    );
  throw new EvalInputError(
    'run-id-reused',
    `run "${runId}" is already in ${db.file}; continue it with --resume ${runId} (its scored case × trials are kept), or choose another --run-id`,
  );
}
