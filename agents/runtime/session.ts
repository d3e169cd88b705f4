// A session: one robot (its world kept between turns) and one conversation that
// grows turn by turn, so a person can refer back ("now put it in the bowl"), as
// the Robotic Tool Workflows keep their chat history (paper 000 §II.C). Each
// turn is one run of the flow manager with its own trace file. What the model is
// told and which tools it sees are the workflow's business; the session only
// holds state and runs turns.
import { join } from 'node:path';
import type { ChatMessage, Model } from '../models/model';
import type { Robot } from '../../robot/robot';
import type { Tool } from '../tools/tool';
import type { ApprovalGate } from './approval';
import { RunController } from './controller';
import {
  type ClassifyResult,
  type FlowEvent,
  type FlowLimits,
  type FlowResult,
  type FlowView,
  type ToolChoice,
  mergeLimits,
  runFlow,
} from './flow';
import { JsonlSink, Trace, type TraceSink, newRunId } from './trace';

/** What a workflow's hooks see at each iteration. */
export interface WorkflowContext extends FlowView {
  robot: Robot;
}

export interface ClassifyRequest {
  model: Model;
  robot: Robot;
  /** The conversation including the new user message. */
  messages: readonly ChatMessage[];
  userText: string;
  signal: AbortSignal;
}

/**
 * A pre-defined code path over a model and tools (papers 000, 001): the system
 * prompt, the tools offered at each iteration, the limits, and optionally a
 * classify step whose label (`ctx.route`) picks a branch of a tool hierarchy.
 */
export interface Workflow {
  readonly id: string;
  readonly title: string;
  readonly description: string;
  systemPrompt(robot: Robot): string;
  tools(ctx: WorkflowContext): readonly Tool[] | Promise<readonly Tool[]>;
  readonly limits?: Partial<FlowLimits>;
  toolChoice?(ctx: WorkflowContext): ToolChoice | undefined;
  /** Overrides the flow's Warning 1 check (e.g. RAIDER's `final_response` JSON). */
  looksFinal?(text: string): boolean;
  classify?(req: ClassifyRequest): Promise<ClassifyResult>;
}

export interface RunInfo {
  runId: string;
  sessionId: string;
  turn: number;
}

export interface SessionOptions {
  model: Model;
  workflow: Workflow;
  robot: Robot;
  /** Builds a fresh robot and world; needed for `reset({ world: 'rebuild' })`. */
  openRobot?: () => Promise<Robot>;
  approval?: ApprovalGate;
  /** Override the workflow's limits. */
  limits?: Partial<FlowLimits>;
  /** One JSONL trace per turn is written here (`<runId>.jsonl`). */
  traceDir?: string;
  /** More sinks per run (a live UI, a MemorySink in tests). */
  traceSinks?: (run: RunInfo) => TraceSink[];
  /** For the trace header; default the robot's scene id. */
  scene?: string;
  seed?: number;
  onEvent?: (event: FlowEvent) => void;
  id?: string;
}

export interface SendOptions {
  signal?: AbortSignal;
  onEvent?: (event: FlowEvent) => void;
  approval?: ApprovalGate;
  limits?: Partial<FlowLimits>;
}

export interface TurnResult extends FlowResult {
  runId: string;
  turn: number;
  tracePath: string | undefined;
}

export class SessionBusyError extends Error {}

export class Session {
  readonly id: string;
  /** Tool scratch space kept across turns (e.g. the event cursor of check_events). */
  readonly state = new Map<string, unknown>();
  private currentRobot: Robot;
  private history: ChatMessage[];
  private turns = 0;
  private running: { controller: RunController; done: Promise<unknown> } | undefined;

  constructor(private readonly opts: SessionOptions) {
    this.id = opts.id ?? newRunId().slice(-6);
    this.currentRobot = opts.robot;
    this.history = this.freshHistory();
  }

  /** Opens the robot first, so `reset({ world: 'rebuild' })` can build it again. */
  static async open(opts: Omit<SessionOptions, 'robot'> & { openRobot: () => Promise<Robot> }): Promise<Session> {
    return new Session({ ...opts, robot: await opts.openRobot() });
  }

  get robot(): Robot {
    return this.currentRobot;
  }

