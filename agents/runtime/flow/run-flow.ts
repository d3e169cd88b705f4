// The program flow manager (RAIDER, paper 001 §3.2): the loop every flow runs.
// Each iteration asks the model for one turn, then inspects it:
//   - tool calls together with a final answer  -> Warning 1, made_up_tool_response
//     (the answer is discarded; the calls still run and the model must read them);
//   - a call to a tool that is not offered now  -> Warning 2, made_up_tool_name;
//   - invalid arguments, or a tool that throws  -> Warning 3, unsuccessful_tool_call;
//   - neither tool calls nor text               -> Warning 4, missing_tool_call_or_final_response.
// Warnings go into the conversation so the model corrects itself. A plain text
// reply is the final answer. The flow also ends at the time limit (20 s in the
// paper), at an iteration cap, on Stop, or when the model cannot be reached.
// How many calls run per iteration is the caller's choice (paper 000 §III.D):
// MAYA one, because a call can change which tools exist; TORO several.
//
// Everything that happens is an event on one stream (./events.ts); the trace is
// one of its subscribers. The history stays valid for OpenAI-compatible servers
// whatever happens: every tool_call_id gets a tool message, even for calls
// skipped, refused or stopped.
import type { AssistantMessage, ChatMessage, CompletionRequest, Model, ModelTool, Usage } from '../../models/model';
import { ModelError, toModelTools } from '../../models/model';
import { clipArguments } from '../../tools/limits';
import type { Robot } from '../../../robot/robot';
import type { Tool } from '../../tools/tool';
import { AUTO_APPROVE, type ApprovalGate } from '../approval';
import { RunController, type StopCause, untilAborted } from '../controller';
import { EventStream, type FlowEvent, type FlowEventBody, type FlowListener, type FlowReason } from '../events';
import type { Trace, WarningCode } from '../trace';
import { recordEvents } from '../trace-recorder';
import { DEFAULT_LIMITS, Deadline, type FlowLimits, mergeLimits } from './limits';
import { Preemptor, errorText, handleCall } from './tool-call';
import { looksLikeFinalAnswer, warningText } from './warnings';
import { dropOlderPictures, pictureMessage, withCamera, type Shot } from './pictures';
import { SafetyChain } from '../safety/chain';

export type ToolChoice = NonNullable<CompletionRequest['toolChoice']>;

/** What a tools function sees when choosing the tools of an iteration. */
export interface FlowView {
  iteration: number;
  messages: readonly ChatMessage[];
  /** Index in `messages` of this turn's first message (the user's request); warnings added later are user messages too. */
  turnStart: number;
  state: Map<string, unknown>;
  /** The label from the classify step, if the flow had one. */
  route: string | undefined;
}

/** The tools offered at each iteration (0-based): fixed, hierarchical or grown from the world. */
export type ToolsFn = (iteration: number, view: FlowView) => readonly Tool[] | Promise<readonly Tool[]>;

export interface ClassifyResult {
  route: string;
  usage?: Usage;
}

export interface FlowOptions {
  /** The whole turn's budget (a host's time limit): paused with this flow's while a person decides. */
  turnDeadline?: Pick<Deadline, 'pause' | 'resume'>;
  model: Model;
  /** The conversation so far (system prompt, earlier turns, the new user message). Appended to in place. */
  messages: ChatMessage[];
  tools: ToolsFn;
  robot: Robot;
  /** The stage path the events carry ("" for a single-loop workflow's main flow). */
  stage?: string;
  /** Tool scratch space; pass the conversation's to keep it across turns. */
  state?: Map<string, unknown>;
  limits?: Partial<FlowLimits>;
  toolChoice?: ToolChoice | ((view: FlowView) => ToolChoice | undefined);
  temperature?: number;
  /** A step before the loop (MAYA: information or action request) whose label the tools function sees. */
  classify?: (req: { messages: readonly ChatMessage[]; signal: AbortSignal }) => Promise<ClassifyResult>;
  approval?: ApprovalGate;
  /** The run's event stream (shared by every flow of a turn); one is made if omitted. */
  events?: EventStream;
  /** Subscribes for the duration of this flow (tests, one-off callers). */
  onEvent?: FlowListener;
  /** Records this flow's events, for callers without a conversation (tests, benchmarks). */
  trace?: Trace;
  /** Stop handle; one is made if omitted. A flow's own time limit stops only this controller. */
  controller?: RunController;
  /** An outer cancellation (the turn's Stop) that stops this flow too. */
  signal?: AbortSignal;
  /** Running calls a workflow may interrupt; shared by the flows of a turn. */
  preemptor?: Preemptor;
  /** Decides whether text sent with tool calls claims a final answer (Warning 1). */
  looksFinal?: (text: string) => boolean;
  /** A misspelt tool name that clearly means one offered tool runs that tool (RAIDER's fuzzy matching). */
  matchToolNames?: boolean;
  /** Messages before this index are from earlier turns; the trace marks them `prior`. Default: all are new. */
  newFrom?: number;
  /** The robot's safety chain (a conversation keeps one); a flow without one makes its own with default limits. */
  safety?: SafetyChain;
}

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

