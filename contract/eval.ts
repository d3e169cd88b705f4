// The Evaluate view's part of the contract: the suites, a run of one (sample
// size, the current model), its progress as events, its cases, the report as one
// self-contained HTML page, and replaying a case in the 3D view.
import { z } from 'zod';
import { hostField } from './host-fields';

export const SuiteInfo = z.object({
  id: z.string(),
  title: z.string(),
  paper: z.string(),
  defaultWorkflow: z.string(),
  workflows: z.array(z.string()),
});
export type SuiteInfo = z.infer<typeof SuiteInfo>;

export const EvalRunInfo = z.object({
  runId: z.string(),
  suite: z.string(),
  model: z.string(),
  workflow: z.string(),
  status: z.enum(['running', 'finished', 'stopped', 'failed']),
  startedAt: z.string(),
  cases: z.number().int(),
  errors: z.number().int(),
  score: z.number().nullable(),
});
export type EvalRunInfo = z.infer<typeof EvalRunInfo>;

export const EvalCaseRow = z.object({
  caseId: z.string(),
  trial: z.number().int(),
  status: z.enum(['ok', 'error', 'stopped']),
  score: z.number().nullable(),
  labels: z.record(z.string(), z.string()),
  error: z.string().nullable(),
  failureClass: z.string().nullable(),
  durationMs: z.number().nullable(),
});
export type EvalCaseRow = z.infer<typeof EvalCaseRow>;

/** Progress of the running evaluation, as the CLI's bar shows it. */
export const EvalEvent = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('log'), text: z.string() }),
  z.object({
    kind: z.literal('progress'),
    runId: z.string(),
    suite: z.string(),
    total: z.number().int(),
    done: z.number().int(),
    errors: z.number().int(),
    score: z.number().nullable(),
    etaMs: z.number().nullable(),
    last: z.object({ caseId: z.string(), status: z.enum(['ok', 'error', 'stopped']), score: z.number().nullable() }).optional(),
  }),
  z.object({ kind: z.literal('ended'), run: EvalRunInfo, error: z.string().nullable() }),
]);
export type EvalEvent = z.infer<typeof EvalEvent>;

/** An evaluated run's id: looked up in the host's results, never a path (hostField: the policy parses it). */
export const EvalRunId = hostField(z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._:-]{0,200}$/), 'run-id');

/** One step of an evaluated case's conversation as its transcript shows it (eval/report/transcript.ts draws the same in a report). */
export const TranscriptStep = z.object({
  kind: z.enum(['system', 'user', 'assistant', 'call', 'result-ok', 'result-bad', 'warning', 'error', 'note', 'end', 'turn']),
  /** Who, which tool, how it ended. */
  title: z.string(),
  text: z.string().optional(),
  /** A tool call's arguments or a program. */
  code: z.string().optional(),
  reasoning: z.string().optional(),
  /** Context from an earlier turn. */
  prior: z.boolean().optional(),
});
export type TranscriptStep = z.infer<typeof TranscriptStep>;

/** An evaluated case × trial's transcript: the verdict (status, score, what decided it, the scorer) and the conversation. */
export const CaseTranscript = z.object({
  caseId: z.string(),
  trial: z.number().int(),
  status: z.enum(['ok', 'error', 'stopped']),
  score: z.number().nullable(),
  /** Rows of name and value: status, score, failure class or error, the suite's metrics, the scorer's version. */
  verdict: z.array(z.tuple([z.string(), z.string()])),
  steps: z.array(TranscriptStep),
  /** Why the conversation is not (wholly) shown: no trace, a damaged or cut-off one. */
  problems: z.array(z.string()),
});
export type CaseTranscript = z.infer<typeof CaseTranscript>;

export const EVAL_METHODS = {
  listSuites: { request: z.object({}).strict(), response: z.array(SuiteInfo) },
  /** Starts an evaluation on its own thread (the view keeps running); progress streams as { type: 'eval' } events. */
  startEval: {
    request: z
      .object({
        /** A built-in suite's id (listSuites); a page names no suite file. */
        suite: hostField(z.string().min(1).max(40), 'suite'),
        model: hostField(z.string().min(1).max(500), 'model'),
        workflow: z.string().min(1).max(100).optional(),
        /** Cases drawn across the suite's categories (omitted: all). */
        sample: z.number().int().min(1).max(100_000).optional(),
        trials: z.number().int().min(1).max(20).optional(),
      })
      .strict(),
    response: z.object({ runId: z.string() }),
  },
  stopEval: { request: z.object({}).strict(), response: z.object({ ok: z.boolean(), message: z.string() }) },
  listEvalRuns: { request: z.object({}).strict(), response: z.array(EvalRunInfo) },
  evalCases: { request: z.object({ runId: EvalRunId }).strict(), response: z.array(EvalCaseRow) },
  /** The run's report: one self-contained HTML page (no network; figures inlined). */
  evalReport: { request: z.object({ runId: EvalRunId }).strict(), response: z.object({ name: z.string(), html: z.string() }) },
  /** An evaluated case × trial's transcript, read from the run's recorded trace (nothing runs again). */
  caseTranscript: {
    request: z.object({ runId: EvalRunId, caseId: z.string().min(1).max(300), trial: z.number().int().min(1).max(1000) }).strict(),
    response: CaseTranscript,
  },
  /** Rebuilds the case's world as the current scene and plays its recorded tool calls again in the view. */
  replayCase: {
    request: z.object({ runId: EvalRunId, caseId: z.string().min(1).max(300), trial: z.number().int().min(1).max(1000) }).strict(),
    response: z.object({ ok: z.boolean(), message: z.string(), calls: z.number().int() }),
  },
} as const;
