// A conversation: one robot (its world kept between turns), one workflow, and
// the histories its stages keep, turn by turn. Each turn runs the workflow's
// program with a fresh Stop handle and its own trace file; everything the flows
// do goes onto one event stream that the trace, the host's view and tests read.
import { join } from 'node:path';
import { z } from 'zod';
import type { ChatMessage, Model } from '../models/model';
import type { Robot } from '../../robot/robot';
import { type Tool, defineTool } from '../tools/tool';
import { AUTO_APPROVE, type ApprovalGate } from './approval';
import { RunController, untilAborted } from './controller';
import { EventStream, type FlowEvent, type FlowListener, childStage } from './events';
import { Deadline, type FlowLimits, type FlowResult, Preemptor, mergeLimits, runFlow } from './flow';
import { type CallEnv, invokeTool } from './flow/tool-call';
import { Memory } from './memory';
import { Totals } from './turn-totals';
import { JsonlSink, Trace, type TraceSink, newRunId } from './trace';
import { recordEvents } from './trace-recorder';
import { SafetyChain, type SafetyOptions } from './safety/chain';
import type { AgentToolSpec, FlowSpec, Workflow, WorkflowRun } from './workflow';

export interface RunInfo {
  runId: string;
  sessionId: string;
  turn: number;
}

/** Someone to ask: a dialog, the terminal, or a simulated user in evaluation. */
export type AskUser = (q: { id: string; question: string; stage: string; signal: AbortSignal }) => Promise<{
  answer: string;
  by: 'person' | 'simulated';
}>;

export interface ConversationOptions {
  model: Model;
  workflow: Workflow;
  robot: Robot;
  /** Builds a fresh robot and world; needed for `reset({ world: 'rebuild' })`. */
  openRobot?: () => Promise<Robot>;
  approval?: ApprovalGate;
  /** Overrides every flow's limits (a host's --time-limit, --max-iterations). */
  limits?: Partial<FlowLimits>;
  /** One JSONL trace per turn is written here (`<runId>.jsonl`). */
  traceDir?: string;
  /** More sinks per turn (a live UI, a MemorySink in tests). */
  traceSinks?: (run: RunInfo) => TraceSink[];
  /** Replaces the workflow's main system prompt (a person edited it). */
  systemPrompt?: string;
  askUser?: AskUser;
  /** For the trace header; default the robot's scene id. */
  scene?: string;
  seed?: number;
  onEvent?: FlowListener;
  id?: string;
  /** The safety chain's limits, and shadow mode's predictor (robot/shadow), for every skill any flow calls. */
  safety?: SafetyOptions;
}

export interface SendOptions {
  signal?: AbortSignal;
  onEvent?: FlowListener;
  approval?: ApprovalGate;
  limits?: Partial<FlowLimits>;
}

/** A turn's outcome: `messages` is the main stage's conversation; the counts are totals over every flow. */
export interface TurnResult extends FlowResult {
  runId: string;
  turn: number;
  tracePath: string | undefined;
  /** The trace could not be written (the run was stopped there): why. */
  traceError?: string;
}

export class ConversationBusyError extends Error {}

export class Conversation {
  readonly id: string;
  /** Tool scratch space kept across turns (e.g. the event cursor of check_events). */
  readonly state = new Map<string, unknown>();
  private currentRobot: Robot;
  private safety: SafetyChain;
  private readonly memories = new Map<string, Memory>();
  private mainStage: string | undefined;
  private turns = 0;
  private running: { controller: RunController; done: Promise<unknown> } | undefined;

  constructor(private readonly opts: ConversationOptions) {
    this.id = opts.id ?? newRunId().slice(-6);
    this.currentRobot = opts.robot;
    this.safety = new SafetyChain(opts.robot, opts.safety);
  }

  /** Opens the robot first, so `reset({ world: 'rebuild' })` can build it again. */
  static async open(opts: Omit<ConversationOptions, 'robot'> & { openRobot: () => Promise<Robot> }): Promise<Conversation> {
    return new Conversation({ ...opts, robot: await opts.openRobot() });
  }

  get robot(): Robot {
    return this.currentRobot;
  }