/** Each tool as the model sees it, made once per tool (a tool's schema is fixed): every iteration offers them again. */
const MODEL_TOOLS = new WeakMap<Tool, ModelTool>();

function modelTool(t: Tool): ModelTool {
  let m = MODEL_TOOLS.get(t);
  if (!m) MODEL_TOOLS.set(t, (m = toModelTools([t.schema()])[0]!));
  return m;
}

export const ZERO_USAGE: Usage = { promptTokens: 0, completionTokens: 0, totalTokens: 0 };

export function addUsage(a: Usage, b: Usage | undefined): Usage {
  return b
    ? {
        promptTokens: a.promptTokens + b.promptTokens,
        completionTokens: a.completionTokens + b.completionTokens,
        totalTokens: a.totalTokens + b.totalTokens,
        ...(a.costUsd !== undefined || b.costUsd !== undefined ? { costUsd: (a.costUsd ?? 0) + (b.costUsd ?? 0) } : {}),
      }
    : a;
}

export async function runFlow(opts: FlowOptions): Promise<FlowResult> {
  const limits = mergeLimits(opts.limits);
  const { model, messages, robot } = opts;
  const stage = opts.stage ?? '';
  const state = opts.state ?? new Map<string, unknown>();
  const gate = opts.approval ?? AUTO_APPROVE;
  const looksFinal = opts.looksFinal ?? looksLikeFinalAnswer;
  const controller = opts.controller ?? new RunController();
  const signal = controller.signal;
  const events = opts.events ?? new EventStream();
  const t0 = performance.now();

  const unsubscribe = [
    ...(opts.onEvent ? [events.subscribe((e: FlowEvent) => e.stage === stage && opts.onEvent!(e))] : []),
    ...(opts.trace ? [recordEvents(events, opts.trace, (e) => e.stage === stage)] : []),
  ];
  const emit = events.at(stage);

  let iterations = 0;
  let toolCalls = 0;
  let toolCallsRun = 0;
  let usage: Usage = { ...ZERO_USAGE };
  let route: string | undefined;
  const warnings: FlowResult['warnings'] = [];

  const newFrom = opts.newFrom ?? 0;
  // The live list, not a copy: listeners read it during the call (the trace encodes it at once), and copying it made every turn's cost grow with the conversation.
  emit({ type: 'history', messages, newFrom });

  const unfollow = controller.follow(opts.signal);
  const unStop = controller.onStop((cause) => emit({ type: 'stop', cause }));
  const deadline = new Deadline(
    limits.timeLimitMs,
    () =>
      controller.stop({
        kind: 'time_limit',
        message: `the time limit of ${+((limits.timeLimitMs ?? 0) / 1000).toFixed(2)} s ran out before a final answer`,
      }),
    limits.clock,
  );

  const warn = (code: WarningCode, message: string, iteration: number, toolCallId?: string): void => {
    warnings.push({ code, message, iteration });
    emit({ type: 'warning', iteration, code, message, ...(toolCallId ? { toolCallId } : {}) });
  };

  const finish = (reason: FlowReason, extra: { final?: string; error?: FlowResult['error'] } = {}): FlowResult => {
    const durationMs = Math.round(performance.now() - t0);
    if (reason === 'final' && extra.final !== undefined) emit({ type: 'final', answer: extra.final });
    emit({ type: 'end', reason, iterations, toolCalls, usage, durationMs });
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
  const modelFailure = (e: unknown, where: string): FlowResult => {
    const kind = e instanceof ModelError ? e.kind : undefined;
    const message = e instanceof ModelError && e.fix && !e.message.includes(e.fix) ? `${e.message} ${e.fix}` : errorText(e);
    emit({ type: 'error', message, where, ...(kind ? { kind } : {}) });
    return finish('model_error', { error: { message, ...(kind ? { kind } : {}) } });
  };

  const ownSafety = opts.safety ? undefined : new SafetyChain(robot);
  const callEnv = {
    safety: opts.safety ?? ownSafety!,
    stage,
    robot,
    state,
    limits,
    controller,
    gate,
    deadline: opts.turnDeadline
      ? {
          pause: () => (deadline.pause(), opts.turnDeadline!.pause()),
          resume: () => (deadline.resume(), opts.turnDeadline!.resume()),
        }
      : deadline,
    preemptor: opts.preemptor ?? new Preemptor(),
    emit,
    warn,
    ran: () => void toolCallsRun++,
  };

  deadline.resume();
  try {
    if (opts.classify && !controller.stopped) {
      try {
        const c = await untilAborted(opts.classify({ messages: messages.slice(), signal }), signal);
        route = c.route;
        usage = addUsage(usage, c.usage);
        emit({ type: 'route', route: c.route, ...(c.usage ? { usage: c.usage } : {}) });
      } catch (e) {
        if (controller.stopped) return finish(stoppedReason());
        return modelFailure(e, 'classify');
      }
    }

    for (let iteration = 0; iteration < limits.maxIterations; iteration++) {
      if (controller.stopped) return finish(stoppedReason());
      const view: FlowView = { iteration, messages, turnStart: newFrom, state, route };
      const tools = withCamera(await opts.tools(iteration, view), model, robot);
      const offered = new Map(tools.map((t) => [t.name, t] as const));
      emit({ type: 'iteration', iteration, tools: [...offered.keys()] });

      const choice = typeof opts.toolChoice === 'function' ? opts.toolChoice(view) : opts.toolChoice;
      const req: CompletionRequest = {
        // Not a copy: the flow adds nothing until the model answers (copies grew each turn's cost with the conversation).
        messages,
        signal,
        onText: (delta) => emit({ type: 'text', iteration, delta }),
        onReasoning: (delta) => emit({ type: 'reasoning', iteration, delta }),
        onRetry: (info) => emit({ type: 'retry', iteration, ...info }),
        // An empty tools array is rejected by some servers; omit it instead.
        ...(offered.size ? { tools: tools.map(modelTool) } : {}),
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
        // Over the size limit, the history and the trace keep only the start (the tool refuses it, saying why).
        const args = clipArguments(c.function.arguments);
        return id === c.id && args === c.function.arguments ? c : { ...c, id, function: { ...c.function, arguments: args } };
      });
      const text = completion.message.content ?? '';
      const assistant: AssistantMessage = {
        role: 'assistant',
        content: calls.length && !text ? null : text,
        ...(calls.length ? { tool_calls: calls } : {}),
      };
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
      const shots: Shot[] = [];
      for (const [i, call] of calls.entries()) {
        const r = await handleCall(callEnv, call, i, iteration, offered, opts.matchToolNames ? { matchToolNames: true } : {});
        messages.push({ role: 'tool', tool_call_id: call.id, content: r.content });
        if (r.images) shots.push({ id: call.id, name: call.function.name, images: r.images });
      }
      // After every tool message (they must follow the assistant turn): Chat Completions carries images in user messages only.
      const pictures = shots.length ? pictureMessage(shots, model) : undefined;
      if (pictures) {
        messages.push(pictures);
        dropOlderPictures(messages);
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
    ownSafety?.dispose();
    unStop();
    unfollow();
    for (const u of unsubscribe) u();
  }
}

export { DEFAULT_LIMITS };
export type { FlowEvent, FlowEventBody, FlowLimits, FlowReason };
