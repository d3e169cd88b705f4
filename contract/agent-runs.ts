// Agent runs as the app sees them: the events a run reports, approvals, token
// use, workflows, model probes and imported traces. Imports zod and the contract's pictures.
import { z } from 'zod';
import { RunPicture } from './pictures';

export const ApprovalDecision = z.enum(['approve', 'reject']);
export type ApprovalDecision = z.infer<typeof ApprovalDecision>;

export const ApprovalMode = z.enum(['auto', 'ask', 'deny']);
export type ApprovalMode = z.infer<typeof ApprovalMode>;

export const TokenUsage = z.object({ promptTokens: z.number(), completionTokens: z.number(), totalTokens: z.number() });
export type TokenUsage = z.infer<typeof TokenUsage>;

/** How a run ended: done (a final answer), stopped, limit (time or iterations), error (the model failed). */
export const RunEndReason = z.enum(['done', 'stopped', 'limit', 'error']);
export type RunEndReason = z.infer<typeof RunEndReason>;

/**
 * The stage path of the flow an event comes from ("planner", "planner/executor",
 * "critic"); absent for a single-loop workflow. The trace panel nests by it.
 */
const staged = { stage: z.string().optional() };

/** One API call a sandboxed program made, with what it got back. */
export const CodeRunCall = z.object({
  seq: z.number().int(),
  name: z.string(),
  args: z.unknown(),
  ok: z.boolean(),
  result: z.string().optional(),
  error: z.string().optional(),
  durationMs: z.number(),
});
export type CodeRunCall = z.infer<typeof CodeRunCall>;

/** What an agent run reports as it goes, in order; `callId` is the model's tool-call id. */
export const RunEvent = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('started'),
    runId: z.string(),
    message: z.string(),
    workflow: z.string(),
    model: z.string(),
    tracePath: z.string().nullable(),
  }),
  z.object({ kind: z.literal('text_delta'), runId: z.string(), ...staged, iteration: z.number().int(), text: z.string() }),
  /** Streamed reasoning ("thinking") of a model that reports it; shown apart from the answer. */
  z.object({ kind: z.literal('reasoning_delta'), runId: z.string(), ...staged, iteration: z.number().int(), text: z.string() }),
  /** One model turn is complete: its text and the tokens it took. */
  z.object({
    kind: z.literal('assistant'),
    runId: z.string(),
    ...staged,
    iteration: z.number().int(),
    text: z.string().nullable(),
    usage: TokenUsage.nullable(),
    reasoning: z.string().optional(),
  }),
  z.object({
    kind: z.literal('tool_call'),
    runId: z.string(),
    ...staged,
    callId: z.string(),
    iteration: z.number().int(),
    name: z.string(),
    args: z.unknown().optional(),
    /** The call that made this one: a sandboxed program's API calls name its run_program call. */
    parent: z.string().optional(),
  }),
  z.object({
    kind: z.literal('tool_result'),
    runId: z.string(),
    ...staged,
    callId: z.string(),
    name: z.string(),
    ok: z.boolean(),
    status: z.string(),
    content: z.string(),
    durationMs: z.number(),
    /** Pictures the tool gave, kept beside the run's trace (getRunImage gives their bytes). */
    pictures: z.array(RunPicture).optional(),
  }),
  z.object({
    kind: z.literal('warning'),
    runId: z.string(),
    ...staged,
    code: z.string(),
    message: z.string(),
    callId: z.string().optional(),
  }),
  z.object({
    kind: z.literal('approval_request'),
    runId: z.string(),
    id: z.string(),
    /** The tool call it gates (the view puts the prompt before that call's line). */
    callId: z.string().optional(),
    tool: z.string(),
    args: z.unknown().optional(),
    reason: z.string(),
  }),
  z.object({
    kind: z.literal('approval'),
    runId: z.string(),
    callId: z.string(),
    tool: z.string(),
    decision: z.enum(['approved', 'rejected', 'denied']),
    note: z.string().optional(),
  }),
  /** Shadow mode: the simulator's prediction and the real robot's report differ. */
  z.object({
    kind: z.literal('divergence'),
    runId: z.string(),
    subject: z.string(),
    predicted: z.string(),
    actual: z.string(),
    callId: z.string().optional(),
  }),
  /** The workflow asks the person (RAIDER's recovery `ask`); the app answers with answerAsk. */
  z.object({ kind: z.literal('ask'), runId: z.string(), id: z.string(), question: z.string(), stage: z.string() }),
  /** The question was answered (by the person, or nobody when the run stopped first). */
  z.object({
    kind: z.literal('answer'),
    runId: z.string(),
    id: z.string(),
    answer: z.string(),
    by: z.enum(['person', 'simulated', 'none']),
  }),
  /** A workflow's own step: a route, a hand-off, a critic's verdict, a preemption. */
  z.object({ kind: z.literal('note'), runId: z.string(), ...staged, text: z.string(), data: z.unknown().optional() }),
  /**
   * A program a model wrote ran in the sandbox (ALRM's Code-as-Policy, RAIDER's
   * recovery): the code, how it ended, its output and every API call with its
   * result. `callId` is the tool call that ran it, when a tool did.
   */
  z.object({
    kind: z.literal('code_run'),
    runId: z.string(),
    ...staged,
    id: z.string(),
    callId: z.string().optional(),
    language: z.literal('javascript'),
    code: z.string(),
    ok: z.boolean(),
    error: z.object({ kind: z.string(), message: z.string(), line: z.number().optional() }).optional(),
    output: z.string(),
    calls: z.array(CodeRunCall),
    durationMs: z.number(),
  }),
  z.object({ kind: z.literal('stop'), runId: z.string(), ...staged, message: z.string() }),
  z.object({ kind: z.literal('error'), runId: z.string(), ...staged, message: z.string() }),
  z.object({
    kind: z.literal('final'),
    runId: z.string(),
    text: z.string(),
    reason: RunEndReason,
    detail: z.string(),
    tracePath: z.string().nullable(),
    iterations: z.number().int(),
    toolCalls: z.number().int(),
    usage: TokenUsage,
    durationMs: z.number(),
  }),
]);
export type RunEvent = z.infer<typeof RunEvent>;

