// What the agent panel shows of a run, built either live from the host's run
// events or from an imported trace (read-only replay): the same entries either way.
import type { ImportedTrace, RunEndReason, RunEvent, TokenUsage, TraceLineInfo } from '../../../contract/schemas';

export interface ToolEntry {
  k: 'tool';
  callId: string;
  name: string;
  args: unknown;
  iteration: number;
  result?: { ok: boolean; status: string; content: string; durationMs: number };
  warnings: string[];
  approval?: string;
}

export type Entry =
  | { k: 'user'; text: string }
  | { k: 'assistant'; iteration: number; text: string; reasoning: string; streaming: boolean; usage: TokenUsage | null }
  | ToolEntry
  | { k: 'warning'; code: string; message: string }
  | { k: 'approval'; id: string; tool: string; args: unknown; reason: string; answered?: 'approve' | 'reject' }
  | { k: 'stop'; message: string }
  | { k: 'error'; message: string }
  | {
      k: 'end';
      reason: RunEndReason;
      text: string;
      detail: string;
      iterations: number;
      toolCalls: number;
      usage: TokenUsage;
      durationMs: number;
    };

export interface RunView {
  runId: string;
  model: string;
  workflow: string;
  tracePath: string | null;
  running: boolean;
  imported: boolean;
  entries: Entry[];
}

export function newRun(runId: string, message: string, model = '', workflow = ''): RunView {
  return { runId, model, workflow, tracePath: null, running: true, imported: false, entries: [{ k: 'user', text: message }] };
}

function findTool(entries: Entry[], callId: string): number {
  for (let i = entries.length - 1; i >= 0; i--) {
    const e = entries[i]!;
    if (e.k === 'tool' && e.callId === callId) return i;
  }
  return -1;
}

function patchTool(entries: Entry[], callId: string, patch: (t: ToolEntry) => ToolEntry): Entry[] {
  const i = findTool(entries, callId);
  if (i < 0) return entries;
  const out = entries.slice();
  out[i] = patch(out[i] as ToolEntry);
  return out;
}

/** Applies one live run event (immutably). */
export function applyEvent(view: RunView, e: RunEvent): RunView {
  const entries = view.entries;
  switch (e.kind) {
    case 'started':
      return { ...view, model: e.model, workflow: e.workflow, tracePath: e.tracePath, running: true };
    case 'text_delta':
    case 'reasoning_delta': {
      const field = e.kind === 'text_delta' ? 'text' : 'reasoning';
      const last = entries[entries.length - 1];
      if (last?.k === 'assistant' && last.streaming && last.iteration === e.iteration) {
        return { ...view, entries: [...entries.slice(0, -1), { ...last, [field]: last[field] + e.text }] };
      }
      return {
        ...view,
        entries: [
          ...entries,
          { k: 'assistant', iteration: e.iteration, text: '', reasoning: '', [field]: e.text, streaming: true, usage: null },
        ],
      };
    }
    case 'assistant': {
      const last = entries[entries.length - 1];
      if (last?.k === 'assistant' && last.streaming && last.iteration === e.iteration) {
        return {
          ...view,
          entries: [
            ...entries.slice(0, -1),
            { ...last, text: e.text ?? last.text, reasoning: e.reasoning ?? last.reasoning, streaming: false, usage: e.usage },
          ],
        };
      }
      return {
        ...view,
        entries: [
          ...entries,
          { k: 'assistant', iteration: e.iteration, text: e.text ?? '', reasoning: e.reasoning ?? '', streaming: false, usage: e.usage },
        ],
      };
    }
    case 'tool_call':
      return {
        ...view,
        entries: [...entries, { k: 'tool', callId: e.callId, name: e.name, args: e.args, iteration: e.iteration, warnings: [] }],
      };
    case 'tool_result':
      return {
        ...view,
        entries: patchTool(entries, e.callId, (t) => ({
          ...t,
          result: { ok: e.ok, status: e.status, content: e.content, durationMs: e.durationMs },
        })),
      };
    case 'warning':
      if (e.callId && findTool(entries, e.callId) >= 0) {
        return { ...view, entries: patchTool(entries, e.callId, (t) => ({ ...t, warnings: [...t.warnings, `${e.code}: ${e.message}`] })) };
      }
      return { ...view, entries: [...entries, { k: 'warning', code: e.code, message: e.message }] };
    case 'approval_request':
      return { ...view, entries: [...entries, { k: 'approval', id: e.id, tool: e.tool, args: e.args, reason: e.reason }] };
    case 'approval':
      return { ...view, entries: patchTool(entries, e.callId, (t) => ({ ...t, approval: `${e.decision}${e.note ? `: ${e.note}` : ''}` })) };
    case 'ask':
    case 'answer':
      return view; // the question is shown and answered in AskDialog
    case 'stop':
      return { ...view, entries: [...entries, { k: 'stop', message: e.message }] };
    case 'error':
      return { ...view, entries: [...entries, { k: 'error', message: e.message }] };
    case 'final':
      return {
        ...view,
        running: false,
        tracePath: e.tracePath,
        entries: [
          ...entries.map((x) => (x.k === 'assistant' && x.streaming ? { ...x, streaming: false } : x)),
          {
            k: 'end',
            reason: e.reason,
            text: e.text,
            detail: e.detail,
            iterations: e.iterations,
            toolCalls: e.toolCalls,
            usage: e.usage,
            durationMs: e.durationMs,
          },
        ],
      };
  }
}

