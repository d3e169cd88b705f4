// The program flow manager (RAIDER, paper 001 §3.2): the loop every workflow
// runs. Each iteration asks the model for one turn, then inspects it:
//   - tool calls together with a final answer  -> Warning 1, made_up_tool_response
//     (the answer is discarded; the calls still run and the model must read them);
//   - a call to a tool that is not offered now  -> Warning 2, made_up_tool_name;
//   - invalid arguments, or a tool that throws  -> Warning 3, unsuccessful_tool_call;
//   - neither tool calls nor text               -> Warning 4, missing_tool_call_or_final_response.
// Warnings go into the conversation so the model corrects itself. A plain text
// reply is the final answer. The run also ends at the time limit (20 s in the
// paper), at an iteration cap, on Stop, or when the model cannot be reached.
// How many calls run per iteration is a workflow's choice (paper 000 §III.D):
// MAYA one, because a call can change which tools exist; TORO several.
//
// The history stays valid for OpenAI-compatible servers whatever happens: every
// tool_call_id gets a tool message, even for calls skipped, refused or stopped.
import { distance } from 'fastest-levenshtein';
import type { AssistantMessage, ChatMessage, CompletionRequest, Model, ToolCall, Usage } from '../models/model';
import { ModelError, toModelTools } from '../models/model';
import type { Robot } from '../../robot/robot';
import type { Tool, ToolContext, ToolResult } from '../tools/tool';
import { AUTO_APPROVE, type ApprovalDecision, type ApprovalGate, decide, refusalText } from './approval';
import { RunController, type StopCause, untilAborted } from './controller';
import type { Trace, TraceEvent, ToolStatus, WarningCode } from './trace';

export type { WarningCode } from './trace';

export interface FlowLimits {
  /** Wall time for the whole run; null turns it off. Time waiting for a person's approval does not count. */
  timeLimitMs: number | null;
  /** Model turns per run. */
  maxIterations: number;
  /** Calls run per model turn; the rest are answered as skipped. 1 = MAYA, more = TORO. */
  maxToolCallsPerIteration: number;
  /** After Stop, how long a running tool may take to confirm it stopped before the run ends without it. */
  stopGraceMs: number;
}

export const DEFAULT_LIMITS: FlowLimits = { timeLimitMs: 20_000, maxIterations: 12, maxToolCallsPerIteration: 1, stopGraceMs: 1_000 };

export type ToolChoice = NonNullable<CompletionRequest['toolChoice']>;

/** What a tools function sees when choosing the tools of an iteration. */
export interface FlowView {
  iteration: number;
  messages: readonly ChatMessage[];
  /** Index in `messages` of this turn's first message (the user's request); warnings added later are user messages too. */
  turnStart: number;
  state: Map<string, unknown>;
  /** The label from the classify step, if the run had one. */
  route: string | undefined;
}

/** The tools offered at each iteration (0-based): fixed, hierarchical or grown from the world. */
export type ToolsFn = (iteration: number, view: FlowView) => readonly Tool[] | Promise<readonly Tool[]>;

export interface ClassifyResult {
  route: string;
  usage?: Usage;
}

export type FlowEvent =
  | { type: 'iteration'; iteration: number; tools: string[] }
  | { type: 'route'; route: string }
  | { type: 'text'; iteration: number; delta: string }
  | { type: 'reasoning'; iteration: number; delta: string }
  | { type: 'retry'; iteration: number; attempt: number; delayMs: number; reason: string }
  | { type: 'assistant'; iteration: number; message: AssistantMessage; usage?: Usage; reasoning?: string }
  | { type: 'tool_start'; iteration: number; id: string; name: string; arguments: string }
  | { type: 'approval'; iteration: number; id: string; name: string; decision: 'approved' | 'rejected' | 'denied'; note?: string }
  | { type: 'tool_end'; iteration: number; id: string; name: string; ok: boolean; status: ToolStatus; content: string; durationMs: number }
  | { type: 'warning'; iteration: number; code: WarningCode; message: string; toolCallId?: string }
  | { type: 'stop'; cause: StopCause }
  | { type: 'final'; answer: string }
  | { type: 'error'; message: string };