export const WorkflowInfo = z.object({
  id: z.string(),
  /** In plain words, for the picker ("Plan, act and check the result"). */
  title: z.string(),
  /** The paper it comes from, e.g. "003" (see /papers). */
  paper: z.string(),
  /** Where in the paper, e.g. "§3–§5". */
  section: z.string().optional(),
  /** The paper's own name for it (shown second): "DFKI planner–executor". */
  source: z.string().optional(),
  /** The stages a turn may run, in order ("router", "planner", "critic"). */
  stages: z.array(z.string()).optional(),
  description: z.string(),
  /** The system prompt this workflow gives a model for the robot now loaded. */
  systemPrompt: z.string(),
});
export type WorkflowInfo = z.infer<typeof WorkflowInfo>;

/**
 * Whether a model reads images, as the probe found it: known (it named the test
 * picture's colour, or did not) or unknown with why (the spec did not ask for
 * `+images`, the probe ended before the picture). Never a default yes or no.
 */
export const ImageInput = z.discriminatedUnion('known', [
  z.object({ known: z.literal(true), value: z.boolean() }).strict(),
  z.object({ known: z.literal(false), why: z.string() }).strict(),
]);
export type ImageInput = z.infer<typeof ImageInput>;

export const ProbeResult = z.object({
  spec: z.string(),
  baseURL: z.string(),
  reachable: z.boolean(),
  models: z.array(z.string()),
  nativeToolCalls: z.boolean(),
  textToolCalls: z.boolean(),
  latencyMs: z.number(),
  notes: z.array(z.string()),
  error: z.object({ kind: z.string(), message: z.string(), fix: z.string().nullable() }).nullable(),
  imageInput: ImageInput,
});
export type ProbeResult = z.infer<typeof ProbeResult>;

export const LocalModels = z.object({
  ollama: z.object({ baseURL: z.string(), reachable: z.boolean(), models: z.array(z.string()) }),
});
export type LocalModels = z.infer<typeof LocalModels>;

/** One trace line as recorded (agents/runtime/trace validates the full shape on import). */
export const TraceLineInfo = z.object({ type: z.string() }).passthrough();
export type TraceLineInfo = z.infer<typeof TraceLineInfo>;

export const ImportedTrace = z.object({
  header: TraceLineInfo,
  records: z.array(TraceLineInfo),
  truncated: z.boolean(),
  /** What the reader should know: lines left out (damaged), a run cut off before its end. */
  notes: z.array(z.string()).optional(),
});
export type ImportedTrace = z.infer<typeof ImportedTrace>;
