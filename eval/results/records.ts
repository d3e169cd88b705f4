// What goes into the results database and what comes back out, as zod schemas:
// the runner's records are validated on the way in (they may come from a worker
// thread), and every row is validated on the way out (the file may be old or edited).
import { z } from 'zod';

export const RunStatusSchema = z.enum(['running', 'finished', 'stopped', 'failed']);
export type RunStatus = z.infer<typeof RunStatusSchema>;

export const ResultStatusSchema = z.enum(['ok', 'error', 'stopped']);
export type ResultStatus = z.infer<typeof ResultStatusSchema>;

/**
 * Why a case × trial has no score (status "error"): its outcome is unknown, so it
 * is left out of every mean and counted apart, and --resume runs it again.
 */
export const ERROR_KINDS = [
  /** The model's server refused the connection or its name did not resolve. */
  'model-unreachable',
  /** The model's server did not answer in time. */
  'model-timeout',
  /** The server failed (5xx, a dropped stream) after the adapter's retries. */
  'model-server',
  /** Rate limited (429) after the adapter's retries. */
  'model-rate-limit',
  /** The server refused the key (401, 403) or there was none. */
  'model-auth',
  /** The server sent an answer that is not a chat completion. */
  'model-bad-response',
  /** The model spec, its script or the model name does not work (404, 400, a missing file). */
  'model-config',
  /** A model call failed and did not say how. */
  'model-failed',
  /** The thread or process running the case died. */
  'worker-died',
  /** The scorer threw, or gave no value for the headline metric. */
  'scorer-undecided',
  /** The queue gave the case up (its tries used, a result that does not validate). */
  'queue',
  /** rescore: the recorded end state cannot be scored again. */
  'not-rescorable',
  /** The row could not be stored as the case reported it. */
  'unrecordable',
  /** Anything else that ended the case before a score (a workflow's or the harness's exception). */
  'crash',
] as const;
export const ErrorKindSchema = z.enum(ERROR_KINDS);
export type ErrorKind = z.infer<typeof ErrorKindSchema>;

export const HostInfoSchema = z.object({
  platform: z.string(),
  arch: z.string(),
  release: z.string(),
  node: z.string(),
  cpus: z.number().int(),
  cpuModel: z.string(),
  memoryGb: z.number(),
});
export type HostInfo = z.infer<typeof HostInfoSchema>;

const json = z.record(z.string(), z.unknown());

/** Everything needed to reproduce a run, given when it starts. */
export const RunStartSchema = z.object({
  /** Defaults to newRunId(suite). */
  runId: z
    .string()
    .regex(/^[A-Za-z0-9][A-Za-z0-9._:-]*$/, 'letters, digits and . _ : - only')
    .optional(),
  suite: z.string().min(1),
  /** The model spec as given (openai:gpt-4.1-mini, ollama:qwen3:8b, scripted:FILE). */
  model: z.string().min(1),
  workflow: z.string().min(1),
  /** An ablation or baseline name shown as the row label (e.g. RAIDER's BASIC, ALRM's TaP); null = the workflow. */
  variant: z.string().min(1).nullable().default(null),
  /** The git commit of the code that ran (with "+dirty" when the tree had changes); null outside a checkout. */
  commit: z.string().nullable().default(null),
  seed: z.number().int(),
  trials: z.number().int().min(1).default(1),
  /** The command-line arguments or equivalent options, for reproduction. */
  args: json.default({}),
  startedAt: z.date().optional(),
  packageVersion: z.string().optional(),
  host: HostInfoSchema.optional(),
});
export type RunStart = z.input<typeof RunStartSchema>;

const metricValue = z.union([z.number().refine(Number.isFinite, 'a finite number'), z.boolean(), z.null()]);
const optNumber = z.number().nonnegative().nullable().default(null);
const optInt = z.number().int().nonnegative().nullable().default(null);
const optText = z.string().nullable().default(null);

/** One case × trial as the runner reports it. */
export const ResultInputSchema = z
  .object({
    caseId: z.string().min(1),
    /** 1 … trials. */
    trial: z.number().int().min(1).default(1),
    status: ResultStatusSchema,
    /** The case's headline score in 0..1 (see headlineScore in eval/report/spec). */
    score: z.number().min(0).max(1).nullable().default(null),
    /** Whether the trial counts as solved for pass^k; defaults to score === 1. */
    success: z.boolean().optional(),
    /** The suite's metrics for this case (Grnd, Det, TUSR, rule violations, …); booleans are stored as 0/1. */
    metrics: z.record(z.string(), metricValue).default({}),
    /** Taxonomy labels (issue type, query type, paraphrase category, environment, …). */
    labels: z.record(z.string(), z.string()).default({}),
    durationMs: optNumber,
    /** Time spent waiting for the model (latency as the papers report it). */
    modelMs: optNumber,
    tokensIn: optInt,
    tokensOut: optInt,
    /** Only where the provider reports it. */
    costUsd: optNumber,
    toolCalls: optInt,
    /** A suite's failure reason (RAIDER: GR, MC, WR, WF; ETP: missed, invalid, …). */
    failureClass: optText,
    /** Why an error result has no score, in a person's words (the endpoint, the status, the fix). */
    error: optText,
    /** The kind of that reason, for counting them (required with status "error", absent otherwise). */
    errorKind: ErrorKindSchema.nullable().default(null),
    /** The case's trace file; stored relative to the results folder when inside it. */
    tracePath: optText,
    worldHashStart: optText,
    worldHashEnd: optText,
    /** The scorer's version (eval/runner/cases.ts scorerVersion) that judged this row; null when no scorer did (an error before scoring, a stopped case). */
    scorerVersion: optText,
  })
  .superRefine((r, ctx) => {
    if (r.status === 'error' && !r.error) ctx.addIssue({ code: 'custom', path: ['error'], message: 'an error result needs its cause' });
    if (r.status === 'error' && !r.errorKind)
      ctx.addIssue({
        code: 'custom',
        path: ['errorKind'],
        message: `an error result needs the kind of its cause: one of ${ERROR_KINDS.join(', ')}`,
      });
    if (r.status !== 'error' && r.errorKind)
      ctx.addIssue({ code: 'custom', path: ['errorKind'], message: 'only an error result has an error kind' });
    // An error's outcome is unknown: a score beside it would be read as one.
    if (r.status === 'error' && r.score !== null)
      ctx.addIssue({ code: 'custom', path: ['score'], message: 'an error result has no score (its outcome is unknown)' });
    if (r.status === 'ok' && r.score === null) ctx.addIssue({ code: 'custom', path: ['score'], message: 'an ok result needs a score' });
  });