export interface FlowOptions {
  model: Model;
  /** The conversation so far (system prompt, earlier turns, the new user message). Appended to in place. */
  messages: ChatMessage[];
  tools: ToolsFn;
  robot: Robot;
  /** Tool scratch space; pass the session's to keep it across turns. */
  state?: Map<string, unknown>;
  limits?: Partial<FlowLimits>;
  toolChoice?: ToolChoice | ((view: FlowView) => ToolChoice | undefined);
  temperature?: number;
  /** A step before the loop (MAYA: information or action request) whose label the tools function sees. */
  classify?: (req: { messages: readonly ChatMessage[]; signal: AbortSignal }) => Promise<ClassifyResult>;
  approval?: ApprovalGate;
  trace?: Trace;
  /** Stop handle; one is made if omitted. */
  controller?: RunController;
  /** An outer cancellation that stops the run too. */
  signal?: AbortSignal;
  onEvent?: (event: FlowEvent) => void;
  /** Decides whether text sent with tool calls claims a final answer (Warning 1). */
  looksFinal?: (text: string) => boolean;
  /** Messages before this index are from earlier turns; the trace marks them `prior`. Default: all are new. */
  newFrom?: number;
}

export type FlowReason = 'final' | 'time_limit' | 'max_iterations' | 'stopped' | 'model_error';

export interface FlowResult {
  reason: FlowReason;
  /** The final answer, when reason is 'final'. */
  final: string | undefined;
  messages: ChatMessage[];
  /** Model turns taken. */
  iterations: number;
  /** Tool calls the model made (run or not). */
  toolCalls: number;
  /** Tool calls that actually ran. */
  toolCallsRun: number;
  warnings: Array<{ code: WarningCode; message: string; iteration: number }>;
  usage: Usage;
  durationMs: number;
  stopped?: StopCause;
  error?: { message: string; kind?: string };
}

/**
 * Earlier turns' messages, as stamped records kept per message: a long session
 * then re-writes its history into each run's trace without re-serialising it.
 */
const PRIOR_RECORDS = new WeakMap<ChatMessage, TraceEvent>();

function priorRecord(m: ChatMessage, event: TraceEvent): TraceEvent {
  let rec = PRIOR_RECORDS.get(m);
  if (!rec) {
    rec = { ...event, prior: true, t: new Date().toISOString(), elapsedMs: 0 } as unknown as TraceEvent;
    PRIOR_RECORDS.set(m, rec);
  }
  return rec;
}

/**
 * Default Warning 1 check: an explicit final-answer marker, as in RAIDER's
 * `{"final_response": ...}` or "Final answer: …". Plain commentary beside tool calls
 * ("I'll look first") is normal for native tool calling and is not flagged.
 */