  get workflow(): Workflow {
    return this.opts.workflow;
  }

  get model(): Model {
    return this.opts.model;
  }

  /** The main stage's history (the first stage that keeps one). */
  get messages(): readonly ChatMessage[] {
    return (this.mainStage !== undefined ? this.memories.get(this.mainStage)?.messages : undefined) ?? this.initialMessages();
  }

  get busy(): boolean {
    return this.running !== undefined;
  }

  /** Turns sent since the conversation opened or was last reset. */
  get turn(): number {
    return this.turns;
  }

  /** Runs one turn: the workflow's program on the user's message, until it answers or stops. */
  async send(userText: string, o: SendOptions = {}): Promise<TurnResult> {
    if (this.running) throw new ConversationBusyError('a turn is already running; stop it or wait for it to finish');
    const wf = this.opts.workflow;
    const robot = this.currentRobot;
    const controller = new RunController();
    const turn = this.turns + 1;
    const runId = newRunId();
    const info: RunInfo = { runId, sessionId: this.id, turn };
    const tracePath = this.opts.traceDir ? join(this.opts.traceDir, `${runId}.jsonl`) : undefined;
    const sinks: TraceSink[] = [...(tracePath ? [new JsonlSink(tracePath, { spare: true })] : []), ...(this.opts.traceSinks?.(info) ?? [])];
    const events = new EventStream();
    let traceError: string | undefined;
    const trace = sinks.length
      ? new Trace({
          // A record that cannot be written stops the run: nothing may happen that the trace says nothing of.
          onFailure: (e) => {
            traceError = `the trace could not be written: ${e instanceof Error ? e.message : String(e)}`;
            controller.stop(traceError);
          },
          header: {
            runId,
            scene: this.opts.scene ?? robot.info.scene.id,
            workflow: wf.id,
            model: this.opts.model.id,
            seed: this.opts.seed ?? null,
            session: this.id,
            turn,
          },
          sinks,
        })
      : undefined;
    const unsubscribe = [
      ...(trace ? [recordEvents(events, trace)] : []),
      ...[this.opts.onEvent, o.onEvent].filter((l) => l !== undefined).map((l) => events.subscribe(l)),
    ];
    this.turns = turn;
    // What the person accepted at start (--accept-no-estop) opens every turn's trace.
    this.safety.startRecord({ via: 'direct', report: (d) => events.emit({ type: 'safety', stage: '', ...d }) });
    const unfollow = controller.follow(o.signal);
    const totals = new Totals();
    // A host's time limit bounds the whole turn — every flow, and what runs between them (a
    // workflow's recovery plan, a sandboxed program) — not only each flow by itself.
    const hostLimit = o.limits?.timeLimitMs !== undefined ? o.limits.timeLimitMs : this.opts.limits?.timeLimitMs;
    const turnDeadline =
      hostLimit != null
        ? new Deadline(
            hostLimit,
            () =>
              controller.stop({
                kind: 'time_limit',
                message: `the time limit of ${+(hostLimit / 1000).toFixed(2)} s for the turn ran out`,
              }),
            o.limits?.clock ?? this.opts.limits?.clock,
          )
        : undefined;
    let flowsRunning = 0;
    // A stop while no flow runs (the workflow's own code) is recorded here; a flow records its own.
    const unStop = controller.onStop((cause) => {
      if (flowsRunning === 0) events.emit({ type: 'stop', cause, stage: '' });
    });
    unsubscribe.push(unStop);
    const ctx = this.workflowRun({
      robot,
      userText,
      events,
      controller,
      totals,
      send: o,
      ...(turnDeadline ? { turnDeadline } : {}),
      flows: (d) => (flowsRunning += d),
    });
    turnDeadline?.resume();
    const t0 = performance.now();
    const done = wf.run(ctx);
    this.running = { controller, done };
    try {
      let outcome;
      try {
        outcome = await done;
      } catch (e) {
        // A workflow's own bug ends the turn with the reason; the conversation stays usable.
        const message = e instanceof Error ? e.message : String(e);
        events.emit({ type: 'error', stage: '', message, where: 'workflow' });
        outcome = { reason: controller.stopped ? ('stopped' as const) : ('model_error' as const), final: undefined, error: { message } };
      }
      return {
        reason: outcome.reason,
        final: outcome.final,
        messages: [...this.messages],
        ...totals.value(),
        durationMs: Math.round(performance.now() - t0),
        ...(controller.stopCause ? { stopped: controller.stopCause } : {}),
        ...(outcome.error ? { error: outcome.error } : {}),
        ...(traceError ? { traceError } : {}),
        runId,
        turn,
        tracePath,
      };
    } finally {
      turnDeadline?.pause();
      this.running = undefined;
      unfollow();
      for (const u of unsubscribe) u();
      trace?.close();
    }
  }

