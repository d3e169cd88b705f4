// What a run is asked for, checked before anything starts: counts in range, a
// known workflow, a model spec the runner can build (the reference policies
// included), a judge that is a model of the user's own, and the turn bounds a
// resumed run was started with.
import { ModelError } from '../../agents/models/model';
import { validateModelSpec } from '../../agents/models/spec';
import { WORKFLOWS } from '../../agents/workflows';
import type { ModelSpec } from '../../base/host-refs';
import { referenceModelFactories } from '../reference/factories';
import { EvalInputError } from './errors';
import { PACKAGE_VERSION } from '../results/index';
import { casesSourceKey, scorerVersion } from './cases';

export type TurnLimits = { timeLimitS?: number; maxIterations?: number } | undefined;

/** The turn bounds a run was started with: recorded as `limits`, or (older runs) as the command line's flags. */
export function recordedLimits(args: Record<string, unknown>): TurnLimits {
  const l = args['limits'];
  const num = (v: unknown) =>
    typeof v === 'number' && Number.isFinite(v)
      ? v
      : typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v))
        ? Number(v)
        : undefined;
  const src =
    l && typeof l === 'object' ? (l as Record<string, unknown>) : { timeLimitS: args['time-limit'], maxIterations: args['max-iterations'] };
  const timeLimitS = num(src['timeLimitS']);
  const maxIterations = num(src['maxIterations']);
  return timeLimitS === undefined && maxIterations === undefined
    ? undefined
    : { ...(timeLimitS !== undefined ? { timeLimitS } : {}), ...(maxIterations !== undefined ? { maxIterations } : {}) };
}

export function positive(name: string, v: number | undefined, fallback: number, max = 1000): number {
  const n = v ?? fallback;
  if (!Number.isInteger(n) || n < 1 || n > max)
    throw new EvalInputError('bad-option', `--${name} must be a whole number from 1 to ${max}, got ${v}`);
  return n;
}

/** A judge is a model of the user's own: the reference policies cannot judge. */
export function checkJudge(judge: ModelSpec): void {
  try {
    validateModelSpec(judge);
  } catch (e) {
    if (e instanceof ModelError) throw new EvalInputError('unknown-model', `--judge: ${e.message}`);
    throw e;
  }
}

export function checkModel(model: ModelSpec): void {
  try {
    validateModelSpec(model, referenceModelFactories());
  } catch (e) {
    if (e instanceof ModelError) throw new EvalInputError('unknown-model', e.message);
    throw e;
  }
}

/** The name a model-free workflow's runs are recorded under (WorkflowInfo.noModel), or undefined when it calls a model. */
export function baselineOf(workflow: string): string | undefined {
  return WORKFLOWS.find((w) => w.id === workflow)?.noModel;
}

export function checkWorkflow(id: string): void {
  if (!WORKFLOWS.some((w) => w.id === id)) {
    throw new EvalInputError('unknown-workflow', `unknown workflow "${id}"; workflows: ${WORKFLOWS.map((w) => w.id).join(', ')}`);
  }
}

/** A resumed run's trials are comparable only when made by the same release, cases and scorer. */
export function checkSameCode(resumed: { runId: string; suite: string; packageVersion: string; args: Record<string, unknown> }): void {
  if (resumed.packageVersion !== PACKAGE_VERSION) {
    throw new EvalInputError(
      'resume-mismatch',
      `run ${resumed.runId} was recorded by skillbridge ${resumed.packageVersion}, this is ${PACKAGE_VERSION}: its cases may differ; start a new run`,
    );
  }
  const key = resumed.args['casesKey'];
  if (typeof key === 'string' && key !== casesSourceKey(resumed.suite)) {
    throw new EvalInputError(
      'resume-mismatch',
      `run ${resumed.runId} was recorded with other scenes or code (cases ${key}, now ${casesSourceKey(resumed.suite)}): its cases may differ; start a new run`,
    );
  }
  const scorer = resumed.args['scorer'];
  if (typeof scorer === 'string' && scorer !== scorerVersion(resumed.suite)) {
    throw new EvalInputError(
      'resume-mismatch',
      `run ${resumed.runId} was scored by another version of the ${resumed.suite} scorer (${scorer}, now ${scorerVersion(resumed.suite)}): its trials would not be comparable; start a new run`,
    );
  }
}