export function looksLikeFinalAnswer(text: string): boolean {
  return /["']?final_response["']?\s*:/i.test(text) || /\bfinal[ _](answer|response)\s*[:=]/i.test(text);
}

export function warningText(code: WarningCode, detail = ''): string {
  const body: Record<WarningCode, string> = {
    made_up_tool_response:
      'your reply gave a final answer together with tool calls. That answer was discarded: you cannot know the results before the tools return. Read the tool results above, then call more tools or give your final answer without tool calls.',
    made_up_tool_name: detail,
    unsuccessful_tool_call: detail,
    missing_tool_call_or_final_response:
      'your reply had neither a tool call nor a final answer. Call one of the available tools, or reply with your final answer.',
  };
  return `Warning (${code}): ${body[code]}`;
}

/** "did you mean" for a made-up tool name: close spellings, or a shared word. */
export function suggestTools(name: string, available: readonly string[]): string[] {
  const n = name.toLowerCase();
  const scored = available
    .map((a) => {
      const d = distance(n, a.toLowerCase());
      const words = new Set(a.toLowerCase().split(/[_-]/));
      const shared = n.split(/[_-]/).some((w) => w.length > 2 && words.has(w));
      return { a, d, close: d <= Math.max(2, Math.floor(a.length / 3)) || a.includes(n) || n.includes(a) || shared };
    })
    .filter((x) => x.close)
    .sort((x, y) => x.d - y.d || x.a.localeCompare(y.a));
  return scored.slice(0, 3).map((x) => x.a);
}

/** Defaults overlaid with the given limits; an explicit `undefined` keeps the default (null is "off"). */
export function mergeLimits(...parts: Array<Partial<FlowLimits> | undefined>): FlowLimits {
  const out: FlowLimits = { ...DEFAULT_LIMITS };
  for (const p of parts) {
    if (!p) continue;
    if (p.timeLimitMs !== undefined) out.timeLimitMs = p.timeLimitMs;
    if (p.maxIterations !== undefined) out.maxIterations = p.maxIterations;
    if (p.maxToolCallsPerIteration !== undefined) out.maxToolCallsPerIteration = p.maxToolCallsPerIteration;
    if (p.stopGraceMs !== undefined) out.stopGraceMs = p.stopGraceMs;
  }
  return out;
}

const ZERO: Usage = { promptTokens: 0, completionTokens: 0, totalTokens: 0 };

/** A wall-clock budget that can pause while a person decides. */
class Deadline {
  private used = 0;
  private since: number | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly budgetMs: number | null,
    private readonly expire: () => void,
  ) {}

  resume(): void {
    if (this.budgetMs === null || this.since !== undefined) return;
    this.since = performance.now();
    this.timer = setTimeout(this.expire, Math.max(0, this.budgetMs - this.used));
  }

  pause(): void {
    if (this.since === undefined) return;
    this.used += performance.now() - this.since;
    this.since = undefined;
    clearTimeout(this.timer);
  }
}

type Settled<T> = { kind: 'done'; value: T } | { kind: 'error'; error: unknown } | { kind: 'abandoned' };

/** Waits for work; after an abort, gives it `graceMs` to notice and report before giving up on it. */
function settleWithGrace<T>(work: Promise<T>, signal: AbortSignal, graceMs: number): Promise<Settled<T>> {
  return new Promise((resolve) => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const onAbort = () => {
      timer = setTimeout(() => resolve({ kind: 'abandoned' }), graceMs);
    };
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
    const finish = (s: Settled<T>) => {
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
      resolve(s);
    };
    work.then(
      (value) => finish({ kind: 'done', value }),
      (error: unknown) => finish({ kind: 'error', error }),
    );
  });
}

