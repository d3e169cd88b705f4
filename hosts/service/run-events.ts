// A run's flow events as the app's run events (contract/schemas.ts RunEvent):
// the stage rides on every one, so the trace panel can nest planner, executor
// and critic; deltas stream; ids of asks are made unique per run.
import type { RunEvent } from '../../contract/schemas';
import type { FlowEvent } from '../../agents/runtime/events';
import { pictureFileName } from '../../agents/runtime/trace-recorder';
import type { RunPicture } from '../../contract/pictures';

/** The arguments a model sent, parsed when they are JSON (the panel shows them as a value). */
export function parseArgs(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/** The run event for one flow event, or undefined for events the app does not show. */
export function runEventOf(e: FlowEvent, runId: string): RunEvent | undefined {
  const stage = e.stage ? { stage: e.stage } : {};
  switch (e.type) {
    case 'text':
      return { kind: 'text_delta', runId, ...stage, iteration: e.iteration, text: e.delta };
    case 'reasoning':
      return { kind: 'reasoning_delta', runId, ...stage, iteration: e.iteration, text: e.delta };
    case 'assistant':
      return {
        kind: 'assistant',
        runId,
        ...stage,
        iteration: e.iteration,
        text: e.message.content ?? null,
        usage: e.usage ?? null,
        ...(e.reasoning ? { reasoning: e.reasoning } : {}),
      };
    case 'tool_start':
      return {
        kind: 'tool_call',
        runId,
        ...stage,
        callId: e.id,
        iteration: e.iteration,
        name: e.name,
        args: parseArgs(e.arguments),
        ...(e.parent ? { parent: e.parent } : {}),
      };
    case 'tool_end':
      return {
        kind: 'tool_result',
        runId,
        ...stage,
        callId: e.id,
        name: e.name,
        ok: e.ok,
        status: e.status,
        content: e.content,
        durationMs: Math.round(e.durationMs),
        ...(e.images?.length ? { pictures: picturesOf(e) } : {}),
      };
    case 'approval':
      return { kind: 'approval', runId, callId: e.id, tool: e.name, decision: e.decision, ...(e.note ? { note: e.note } : {}) };
    case 'warning':
      return { kind: 'warning', runId, ...stage, code: e.code, message: e.message, ...(e.toolCallId ? { callId: e.toolCallId } : {}) };
    case 'answer':
      return { kind: 'answer', runId, id: `${runId}/${e.id}`, answer: e.answer, by: e.by };
    case 'note':
      return { kind: 'note', runId, ...stage, text: e.text, ...(e.data !== undefined ? { data: e.data } : {}) };
    case 'code_run': {
      const { type: _t, stage: _s, toolCallId, ...run } = e;
      return { kind: 'code_run', runId, ...stage, ...run, ...(toolCallId ? { callId: toolCallId } : {}) };
    }
    case 'stop':
      return { kind: 'stop', runId, ...stage, message: e.cause.message };
    case 'divergence':
      return {
        kind: 'divergence',
        runId,
        subject: e.subject,
        predicted: e.predicted,
        actual: e.actual,
        ...(e.callId ? { callId: e.callId } : {}),
      };
    case 'error':
      return { kind: 'error', runId, ...stage, message: e.message };
    default:
      return undefined;
  }
}

/** A call's pictures by the names its trace keeps them under (the page asks for their bytes by these). */
function picturesOf(e: Extract<FlowEvent, { type: 'tool_end' }>): RunPicture[] {
  const time = (e.data as { picture?: { time?: unknown } } | undefined)?.picture?.time;
  return (e.images ?? []).map((i, n) => ({
    id: pictureFileName(e.id, e.stage, n + 1, i.mimeType),
    mimeType: i.mimeType,
    width: i.width ?? null,
    height: i.height ?? null,
    simTime: typeof time === 'number' && Number.isFinite(time) ? time : null,
  }));
}