/** Marks an approval prompt answered. */
export function markAnswered(view: RunView, id: string, decision: 'approve' | 'reject'): RunView {
  return { ...view, entries: view.entries.map((e) => (e.k === 'approval' && e.id === id ? { ...e, answered: decision } : e)) };
}

const str = (v: unknown, d = ''): string => (typeof v === 'string' ? v : d);
const num = (v: unknown): number => (typeof v === 'number' ? v : 0);

function usageOf(v: unknown): TokenUsage | null {
  if (!v || typeof v !== 'object') return null;
  const u = v as Record<string, unknown>;
  return { promptTokens: num(u['promptTokens']), completionTokens: num(u['completionTokens']), totalTokens: num(u['totalTokens']) };
}

function parseArgs(text: unknown): unknown {
  if (typeof text !== 'string') return text;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

const END: Record<string, RunEndReason> = {
  final: 'done',
  stopped: 'stopped',
  model_error: 'error',
  time_limit: 'limit',
  max_iterations: 'limit',
};

/** Rebuilds the view of a run from its trace records (host-validated). */
export function fromTrace(t: ImportedTrace): RunView {
  const h = t.header;
  let view: RunView = {
    runId: str(h['runId'], 'imported'),
    model: str(h['model']),
    workflow: str(h['workflow']),
    tracePath: null,
    running: false,
    imported: true,
    entries: [],
  };
  let final = '';
  const push = (e: Entry): void => {
    view = { ...view, entries: [...view.entries, e] };
  };
  for (const r of t.records as TraceLineInfo[]) {
    switch (r.type) {
      case 'message':
        if (r['prior']) break;
        if (r['role'] === 'user') push({ k: 'user', text: str(r['content']) });
        else if (r['role'] === 'assistant')
          push({
            k: 'assistant',
            iteration: num(r['iteration']),
            text: str(r['content']),
            reasoning: str(r['reasoning']),
            streaming: false,
            usage: usageOf(r['usage']),
          });
        break;
      case 'tool_call':
        push({
          k: 'tool',
          callId: str(r['id']),
          name: str(r['name']),
          args: parseArgs(r['arguments']),
          iteration: num(r['iteration']),
          warnings: [],
        });
        break;
      case 'tool_result':
        view = {
          ...view,
          entries: patchTool(view.entries, str(r['id']), (x) => ({
            ...x,
            result: {
              ok: Boolean(r['ok']),
              status: str(r['status']),
              content: str(r['result'] ?? r['error']),
              durationMs: num(r['durationMs']),
            },
          })),
        };
        break;
      case 'warning':
        view = applyEvent(view, {
          kind: 'warning',
          runId: view.runId,
          code: str(r['code']),
          message: str(r['message']),
          ...(typeof r['toolCallId'] === 'string' ? { callId: r['toolCallId'] } : {}),
        });
        break;
      case 'approval':
        view = {
          ...view,
          entries: patchTool(view.entries, str(r['id']), (x) => ({
            ...x,
            approval: `${str(r['decision'])}${r['note'] ? `: ${str(r['note'])}` : ''}`,
          })),
        };
        break;
      case 'stop':
        push({ k: 'stop', message: str(r['message']) });
        break;
      case 'error':
        push({ k: 'error', message: str(r['message']) });
        break;
      case 'final':
        final = str(r['answer']);
        break;
      case 'end':
        push({
          k: 'end',
          reason: END[str(r['reason'])] ?? 'error',
          text: final,
          detail: str(r['reason']),
          iterations: num(r['iterations']),
          toolCalls: num(r['toolCalls']),
          usage: usageOf(r['usage']) ?? { promptTokens: 0, completionTokens: 0, totalTokens: 0 },
          durationMs: num(r['durationMs']),
        });
        break;
      default:
        break;
    }
  }
  return view;
}