  get workflow(): Workflow {
    return this.opts.workflow;
  }

  get messages(): readonly ChatMessage[] {
    return this.history;
  }

  get busy(): boolean {
    return this.running !== undefined;
  }

  /** Turns sent since the session opened or was last reset. */
  get turn(): number {
    return this.turns;
  }

  /** Runs one turn: the user's message, then the flow until a final answer or a limit. */
  async send(userText: string, o: SendOptions = {}): Promise<TurnResult> {
    if (this.running) throw new SessionBusyError('a turn is already running; stop it or wait for it to finish');
    const wf = this.opts.workflow;
    const robot = this.currentRobot;
    const controller = new RunController();
    const turn = this.turns + 1;
    const runId = newRunId();
    const info: RunInfo = { runId, sessionId: this.id, turn };
    const tracePath = this.opts.traceDir ? join(this.opts.traceDir, `${runId}.jsonl`) : undefined;
    const sinks: TraceSink[] = [...(tracePath ? [new JsonlSink(tracePath)] : []), ...(this.opts.traceSinks?.(info) ?? [])];
    const trace = sinks.length
      ? new Trace({
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

    this.turns = turn;
    // A turn the model never answered (unreachable, stopped at once) left the
    // user's message last. The new one joins it: strict chat templates need
    // user and assistant to alternate, and "try again" needs the request it repeats.
    const last = this.history[this.history.length - 1];
    if (last?.role === 'user') this.history.pop();
    const newFrom = this.history.length;
    this.history.push({ role: 'user', content: last?.role === 'user' ? `${last.content}\n\n${userText}` : userText });
    const listeners = [this.opts.onEvent, o.onEvent].filter((l) => l !== undefined);
    const onEvent = listeners.length
      ? (e: FlowEvent) => {
          for (const l of listeners) l(e);
        }
      : undefined;
    const ctx = (view: FlowView): WorkflowContext => ({ ...view, robot });
    const classify = wf.classify?.bind(wf);
    const toolChoice = wf.toolChoice?.bind(wf);
    const looksFinal = wf.looksFinal?.bind(wf);
    const done = runFlow({
      model: this.opts.model,
      messages: this.history,
      tools: (_iteration, view) => wf.tools(ctx(view)),
      robot,
      state: this.state,
      limits: mergeLimits(wf.limits, this.opts.limits, o.limits),
      controller,
      newFrom,
      ...(o.signal ? { signal: o.signal } : {}),
      ...(trace ? { trace } : {}),
      ...(onEvent ? { onEvent } : {}),
      ...((o.approval ?? this.opts.approval) ? { approval: o.approval ?? this.opts.approval } : {}),
      ...(toolChoice ? { toolChoice: (view: FlowView) => toolChoice(ctx(view)) } : {}),
      ...(looksFinal ? { looksFinal } : {}),
      ...(classify
        ? {
            classify: (req: { messages: readonly ChatMessage[]; signal: AbortSignal }) =>
              classify({ model: this.opts.model, robot, userText, ...req }),
          }
        : {}),
    });
    this.running = { controller, done };
    try {
      const result = await done;
      if (result.reason !== 'final') this.dropStaleWarnings(newFrom);
      return { ...result, runId, turn, tracePath };
    } finally {
      this.running = undefined;
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
      controller.stop('stopped: the session was reset');
      await done.catch(() => undefined);
    }
    if (o.world === 'rebuild') {
      if (!this.opts.openRobot) throw new Error('this session cannot rebuild its world: it was made without openRobot');
      this.currentRobot = await this.opts.openRobot();
    }
    this.state.clear();
    this.turns = 0;
    this.history = this.freshHistory();
  }

  /**
   * A turn that ended without an answer may end on a warning written as a user
   * message; it spoke to that turn only, so it leaves the history (the trace keeps it).
   */
  private dropStaleWarnings(turnStart: number): void {
    while (this.history.length > turnStart + 1 && this.history[this.history.length - 1]?.role === 'user') this.history.pop();
  }

  private freshHistory(): ChatMessage[] {
    const prompt = this.opts.workflow.systemPrompt(this.currentRobot);
    return prompt ? [{ role: 'system', content: prompt }] : [];
  }
}
