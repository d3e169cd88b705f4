// One event stream per run. Every flow (the main loop, a planner, an executor, a
// critic) reports what happens as events; the trace, the CLI printer, the app's
// run panel and tests are subscribers. Each event carries the stage path of the
// flow that produced it ("planner", "planner/executor"), so a multi-agent turn
// reads as a tree.
import type { AssistantMessage, ChatMessage, ImagePart, Usage } from '../models/model';
import type { CodeRun } from '../tools/tool';
import type { StopCause } from './controller';
import type { DivergenceReport, SafetyDecision } from './safety/chain';
import type { ToolStatus, WarningCode } from './trace';

export type FlowReason = 'final' | 'time_limit' | 'max_iterations' | 'stopped' | 'model_error';

type Body =
  /** The conversation a flow starts from; messages before `newFrom` are from earlier turns. The flow's own list: read it during the call (it grows afterwards), copy it to keep it. */
  | { type: 'history'; messages: readonly ChatMessage[]; newFrom: number }
  | { type: 'iteration'; iteration: number; tools: string[] }
  | { type: 'route'; route: string; usage?: Usage }
  | { type: 'text'; iteration: number; delta: string }
  | { type: 'reasoning'; iteration: number; delta: string }
  | { type: 'retry'; iteration: number; attempt: number; delayMs: number; reason: string }
  | { type: 'assistant'; iteration: number; message: AssistantMessage; usage?: Usage; reasoning?: string }
  /** `parent`: the call that made this one (a program's API call inside run_program). */
  | { type: 'tool_start'; iteration: number; id: string; name: string; arguments: string; parent?: string }
  | {
      type: 'approval';
      iteration: number;
      id: string;
      name: string;
      args: unknown;
      decision: 'approved' | 'rejected' | 'denied';
      note?: string;
      waitedMs?: number;
    }
  | {
      type: 'tool_end';
      iteration: number;
      id: string;
      name: string;
      ok: boolean;
      status: ToolStatus;
      content: string;
      durationMs: number;
      data?: unknown;
      /** Pictures the tool gave (base64 in memory); the trace keeps them as files beside it. */
      images?: ImagePart[];
      parent?: string;
    }
  | { type: 'warning'; iteration: number; code: WarningCode; message: string; toolCallId?: string }
  | { type: 'stop'; cause: StopCause }
  | { type: 'final'; answer: string }
  | { type: 'error'; message: string; kind?: string; where?: string }
  | { type: 'end'; reason: FlowReason; iterations: number; toolCalls: number; usage: Usage; durationMs: number }
  /** A workflow's own step: a hand-off, a critic's verdict, a preemption. */
  | { type: 'note'; text: string; data?: unknown }
  /** The safety chain decided about one skill call (allow, clamp, refuse, ask). */
  | ({ type: 'safety' } & SafetyDecision)
  /** Shadow mode: what the simulator predicted and what the robot reported differ. */
  | ({ type: 'divergence' } & DivergenceReport)
  /** A sandboxed program ran (inside the tool call `toolCallId`, or as a workflow step). */
  | ({ type: 'code_run'; toolCallId?: string } & CodeRun)
  /** The workflow asked the person; `answer` follows. */
  | { type: 'ask'; id: string; question: string }
  | { type: 'answer'; id: string; answer: string; by: 'person' | 'simulated' | 'none' };

export type FlowEvent = Body & { stage: string };
export type FlowEventBody = Body;

export type FlowListener = (event: FlowEvent) => void;

/** Fans events out to listeners; a listener that throws is reported once and kept away from the run. */
export class EventStream {
  private readonly listeners = new Set<FlowListener>();
  /** The listeners as of the last change: an emit calls those subscribed when it began, without copying the set each time. */
  private current: readonly FlowListener[] = [];

  subscribe(listener: FlowListener): () => void {
    this.listeners.add(listener);
    this.current = [...this.listeners];
    return () => this.remove(listener);
  }

  private remove(listener: FlowListener): boolean {
    const had = this.listeners.delete(listener);
    this.current = [...this.listeners];
    return had;
  }

  emit(event: FlowEvent): void {
    for (const l of this.current) {
      try {
        l(event);
      } catch (err) {
        // A UI bug must not break the robot's run; leave a note for the other listeners (the trace).
        this.remove(l);
        const text = `an event listener failed and was removed: ${err instanceof Error ? err.message : String(err)}`;
        this.emit({ type: 'error', stage: event.stage, message: text, where: 'listener' });
      }
    }
  }

  /** An emitter bound to one stage. */
  at(stage: string): (body: Body) => void {
    return (body) => this.emit({ ...body, stage } as FlowEvent);
  }
}

/** Joins stage paths: "" + "planner" = "planner"; "planner" + "executor" = "planner/executor". */
export function childStage(parent: string, stage: string): string {
  return parent ? `${parent}/${stage}` : stage;
}