  /** Stops the running turn (model request, tool or approval wait); no-op when idle. */
  stop(reason = 'stopped by the user'): void {
    this.running?.controller.stop(reason);
  }

  /**
   * Forgets the conversation and the tools' scratch state (a running turn is
   * stopped first). The world is kept unless `world: 'rebuild'`, which opens a
   * fresh robot with `openRobot`.
   */
  async reset(o: { world?: 'keep' | 'rebuild' } = {}): Promise<void> {
    if (this.running) {
      const { controller, done } = this.running;
      controller.stop('stopped: the conversation was reset');
      await done.catch(() => undefined);
    }
    if (o.world === 'rebuild') {
      if (!this.opts.openRobot) throw new Error('this conversation cannot rebuild its world: it was made without openRobot');
      this.currentRobot = await this.opts.openRobot();
      this.safety.dispose();
      this.safety = new SafetyChain(this.currentRobot, this.opts.safety);
    }
    this.state.clear();
    this.turns = 0;
    this.memories.clear();
    this.mainStage = undefined;
  }

  private initialMessages(): ChatMessage[] {
    const prompt = this.opts.systemPrompt ?? this.opts.workflow.systemPrompt(this.currentRobot);
    return prompt ? [{ role: 'system', content: prompt }] : [];
  }