export type ResultInput = z.input<typeof ResultInputSchema>;

/** A run as stored. */
export interface RunRecord {
  runId: string;
  suite: string;
  model: string;
  workflow: string;
  variant: string | null;
  commit: string | null;
  seed: number;
  trials: number;
  args: Record<string, unknown>;
  startedAt: string;
  finishedAt: string | null;
  status: RunStatus;
  note: string | null;
  packageVersion: string;
  host: HostInfo;
}

/** A case × trial as stored. */
export interface ResultRecord {
  runId: string;
  caseId: string;
  trial: number;
  status: ResultStatus;
  success: boolean | null;
  score: number | null;
  metrics: Record<string, number | null>;
  labels: Record<string, string>;
  durationMs: number | null;
  modelMs: number | null;
  tokensIn: number | null;
  tokensOut: number | null;
  costUsd: number | null;
  toolCalls: number | null;
  failureClass: string | null;
  error: string | null;
  /** Set exactly when status is "error". */
  errorKind: ErrorKind | null;
  tracePath: string | null;
  worldHashStart: string | null;
  worldHashEnd: string | null;
  /** The scorer's version that judged this row; null when none did, or the row predates results schema 3 and its run recorded none. */
  scorerVersion: string | null;
  recordedAt: string;
}

const num = z.number().nullable();
const int = z.union([z.number().int(), z.bigint()]).transform(Number);

/** A row of `runs` as SQLite returns it. */
export const RunRowSchema = z
  .object({
    run_id: z.string(),
    suite: z.string(),
    model: z.string(),
    workflow: z.string(),
    variant: z.string().nullable(),
    commit_sha: z.string().nullable(),
    seed: int,
    trials: int,
    args_json: z.string(),
    started_at: z.string(),
    finished_at: z.string().nullable(),
    status: RunStatusSchema,
    note: z.string().nullable(),
    package_version: z.string(),
    host_json: z.string(),
  })
  .transform((r): RunRecord => ({
    runId: r.run_id,
    suite: r.suite,
    model: r.model,
    workflow: r.workflow,
    variant: r.variant,
    commit: r.commit_sha,
    seed: r.seed,
    trials: r.trials,
    args: json.parse(JSON.parse(r.args_json)),
    startedAt: r.started_at,
    finishedAt: r.finished_at,
    status: r.status,
    note: r.note,
    packageVersion: r.package_version,
    host: HostInfoSchema.parse(JSON.parse(r.host_json)),
  }));

/** A row of `results` as SQLite returns it. */
export const ResultRowSchema = z
  .object({
    run_id: z.string(),
    case_id: z.string(),
    trial: int,
    status: ResultStatusSchema,
    success: z.union([z.literal(0), z.literal(1), z.null()]),
    score: num,
    metrics_json: z.string(),
    labels_json: z.string(),
    duration_ms: num,
    model_ms: num,
    tokens_in: int.nullable(),
    tokens_out: int.nullable(),
    cost_usd: num,
    tool_calls: int.nullable(),
    failure_class: z.string().nullable(),
    error: z.string().nullable(),
    error_kind: ErrorKindSchema.nullable(),
    trace_path: z.string().nullable(),
    world_hash_start: z.string().nullable(),
    world_hash_end: z.string().nullable(),
    scorer_version: z.string().nullable(),
    recorded_at: z.string(),
  })
  .transform((r): ResultRecord => ({
    runId: r.run_id,
    caseId: r.case_id,
    trial: r.trial,
    status: r.status,
    success: r.success === null ? null : r.success === 1,
    score: r.score,
    metrics: z.record(z.string(), z.number().nullable()).parse(JSON.parse(r.metrics_json)),
    labels: z.record(z.string(), z.string()).parse(JSON.parse(r.labels_json)),
    durationMs: r.duration_ms,
    modelMs: r.model_ms,
    tokensIn: r.tokens_in,
    tokensOut: r.tokens_out,
    costUsd: r.cost_usd,
    toolCalls: r.tool_calls,
    failureClass: r.failure_class,
    error: r.error,
    errorKind: r.error_kind,
    tracePath: r.trace_path,
    worldHashStart: r.world_hash_start,
    worldHashEnd: r.world_hash_end,
    scorerVersion: r.scorer_version,
    recordedAt: r.recorded_at,
  }));

/** The key of a case × trial pair, as done() returns them. */
export function doneKey(caseId: string, trial: number): string {
  return `${caseId}#${trial}`;
}
