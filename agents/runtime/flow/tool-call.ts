// One tool call inside a flow: declined (stopped, over the per-iteration limit,
// unknown name, invalid arguments, not approved) or run with its own abort
// handle, so a workflow can preempt the running call without stopping the flow.
// Every path answers the call with the text of its tool message and reports it.
import { distance } from 'fastest-levenshtein';
import { didYouMeanOf } from '../../../base/did-you-mean';
import { jsonSafe } from '../../../base/json';
import type { ImagePart, ToolCall } from '../../models/model';
import type { Robot } from '../../../robot/robot';
import { clipResult } from '../../tools/limits';
import type { CodeRun, Tool, ToolContext, ToolResult } from '../../tools/tool';
import { type ApprovalDecision, type ApprovalGate, decide, refusalText } from '../approval';
import type { RunController } from '../controller';
import type { FlowEventBody } from '../events';
import type { SafetyChain } from '../safety/chain';
import type { ToolStatus, WarningCode } from '../trace';
import type { Deadline, FlowLimits } from './limits';
import { suggestTools, warningText } from './warnings';

/** Running tool calls a workflow may interrupt (paper 003's preemption): the call ends, the flow goes on. */
export class Preemptor {
  private readonly running = new Set<{ ctl: AbortController; reason: string | undefined }>();

  /** Aborts every call running now with `reason`; returns how many were running. */
  preempt(reason: string): number {
    for (const r of this.running) {
      r.reason = reason;
      r.ctl.abort(new Error(`preempted: ${reason}`));
    }
    return this.running.size;
  }

  get busy(): boolean {
    return this.running.size > 0;
  }

  /** A signal for one call that aborts with the flow's signal or a preemption. */
  track(parent: AbortSignal): { signal: AbortSignal; preempted: () => string | undefined; done: () => void } {
    const entry = { ctl: new AbortController(), reason: undefined as string | undefined };
    const onParent = () => entry.ctl.abort(parent.reason);
    if (parent.aborted) onParent();
    else parent.addEventListener('abort', onParent, { once: true });
    this.running.add(entry);
    return {
      signal: entry.ctl.signal,
      preempted: () => entry.reason,
      done: () => {
        this.running.delete(entry);
        parent.removeEventListener('abort', onParent);
      },
    };
  }
}

