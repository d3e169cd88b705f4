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

export function checkWorkflow(id: string): void {
  if (!WORKFLOWS.some((w) => w.id === id)) {
    throw new EvalInputError('unknown-workflow', `unknown workflow "${id}"; workflows: ${WORKFLOWS.map((w) => w.id).join(', ')}`);
  }
}
