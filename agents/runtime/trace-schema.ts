// The trace's record types, as zod schemas: every reader (the CLI, the app,
// export, the evaluation) validates lines with them. trace.ts writes them.
import { z } from 'zod';
import { ToolCallSchema } from '../models/model';

export const TRACE_FORMAT = 'skillbridge-trace/1';

export const WARNING_CODES = [
  'made_up_tool_response',
  'made_up_tool_name',
  'unsuccessful_tool_call',
  'missing_tool_call_or_final_response',
] as const;
export type WarningCode = (typeof WARNING_CODES)[number];

/** How a tool call ended. `failed`: the tool ran and reported failure (e.g. out of reach). */
export const TOOL_STATUSES = [
  'ok',
  'failed',
  'invalid_arguments',
  'exception',
  'unknown_tool',
  'skipped',
  'rejected',
  'denied',
  'stopped',
  'preempted',
] as const;
export type ToolStatus = (typeof TOOL_STATUSES)[number];

const UsageSchema = z.object({
  promptTokens: z.number(),
  completionTokens: z.number(),
  totalTokens: z.number(),
  costUsd: z.number().optional(),
  timeToFirstTokenMs: z.number().optional(),
  tokensPerSecond: z.number().optional(),
});

export const TraceHeaderSchema = z.object({
  type: z.literal('header'),
  format: z.literal(TRACE_FORMAT),
  runId: z.string(),
  scene: z.string().nullable(),
  workflow: z.string().nullable(),
  model: z.string().nullable(),
  seed: z.number().nullable(),
  versions: z.object({ skillbridge: z.string(), node: z.string() }),
  startedAt: z.string(),
  /** Present when the run is one turn of a session. */
  session: z.string().optional(),
  turn: z.number().optional(),
});
export type TraceHeader = z.infer<typeof TraceHeaderSchema>;