function errorText(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

function addUsage(a: Usage, b: Usage | undefined): Usage {
  return b
    ? {
        promptTokens: a.promptTokens + b.promptTokens,
        completionTokens: a.completionTokens + b.completionTokens,
        totalTokens: a.totalTokens + b.totalTokens,
      }
    : a;
}

/** Tool results may carry anything; keep what survives JSON so the trace line stays writable. */
function jsonSafe(data: unknown): unknown {
  if (data === undefined) return undefined;
  try {
    return JSON.parse(JSON.stringify(data)) as unknown;
  } catch {
    return String(data);
  }
}

export async function runFlow(opts: FlowOptions): Promise<FlowResult> {
  const limits = mergeLimits(opts.limits);
  const { model, messages, robot, trace } = opts;
  const state = opts.state ?? new Map<string, unknown>();
  const gate = opts.approval ?? AUTO_APPROVE;
  const looksFinal = opts.looksFinal ?? looksLikeFinalAnswer;
  const controller = opts.controller ?? new RunController();
  const signal = controller.signal;
  const t0 = performance.now();

  let iterations = 0;
  let toolCalls = 0;
  let toolCallsRun = 0;
  let usage: Usage = { ...ZERO };
  let route: string | undefined;
  const warnings: FlowResult['warnings'] = [];

  const emit = (e: FlowEvent): void => {
    if (!opts.onEvent) return;
    try {
      opts.onEvent(e);
    } catch (err) {
      // A UI bug must not break the robot's run; leave a note in the trace instead.
      trace?.record({ type: 'error', message: `onEvent listener threw: ${errorText(err)}`, where: 'onEvent' });
    }
  };

  const newFrom = opts.newFrom ?? 0;
  // The conversation so far, in one write: each run's file reads on its own.
  trace?.recordMany(
    messages.flatMap((m, i): TraceEvent[] => {
      if (m.role === 'tool') return []; // earlier tool results are in earlier traces
      const event: TraceEvent = {
        type: 'message',
        role: m.role,
        content: m.content ?? null,
        ...(m.role === 'assistant' && m.tool_calls?.length ? { tool_calls: m.tool_calls } : {}),
      };
      return [i < newFrom ? priorRecord(m, event) : event];
    }),
  );

  const unfollow = controller.follow(opts.signal);
  const unStop = controller.onStop((cause) => {
    trace?.record({ type: 'stop', reason: cause.kind, message: cause.message });
    emit({ type: 'stop', cause });
  });
  const deadline = new Deadline(limits.timeLimitMs, () =>
    controller.stop({
      kind: 'time_limit',
      message: `the time limit of ${+((limits.timeLimitMs ?? 0) / 1000).toFixed(2)} s ran out before a final answer`,
    }),
  );

  const warn = (code: WarningCode, message: string, iteration: number, toolCallId?: string): void => {
    warnings.push({ code, message, iteration });
    trace?.record({ type: 'warning', code, message, via: toolCallId ? 'tool' : 'user', iteration, ...(toolCallId ? { toolCallId } : {}) });
    emit({ type: 'warning', iteration, code, message, ...(toolCallId ? { toolCallId } : {}) });
  };

  const finish = (reason: FlowReason, extra: { final?: string; error?: FlowResult['error'] } = {}): FlowResult => {
    const durationMs = Math.round(performance.now() - t0);
    if (reason === 'final' && extra.final !== undefined) {
      trace?.record({ type: 'final', answer: extra.final });
      emit({ type: 'final', answer: extra.final });
    }
    trace?.record({ type: 'end', reason, iterations, toolCalls, usage, durationMs });
    return {
      reason,
      final: extra.final,
      messages,
      iterations,
      toolCalls,
      toolCallsRun,
      warnings,
      usage,
      durationMs,
      ...(controller.stopCause ? { stopped: controller.stopCause } : {}),
      ...(extra.error ? { error: extra.error } : {}),
    };
  };
  const stoppedReason = (): FlowReason => (controller.stopCause?.kind === 'time_limit' ? 'time_limit' : 'stopped');

  /** Runs (or declines) one tool call and returns the text of its tool message. */
  const handleCall = async (call: ToolCall, index: number, iteration: number, offered: ReadonlyMap<string, Tool>): Promise<string> => {
    const { id } = call;
    const name = call.function.name;
    const started = performance.now();
    trace?.record({ type: 'tool_call', id, name, arguments: call.function.arguments, iteration });
    emit({ type: 'tool_start', iteration, id, name, arguments: call.function.arguments });
    const end = (status: ToolStatus, ok: boolean, content: string, data?: unknown): string => {
      const durationMs = Math.round(performance.now() - started);
      const safe = jsonSafe(data);
      trace?.record({
        type: 'tool_result',
        id,
        name,
        ok,
        status,
        ...(ok ? { result: content } : { error: content }),
        durationMs,
        ...(safe !== undefined ? { data: safe } : {}),
      });
      emit({ type: 'tool_end', iteration, id, name, ok, status, content, durationMs });
      return content;
    };

    if (controller.stopped) return end('stopped', false, `Not run: the run was stopped (${controller.stopCause?.message}).`);
    if (index >= limits.maxToolCallsPerIteration) {
      const n = limits.maxToolCallsPerIteration;
      return end(
        'skipped',
        false,
        `Not run: only ${n} tool call${n === 1 ? '' : 's'} per turn ${n === 1 ? 'is' : 'are'} allowed here, and this was call ${index + 1}. Read the results above; call ${name} again in your next turn if it is still needed.`,
      );
    }

    const tool = offered.get(name);
    if (!tool) {
      const names = [...offered.keys()];
      const near = suggestTools(name, names);
      const text = warningText(
        'made_up_tool_name',
        `there is no tool named "${name}".${near.length ? ` Did you mean ${near.map((n) => `"${n}"`).join(' or ')}?` : ''} Available tools: ${names.join(', ') || 'none'}. Call one of these, with its exact name.`,
      );
      warn('made_up_tool_name', text, iteration, id);
      return end('unknown_tool', false, text);
    }

    const parsed = tool.parse(call.function.arguments);
    if (!parsed.ok) {
      const text = warningText('unsuccessful_tool_call', parsed.message);
      warn('unsuccessful_tool_call', text, iteration, id);
      return end('invalid_arguments', false, text);
    }

    // The budget is the agent's time; a person deciding should not use it up.
    deadline.pause();
    let approval: ApprovalDecision;
    try {
      approval = await decide(gate, {
        callId: id,
        tool: name,
        category: tool.category,
        arguments: call.function.arguments,
        args: parsed.args,
        iteration,
        signal,
      });
    } catch {
      return end('stopped', false, `Not run: the run was stopped while waiting for approval of ${name}.`);
    } finally {
      if (!controller.stopped) deadline.resume();
    }
    if (approval.decision !== 'auto') {
      const note = approval.note !== undefined ? { note: approval.note } : {};
      trace?.record({
        type: 'approval',
        id,
        tool: name,
        args: jsonSafe(parsed.args) ?? null,
        decision: approval.decision,
        ...note,
        ...('waitedMs' in approval ? { waitedMs: approval.waitedMs } : {}),
      });
      emit({ type: 'approval', iteration, id, name, decision: approval.decision, ...note });
      if (approval.decision !== 'approved') return end(approval.decision, false, refusalText(name, approval));
    }
    if (controller.stopped) return end('stopped', false, `Not run: the run was stopped (${controller.stopCause?.message}).`);

    toolCallsRun++;
    const ctx: ToolContext = { robot, signal, state };
    const settled = await settleWithGrace<ToolResult>(
      Promise.resolve().then(() => tool.run(parsed.args, ctx)),
      signal,
      limits.stopGraceMs,
    );
    if (settled.kind === 'done') {
      const r = settled.value;
      return end(r.ok ? 'ok' : 'failed', r.ok, r.content, r.data);
    }
    if (settled.kind === 'abandoned') {
      return end(
        'stopped',
        false,
        `Stopped: the run was stopped while ${name} was running, and it did not confirm it had stopped; it may have been interrupted part-way. Check the state before relying on it.`,
      );
    }
    if (controller.stopped) return end('stopped', false, `Stopped: ${name} was interrupted (${errorText(settled.error)}).`);
    const text = warningText(
      'unsuccessful_tool_call',
      `${name} raised an error: ${errorText(settled.error)}. Check the arguments and try again, or use another tool.`,
    );
    warn('unsuccessful_tool_call', text, iteration, id);
    return end('exception', false, text);
  };

  deadline.resume();
  try {
    if (opts.classify && !controller.stopped) {
      try {
        const c = await untilAborted(opts.classify({ messages: messages.slice(), signal }), signal);
        route = c.route;
        usage = addUsage(usage, c.usage);
        trace?.record({ type: 'route', route: c.route, ...(c.usage ? { usage: c.usage } : {}) });
        emit({ type: 'route', route: c.route });
      } catch (e) {
        if (controller.stopped) return finish(stoppedReason());
        return modelFailure(e, 'classify');
      }
    }

    for (let iteration = 0; iteration < limits.maxIterations; iteration++) {
      if (controller.stopped) return finish(stoppedReason());
      const view: FlowView = { iteration, messages, turnStart: newFrom, state, route };
      const tools = await opts.tools(iteration, view);
      const offered = new Map(tools.map((t) => [t.name, t] as const));
      emit({ type: 'iteration', iteration, tools: [...offered.keys()] });

      const choice = typeof opts.toolChoice === 'function' ? opts.toolChoice(view) : opts.toolChoice;
      const req: CompletionRequest = {
        messages: messages.slice(),
        signal,
        onText: (delta) => emit({ type: 'text', iteration, delta }),
        onReasoning: (delta) => emit({ type: 'reasoning', iteration, delta }),
        onRetry: (info) => emit({ type: 'retry', iteration, ...info }),
        // An empty tools array is rejected by some servers; omit it instead.
        ...(offered.size ? { tools: toModelTools(tools.map((t) => t.schema())) } : {}),
        ...(choice && offered.size ? { toolChoice: choice } : {}),
        ...(opts.temperature !== undefined ? { temperature: opts.temperature } : {}),
      };
      iterations++;
      let completion;
      try {
        completion = await untilAborted(model.complete(req), signal);
      } catch (e) {
        if (controller.stopped) return finish(stoppedReason());
        return modelFailure(e, 'model');
      }
      usage = addUsage(usage, completion.usage);

      const rawCalls = completion.message.tool_calls?.length ? completion.message.tool_calls : completion.toolCalls;
      // Ids must be present and unique, or the tool messages cannot answer them.
      const seen = new Set<string>();
      const calls = rawCalls.map((c, i) => {
        const id = c.id && !seen.has(c.id) ? c.id : `call_${iteration}_${i}`;
        seen.add(id);
        return id === c.id ? c : { ...c, id };
      });
      const text = completion.message.content ?? '';
      const assistant: AssistantMessage = {
        role: 'assistant',
        content: calls.length && !text ? null : text,
        ...(calls.length ? { tool_calls: calls } : {}),
      };
      trace?.record({
        type: 'message',
        role: 'assistant',
        content: assistant.content ?? null,
        ...(calls.length ? { tool_calls: calls } : {}),
        ...(completion.reasoning ? { reasoning: completion.reasoning } : {}),
        iteration,
        ...(completion.usage ? { usage: completion.usage } : {}),
      });
      // The reasoning stays out of the history: models are trained to see only earlier answers.
      emit({
        type: 'assistant',
        iteration,
        message: assistant,
        ...(completion.usage ? { usage: completion.usage } : {}),
        ...(completion.reasoning ? { reasoning: completion.reasoning } : {}),
      });

      if (!calls.length) {
        if (text.trim()) {
          messages.push(assistant);
          return finish('final', { final: text.trim() });
        }
        // An empty assistant turn keeps user/assistant alternation for strict chat templates.
        messages.push({ role: 'assistant', content: '' });
        const w = warningText('missing_tool_call_or_final_response');
        messages.push({ role: 'user', content: w });
        warn('missing_tool_call_or_final_response', w, iteration);
        continue;
      }

      messages.push(assistant);
      toolCalls += calls.length;
      const madeUp = text.trim() !== '' && looksFinal(text);
      for (const [i, call] of calls.entries()) {
        const content = await handleCall(call, i, iteration, offered);
        messages.push({ role: 'tool', tool_call_id: call.id, content });
      }
      if (controller.stopped) return finish(stoppedReason());
      if (madeUp) {
        // After the tool messages: they must directly follow the assistant turn that called them.
        const w = warningText('made_up_tool_response');
        messages.push({ role: 'user', content: w });
        warn('made_up_tool_response', w, iteration);
      }
    }
    return finish('max_iterations');
  } finally {
    deadline.pause();
    unStop();
    unfollow();
  }

  function modelFailure(e: unknown, where: string): FlowResult {
    const kind = e instanceof ModelError ? e.kind : undefined;
    const message = e instanceof ModelError && e.fix && !e.message.includes(e.fix) ? `${e.message} ${e.fix}` : errorText(e);
    trace?.record({ type: 'error', message, where, ...(kind ? { kind } : {}) });
    emit({ type: 'error', message });
    return finish('model_error', { error: { message, ...(kind ? { kind } : {}) } });
  }
}
