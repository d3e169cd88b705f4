// Reading what happened in a case from its event stream (the same events the
// JSONL trace records): the tool calls in order with their results, and the
// final answer. Scorers use these for "the order of events in the trace".
import type { FlowEvent } from '../../agents/runtime/events';
import type { ToolStatus } from '../../agents/runtime/trace';

export interface CallRecord {
  id: string;
  name: string;
  /** Parsed arguments; the raw text when they were not JSON. */
  args: unknown;
  raw: string;
  stage: string;
  ok: boolean;
  status: ToolStatus | 'unfinished';
  content: string;
  data: unknown;
  durationMs: number;
}

function parseArgs(raw: string): unknown {
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    return raw;
  }
}

/** Tool calls in the order they started, each with how it ended. */
export function callsOf(events: readonly FlowEvent[]): CallRecord[] {
  const out: CallRecord[] = [];
  const byId = new Map<string, CallRecord>();
  for (const e of events) {
    if (e.type === 'tool_start') {
      const r: CallRecord = {
        id: e.id,
        name: e.name,
        args: parseArgs(e.arguments),
        raw: e.arguments,
        stage: e.stage,
        ok: false,
        status: 'unfinished',
        content: '',
        data: undefined,
        durationMs: 0,
      };
      out.push(r);
      byId.set(`${e.stage}#${e.id}`, r);
    } else if (e.type === 'tool_end') {
      const r = byId.get(`${e.stage}#${e.id}`);
      if (r) {
        r.ok = e.ok;
        r.status = e.status;
        r.content = e.content;
        r.data = e.data;
        r.durationMs = e.durationMs;
      }
    }
  }
  return out;
}

/** The last final answer of a stage ('' = the main loop of a single-loop workflow), or of any stage. */
export function finalOf(events: readonly FlowEvent[], stage?: string): string | undefined {
  let last: string | undefined;
  for (const e of events) if (e.type === 'final' && (stage === undefined || e.stage === stage)) last = e.answer;
  return last;
}

/** A string argument of a call, whichever of the names it goes by. */
export function argOf(call: CallRecord, ...names: string[]): string | undefined {
  if (typeof call.args !== 'object' || call.args === null) return undefined;
  const a = call.args as Record<string, unknown>;
  for (const n of names) if (typeof a[n] === 'string') return a[n];
  return undefined;
}

/** Time spent inside tools (the robot's skills and perception), over every call. */
export function toolMs(events: readonly FlowEvent[]): number {
  let ms = 0;
  for (const e of events) if (e.type === 'tool_end') ms += e.durationMs;
  return ms;
}

/** Calls the flow rejected for their arguments (a parameter out of its range, a missing field). */
export function invalidCalls(events: readonly FlowEvent[]): CallRecord[] {
  return callsOf(events).filter((c) => c.status === 'invalid_arguments');
}

/** Whether any flow of the case (the main loop or a sub-agent) ended because its model failed. */
export function modelFailed(events: readonly FlowEvent[]): boolean {
  return events.some((e) => e.type === 'end' && e.reason === 'model_error');
}