  /** The context one turn's program gets. */
  private workflowRun(t: {
    robot: Robot;
    userText: string;
    events: EventStream;
    controller: RunController;
    totals: Totals;
    send: SendOptions;
    turnDeadline?: Deadline;
    flows: (delta: number) => void;
  }): WorkflowRun {
    const { robot, userText, events, controller, totals, send } = t;
    const preemptor = new Preemptor();
    const approval = send.approval ?? this.opts.approval;
    let asks = 0;
    let invoked = 0;
    const runStage = async (spec: FlowSpec, parent: string, signal: AbortSignal): Promise<FlowResult> => {
      const stage = childStage(parent, spec.stage);
      let messages: ChatMessage[];
      let newFrom = 0;
      let memory: Memory | undefined;
      if (spec.memory) {
        memory = this.memories.get(stage);
        if (!memory) {
          memory = new Memory(spec.system);
          this.memories.set(stage, memory);
          this.mainStage ??= stage;
        }
        newFrom = memory.begin(spec.input ?? userText, spec.images);
        messages = memory.messages;
      } else if (spec.messages) {
        messages = spec.messages;
        // What the caller's list held already was traced by the flow that wrote it.
        newFrom = messages.length && spec.input !== undefined ? messages.length : 0;
        if (spec.input !== undefined) messages.push({ role: 'user', content: spec.input, ...(spec.images ? { images: spec.images } : {}) });
      } else {
        messages = [
          ...(spec.system ? [{ role: 'system' as const, content: spec.system }] : []),
          { role: 'user', content: spec.input ?? userText, ...(spec.images ? { images: spec.images } : {}) },
        ];
      }
      const tools = spec.tools;
      t.flows(1);
      const r = await runFlow({
        ...(t.turnDeadline ? { turnDeadline: t.turnDeadline } : {}),
        model: spec.model ?? this.opts.model,
        messages,
        tools: typeof tools === 'function' ? tools : () => tools,
        robot,
        stage,
        state: this.state,
        limits: mergeLimits(spec.limits, this.opts.limits, send.limits),
        events,
        signal: spec.signal ? AbortSignal.any([signal, spec.signal]) : signal,
        preemptor,
        newFrom,
        safety: this.safety,
        ...(approval ? { approval } : {}),
        ...(spec.toolChoice ? { toolChoice: spec.toolChoice } : {}),
        ...(spec.classify ? { classify: spec.classify } : {}),
        ...(spec.looksFinal ? { looksFinal: spec.looksFinal } : {}),
        ...(spec.matchToolNames ? { matchToolNames: true } : {}),
        ...(spec.temperature !== undefined ? { temperature: spec.temperature } : {}),
      }).finally(() => t.flows(-1));
      if (memory && r.reason !== 'final') memory.endWithoutAnswer(newFrom);
      totals.add(r);
      return r;
    };
    const agentTool = (spec: AgentToolSpec): Tool =>
      defineTool({
        name: spec.name,
        description: spec.description,
        category: spec.category ?? 'action',
        params: z.strictObject({ task: z.string().min(1).describe('what the agent should do, in plain words') }),
        card: {
          outputs: "the agent's final report, or why it ended without one",
          whenToUse: spec.description,
          dimension: 'reasoning',
          tags: ['agent', 'delegate'],
        },
        execute: async ({ task }, tctx) => {
          const r = await runStage(
            {
              stage: spec.stage,
              system: spec.system,
              input: task,
              tools: spec.tools,
              ...(spec.model ? { model: spec.model } : {}),
              ...(spec.limits ? { limits: spec.limits } : {}),
              ...(spec.looksFinal ? { looksFinal: spec.looksFinal } : {}),
            },
            tctx.stage ?? '',
            tctx.signal,
          );
          const ok = r.reason === 'final';
          return {
            ok,
            content: ok ? r.final! : `The ${spec.name} agent ended without a report (${r.reason}${r.error ? `: ${r.error.message}` : ''}).`,
            data: { reason: r.reason, iterations: r.iterations, toolCallsRun: r.toolCallsRun },
          };
        },
      });
    return {
      // A workflow's own skill calls pass the chain too, reported on the main stage.
      robot: this.safety.guard({
        via: 'direct',
        report: (d) => events.emit({ type: 'safety', stage: '', ...d }),
        diverged: (d) => events.emit({ type: 'divergence', stage: '', ...d }),
      }),
      model: this.opts.model,
      userText,
      state: this.state,
      signal: controller.signal,
      promptOverride: this.opts.systemPrompt,
      flow: (spec) => runStage(spec, '', controller.signal),
      askUser: async (question, stage = '') => {
        const id = `ask_${++asks}`;
        events.emit({ type: 'ask', stage, id, question });
        const ask = this.opts.askUser;
        if (!ask) {
          events.emit({ type: 'answer', stage, id, answer: '', by: 'none' });
          return '';
        }
        const a = await untilAborted(ask({ id, question, stage, signal: controller.signal }), controller.signal);
        events.emit({ type: 'answer', stage, id, answer: a.answer, by: a.by });
        return a.answer;
      },
      note: (text, data, stage = '') => events.emit({ type: 'note', stage, text, ...(data !== undefined ? { data } : {}) }),
      agentTool,
      preempt: (reason) => preemptor.preempt(reason),
      invoke: (tool, args, o) => {
        const emit = events.at(o.stage);
        const env: CallEnv = {
          stage: o.stage,
          robot,
          state: this.state,
          limits: mergeLimits(this.opts.limits, send.limits),
          controller,
          gate: approval ?? AUTO_APPROVE,
          // The program's own limits bound it; the calls it makes have no flow budget of their own.
          deadline: t.turnDeadline ?? new Deadline(null, () => undefined),
          preemptor,
          safety: this.safety,
          emit,
          warn: (code, message, iteration, toolCallId) =>
            emit({ type: 'warning', iteration, code, message, ...(toolCallId ? { toolCallId } : {}) }),
          ran: () => totals.ran(),
        };
        return invokeTool(env, tool, args, {
          id: `${o.parent ?? 'step'}.${++invoked}`,
          iteration: 0,
          ...(o.parent ? { parent: o.parent } : {}),
          ...(o.signal ? { signal: o.signal } : {}),
        });
      },
      codeRun: (run, stage = '') => events.emit({ type: 'code_run', stage, ...run }),
    };
  }
}

export type { FlowEvent };
