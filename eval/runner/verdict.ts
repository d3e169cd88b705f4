// What a finished case comes to: a score, or an error whose outcome is unknown.
// A case whose model could not be reached (refused, a name that does not resolve,
// a timeout, a 5xx or 429 after the adapter's retries, a refused key) never showed
// what the model would do, and a scorer that gives no headline value did not
// decide: neither is a 0. Each becomes an error naming its kind and cause, left
// out of the means, counted apart and run again by --resume.
import type { ModelErrorKind } from '../../agents/models/model';
import type { FlowEvent } from '../../agents/runtime/events';
import type { FlowResult } from '../../agents/runtime/flow/run-flow';
import { headlineScore, type SuiteReportSpec } from '../report/spec';
import type { ErrorKind } from '../results/index';

/** Why a case has no score. */
export interface Unscored {
  kind: ErrorKind;
  why: string;
}

const BY_MODEL_KIND: Record<ModelErrorKind, ErrorKind> = {
  unreachable: 'model-unreachable',
  timeout: 'model-timeout',
  server: 'model-server',
  rate_limit: 'model-rate-limit',
  auth: 'model-auth',
  bad_response: 'model-bad-response',
  config: 'model-config',
  // Aborted while the case itself was not stopped: the model call ended without telling why.
  aborted: 'model-failed',
};

/** The error kind of a model failure (a ModelError's kind; undefined or unknown: "model-failed"). */
export function modelErrorKind(kind: string | undefined): ErrorKind {
  return kind !== undefined && Object.hasOwn(BY_MODEL_KIND, kind) ? BY_MODEL_KIND[kind as ModelErrorKind] : 'model-failed';
}

/** A retry's reason (openai-errors.ts) as the kind of failure it was retrying. */
function retryKind(reason: string): ErrorKind {
  if (/connection failed/i.test(reason)) return 'model-unreachable';
  if (/429|rate/i.test(reason)) return 'model-rate-limit';
  if (/timeout/i.test(reason)) return 'model-timeout';
  if (/server|dropped|stream|\b5\d\d\b/i.test(reason)) return 'model-server';
  return 'model-failed';
}

const clip = (s: string) => s.replace(/\s+/g, ' ').trim().slice(0, 500) || 'no message';

/**
 * Why the turn did not show what the model would do, or undefined when every model
 * call it made was answered: a flow that ended on a model error, a workflow that threw,
 * a workflow that gave up on a failed model call, or a time limit that ran out while
 * the adapter was still retrying a failing server.
 */
export function modelFailure(events: readonly FlowEvent[], turn?: Pick<FlowResult, 'reason' | 'error'>): Unscored | undefined {
  for (const e of events) {
    if (e.type !== 'error') continue;
    if (e.where === 'model' || e.where === 'classify') return { kind: modelErrorKind(e.kind), why: clip(e.message) };
    if (e.where === 'workflow') return { kind: 'crash', why: `the workflow failed: ${clip(e.message)}` };
  }
  if (turn?.reason === 'model_error')
    return { kind: modelErrorKind(turn.error?.kind), why: clip(turn.error?.message ?? 'a model call failed') };
  // A flow cut by its time limit while its model call was being retried: the server was failing, not the model slow.
  const pending = new Map<string, Extract<FlowEvent, { type: 'retry' }>>();
  for (const e of events) {
    if (e.type === 'retry') pending.set(e.stage, e);
    else if (e.type === 'assistant' || e.type === 'route') pending.delete(e.stage);
    else if (e.type === 'end') {
      const r = pending.get(e.stage);
      pending.delete(e.stage);
      if (r && e.reason === 'time_limit')
        return {
          kind: retryKind(r.reason),
          why: `the time limit ran out while the model's server was failing (retry ${r.attempt}: ${clip(r.reason)})`,
        };
    }
  }
  return undefined;
}

/** The case's 0–1 score from the scorer's metrics, or why the scorer did not decide. */
export function caseScore(spec: SuiteReportSpec, metrics: Record<string, number | boolean | null | undefined>): number | Unscored {
  const score = headlineScore(spec, metrics);
  if (score !== undefined && Number.isFinite(score)) return score;
  const ids = [spec.headline.caseMetric ?? spec.headline.metric, ...(spec.caseScoreFallback ?? [])];
  const keys = ids.map((id) => spec.metrics[id]?.key ?? id);
  return { kind: 'scorer-undecided', why: `the scorer gave no value for ${keys.join(' or ')}` };
}

export const isUnscored = (x: number | Unscored): x is Unscored => typeof x !== 'number';