// Events are what the runtime reports; records are events stamped with time.
// `stage` is the path of the flow that produced a record ("planner/executor");
// absent for a single-loop workflow's flow and in traces written before stages.
const stage = { stage: z.string().optional() };
const MessageEvent = z.object({
  ...stage,
  type: z.literal('message'),
  role: z.enum(['system', 'user', 'assistant']),
  content: z.string().nullable(),
  tool_calls: z.array(ToolCallSchema).optional(),
  /** The model's reasoning ("thinking") for this turn; not sent back to the model. */
  reasoning: z.string().optional(),
  iteration: z.number().optional(),
  /** From an earlier turn: context the run was given, not something it produced. */
  prior: z.boolean().optional(),
  usage: UsageSchema.optional(),
});
const ToolCallEvent = z.object({
  ...stage,
  type: z.literal('tool_call'),
  id: z.string(),
  name: z.string(),
  arguments: z.string(),
  iteration: z.number(),
  /** The call that made this one: a sandboxed program's API calls name the call that ran the program. */
  parent: z.string().optional(),
});
const ToolResultEvent = z.object({
  ...stage,
  type: z.literal('tool_result'),
  id: z.string(),
  name: z.string(),
  ok: z.boolean(),
  status: z.enum(TOOL_STATUSES),
  /** Exactly the text of the tool message the model reads: `result` when ok, `error` when not. */
  result: z.string().optional(),
  error: z.string().optional(),
  durationMs: z.number(),
  data: z.unknown().optional(),
  /** Pictures the tool gave: kept as files beside the trace (`ref`, relative to the trace's folder), never inlined. */
  images: z
    .array(
      z.object({
        mimeType: z.string(),
        width: z.number().optional(),
        height: z.number().optional(),
        ref: z.string().optional(),
        bytes: z.number().optional(),
      }),
    )
    .optional(),
  parent: z.string().optional(),
});
const WarningEvent = z.object({
  ...stage,
  type: z.literal('warning'),
  code: z.enum(WARNING_CODES),
  message: z.string(),
  /** Where the text went: a user message, or the tool message answering `toolCallId`. */
  via: z.enum(['user', 'tool']),
  toolCallId: z.string().optional(),
  iteration: z.number(),
});
const ApprovalEvent = z.object({
  ...stage,
  type: z.literal('approval'),
  id: z.string(),
  tool: z.string(),
  args: z.unknown(),
  decision: z.enum(['approved', 'rejected', 'denied']),
  note: z.string().optional(),
  waitedMs: z.number().optional(),
});
const StopEvent = z.object({ ...stage, type: z.literal('stop'), reason: z.enum(['user', 'time_limit']), message: z.string() });
const RouteEvent = z.object({ ...stage, type: z.literal('route'), route: z.string(), usage: UsageSchema.optional() });
const FinalEvent = z.object({ ...stage, type: z.literal('final'), answer: z.string() });
/** The model request was retried (rate limit, server error, dropped stream). */
const RetryEvent = z.object({
  ...stage,
  type: z.literal('retry'),
  iteration: z.number(),
  attempt: z.number(),
  delayMs: z.number(),
  reason: z.string(),
});
/** A workflow's own step: a hand-off, a critic's verdict, a preemption. */
const NoteEvent = z.object({ ...stage, type: z.literal('note'), text: z.string(), data: z.unknown().optional() });
/** The workflow asked the person, and what came back. */
const AskEvent = z.object({ ...stage, type: z.literal('ask'), id: z.string(), question: z.string() });
const AnswerEvent = z.object({
  ...stage,
  type: z.literal('answer'),
  id: z.string(),
  answer: z.string(),
  by: z.enum(['person', 'simulated', 'none']),
});
/** The safety chain's decision about one skill call (agents/runtime/safety). */
const SafetyEvent = z.object({
  ...stage,
  type: z.literal('safety'),
  verdict: z.enum(['allow', 'clamp', 'refuse', 'ask']),
  skill: z.string(),
  args: z.unknown(),
  ran: z.unknown().optional(),
  checks: z.array(z.string()),
  reason: z.string(),
  via: z.enum(['tool', 'sandbox', 'http', 'mcp', 'direct']),
  tool: z.string().optional(),
  callId: z.string().optional(),
  answer: z.enum(['approved', 'rejected', 'none']).optional(),
  note: z.string().optional(),
  prediction: z.object({ ok: z.boolean(), code: z.string().optional(), summary: z.string() }).optional(),
});
/** Shadow mode: the simulator's prediction and the robot's report differ. */
const DivergenceEvent = z.object({
  ...stage,
  type: z.literal('divergence'),
  kind: z.enum(['outcome', 'object', 'holding', 'joint']),
  subject: z.string(),
  predicted: z.string(),
  actual: z.string(),
  skill: z.string(),
  via: z.enum(['tool', 'sandbox', 'http', 'mcp', 'direct']),
  tool: z.string().optional(),
  callId: z.string().optional(),
});
/** A sandboxed program: its code, how it ended, its output and each API call with its result. */
const CodeRunEvent = z.object({
  ...stage,
  type: z.literal('code_run'),
  id: z.string(),
  /** The tool call that ran it, when a tool did. */
  toolCallId: z.string().optional(),
  language: z.literal('javascript'),
  code: z.string(),
  ok: z.boolean(),
  error: z.object({ kind: z.string(), message: z.string(), line: z.number().optional() }).optional(),
  output: z.string(),
  calls: z.array(
    z.object({
      seq: z.number(),
      name: z.string(),
      args: z.unknown(),
      ok: z.boolean(),
      result: z.string().optional(),
      error: z.string().optional(),
      durationMs: z.number(),
    }),
  ),
  durationMs: z.number(),
});
const ErrorEvent = z.object({
  ...stage,
  type: z.literal('error'),
  message: z.string(),
  kind: z.string().optional(),
  where: z.string().optional(),
});
const EndEvent = z.object({
  ...stage,
  type: z.literal('end'),
  reason: z.enum(['final', 'time_limit', 'max_iterations', 'stopped', 'model_error']),
  iterations: z.number(),
  toolCalls: z.number(),
  usage: UsageSchema,
  durationMs: z.number(),
});

const EVENT_SCHEMAS = [
  MessageEvent,
  ToolCallEvent,
  ToolResultEvent,
  WarningEvent,
  ApprovalEvent,
  StopEvent,
  RouteEvent,
  FinalEvent,
  ErrorEvent,
  EndEvent,
  RetryEvent,
  NoteEvent,
  AskEvent,
  AnswerEvent,
  SafetyEvent,
  DivergenceEvent,
  CodeRunEvent,
] as const;
export const TraceEventSchema = z.discriminatedUnion('type', EVENT_SCHEMAS);
export type TraceEvent = z.infer<typeof TraceEventSchema>;

const Stamp = { t: z.string(), elapsedMs: z.number() };
export const TraceRecordSchema = z.discriminatedUnion('type', [
  MessageEvent.extend(Stamp),
  ToolCallEvent.extend(Stamp),
  ToolResultEvent.extend(Stamp),
  WarningEvent.extend(Stamp),
  ApprovalEvent.extend(Stamp),
  StopEvent.extend(Stamp),
  RouteEvent.extend(Stamp),
  FinalEvent.extend(Stamp),
  ErrorEvent.extend(Stamp),
  EndEvent.extend(Stamp),
  RetryEvent.extend(Stamp),
  NoteEvent.extend(Stamp),
  AskEvent.extend(Stamp),
  AnswerEvent.extend(Stamp),
  SafetyEvent.extend(Stamp),
  DivergenceEvent.extend(Stamp),
  CodeRunEvent.extend(Stamp),
]);
export type TraceRecord = z.infer<typeof TraceRecordSchema>;
export type TraceLine = TraceHeader | TraceRecord;