export interface CallEnv {
  stage: string;
  robot: Robot;
  state: Map<string, unknown>;
  limits: FlowLimits;
  controller: RunController;
  gate: ApprovalGate;
  /** Paused while a person decides or answers (the flow's budget and the turn's). */
  deadline: Pick<Deadline, 'pause' | 'resume'>;
  preemptor: Preemptor;
  /** Every skill a tool calls passes it (the one safety chain every acting call passes). */
  safety: SafetyChain;
  emit: (body: FlowEventBody) => void;
  warn: (code: WarningCode, message: string, iteration: number, toolCallId?: string) => void;
  /** Counts calls that actually ran. */
  ran: () => void;
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

export function errorText(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/**
 * The robot one call's tool sees: each skill passes the safety chain, whose
 * decisions and shadow divergences go onto the run's stream (and so the trace).
 * The call was approved by the gate already; a held action asks the same person.
 */
function guardedRobot(env: CallEnv, id: string, name: string, iteration: number, sandboxed = false): Robot {
  const ask = env.gate.ask;
  return env.safety.guard({
    via: sandboxed ? 'sandbox' : 'tool',
    tool: name,
    callId: id,
    approval: 'auto',
    ...(ask
      ? {
          ask: (q) => {
            env.deadline.pause();
            return ask({
              callId: id,
              tool: name,
              category: 'action',
              arguments: q.call,
              args: q.args,
              iteration,
              signal: q.signal,
              reason: q.reason,
            }).finally(() => env.deadline.resume());
          },
        }
      : {}),
    report: (d) => env.emit({ type: 'safety', ...d }),
    diverged: (d) => env.emit({ type: 'divergence', ...d }),
  });
}

/** How a call ended: the text its tool message carries, and what the trace records. */
export interface CallOutcome {
  ok: boolean;
  status: ToolStatus;
  content: string;
  data?: unknown;
  images?: ImagePart[];
}

/** Where a call comes from: the model's reply (index, offered tools), or a tool calling another (parent). */
export interface CallSite {
  index: number;
  iteration: number;
  offered: ReadonlyMap<string, Tool>;
  /** The call that made this one (code in the sandbox calling the robot API); its trace records name it. */
  parent?: string;
  /** Aborts this call besides the run's Stop and a preemption (the caller gave up on it). */
  signal?: AbortSignal;
  /** Run the one offered tool a misspelt name clearly means (RAIDER's fuzzy matching, paper 001 §4.1.2). */
  matchToolNames?: boolean;
}

/** Runs (or declines) one tool call and returns the text of its tool message, and the pictures it gave. */
export async function handleCall(
  env: CallEnv,
  call: ToolCall,
  index: number,
  iteration: number,
  offered: ReadonlyMap<string, Tool>,
  site: Partial<Pick<CallSite, 'matchToolNames'>> = {},
): Promise<{ content: string; images?: ImagePart[] }> {
  const r = await runCall(env, call, { index, iteration, offered, ...site });
  return { content: r.content, ...(r.images?.length ? { images: r.images } : {}) };
}

/** The one offered tool a misspelt name means: same letters ignoring case and separators, or one edit away. */
export function matchToolName(name: string, offered: readonly string[]): string | undefined {
  const norm = (s: string) => s.toLowerCase().replace(/[^a-z0-9]/g, '');
  const same = offered.filter((o) => norm(o) === norm(name));
  if (same.length === 1) return same[0];
  const near = offered.filter((o) => distance(norm(o), norm(name)) <= (norm(o).length > 8 ? 2 : 1));
  return near.length === 1 ? near[0] : undefined;
}

/** A tool called by another tool or by a workflow (not by the model): traced under `parent`, approved like any call. */
export function invokeTool(
  env: CallEnv,
  tool: Tool,
  args: unknown,
  o: { id: string; iteration: number; parent?: string; signal?: AbortSignal },
): Promise<CallOutcome> {
  let text: string;
  try {
    text = JSON.stringify(args ?? {});
  } catch {
    text = '{}';
  }
  const call: ToolCall = { id: o.id, type: 'function', function: { name: tool.name, arguments: text } };
  return runCall(env, call, {
    index: 0,
    iteration: o.iteration,
    offered: new Map([[tool.name, tool]]),
    ...(o.parent ? { parent: o.parent } : {}),
    ...(o.signal ? { signal: o.signal } : {}),
  });
}

/** Runs (or declines) one tool call; every path reports its start and end. */
export async function runCall(env: CallEnv, call: ToolCall, site: CallSite): Promise<CallOutcome> {
  const { controller, limits } = env;
  const { index, iteration } = site;
  let offered = site.offered;
  const { id } = call;
  let name = call.function.name;
  const parent = site.parent ? { parent: site.parent } : {};
  const started = performance.now();
  env.emit({ type: 'tool_start', iteration, id, name, arguments: call.function.arguments, ...parent });
  let nested = 0;
  const end = (status: ToolStatus, ok: boolean, full: string, data?: unknown, images?: ImagePart[]): CallOutcome => {
    const content = clipResult(full);
    const durationMs = Math.round(performance.now() - started);
    const safe = jsonSafe(data);
    env.emit({
      type: 'tool_end',
      iteration,
      id,
      name,
      ok,
      status,
      content,
      durationMs,
      ...(safe !== undefined ? { data: safe } : {}),
      ...(images?.length ? { images } : {}),
      ...parent,
    });
    return { ok, status, content, ...(safe !== undefined ? { data: safe } : {}), ...(images?.length ? { images } : {}) };
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

  let renamed = '';
  if (!offered.has(name) && site.matchToolNames) {
    const meant = matchToolName(name, [...offered.keys()]);
    if (meant) {
      renamed = `(There is no tool named "${name}"; ran ${meant}.) `;
      name = meant;
      offered = new Map([[meant, site.offered.get(meant)!]]);
    }
  }
  const tool = offered.get(name);
  if (!tool) {
    const names = [...offered.keys()];
    const near = suggestTools(name, names);
    const text = warningText(
      'made_up_tool_name',
      `there is no tool named "${name}".${didYouMeanOf(near)} Available tools: ${names.join(', ') || 'none'}. Call one of these, with its exact name.`,
    );
    env.warn('made_up_tool_name', text, iteration, id);
    return end('unknown_tool', false, text);
  }

  const parsed = tool.parse(call.function.arguments);
  if (!parsed.ok) {
    const text = warningText('unsuccessful_tool_call', parsed.message);
    env.warn('unsuccessful_tool_call', text, iteration, id);
    return end('invalid_arguments', false, text);
  }

  // The budget is the agent's time; a person deciding should not use it up.
  env.deadline.pause();
  let approval: ApprovalDecision;
  try {
    approval = await decide(env.gate, {
      callId: id,
      tool: name,
      category: tool.category,
      arguments: call.function.arguments,
      args: parsed.args,
      iteration,
      signal: controller.signal,
    });
  } catch {
    return end('stopped', false, `Not run: the run was stopped while waiting for approval of ${name}.`);
  } finally {
    if (!controller.stopped) env.deadline.resume();
  }
  if (approval.decision !== 'auto') {
    env.emit({
      type: 'approval',
      iteration,
      id,
      name,
      args: jsonSafe(parsed.args) ?? null,
      decision: approval.decision,
      ...(approval.note !== undefined ? { note: approval.note } : {}),
      ...('waitedMs' in approval ? { waitedMs: approval.waitedMs } : {}),
    });
    if (approval.decision !== 'approved') return end(approval.decision, false, refusalText(name, approval));
  }
  if (controller.stopped) return end('stopped', false, `Not run: the run was stopped (${controller.stopCause?.message}).`);

  env.ran();
  const handle = env.preemptor.track(site.signal ? AbortSignal.any([controller.signal, site.signal]) : controller.signal);
  const ctx: ToolContext = {
    // Code in the sandbox calling the robot API (a call with a parent) is traced as such.
    robot: guardedRobot(env, id, name, iteration, site.parent !== undefined),
    signal: handle.signal,
    state: env.state,
    stage: env.stage,
    // Calls this tool makes (a program's API calls) are traced under it, in this flow's stage.
    invoke: (inner, args, signal) =>
      invokeTool(env, inner, args, {
        id: `${id}.${++nested}`,
        iteration,
        parent: id,
        signal: signal ? AbortSignal.any([handle.signal, signal]) : handle.signal,
      }),
    codeRun: (run) => env.emit({ type: 'code_run', ...(jsonSafe(run) as CodeRun), toolCallId: id }),
  };
  let settled: Settled<ToolResult>;
  try {
    settled = await settleWithGrace<ToolResult>(
      Promise.resolve().then(() => tool.run(parsed.args, ctx)),
      handle.signal,
      limits.stopGraceMs,
    );
  } finally {
    handle.done();
  }
  const preempted = handle.preempted();
  if (preempted !== undefined && !controller.stopped) {
    // Delivered as the call's result, so the planner reads it where it looks (paper 003 names this gap).
    const what = settled.kind === 'done' ? ` ${name} reported: ${settled.value.content}` : '';
    return end('preempted', false, `Interrupted: ${preempted}.${what}`, settled.kind === 'done' ? settled.value.data : undefined);
  }
  if (settled.kind === 'done') {
    const r = settled.value;
    return end(r.ok ? 'ok' : 'failed', r.ok, renamed + r.content, r.data, r.images);
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
  env.warn('unsuccessful_tool_call', text, iteration, id);
  return end('exception', false, text);
}
