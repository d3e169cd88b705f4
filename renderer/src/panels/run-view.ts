// What the agent panel shows of a run, built either live from the host's run
// events or from an imported trace (read-only replay): the same entries either way.
import type { CodeRunCall, ImportedTrace, RunEndReason, RunEvent, TokenUsage, TraceLineInfo } from '../../../contract/schemas';

/** Every entry but the person's message carries the stage path of the flow it came from ("" for a single loop). */
export interface ToolEntry {
  k: 'tool';
  stage: string;
  callId: string;
  name: string;
  args: unknown;
  iteration: number;
  result?: { ok: boolean; status: string; content: string; durationMs: number };
  warnings: string[];
  approval?: string;
}

/** A sandboxed program: its code, how it ended, and each API call with its result. */
export interface CodeEntry {
  k: 'code';
  stage: string;
  id: string;
  /** The tool call that ran it, if a tool did. */
  callId: string | undefined;
  code: string;
  ok: boolean;
  error: { kind: string; message: string; line?: number | undefined } | undefined;
  output: string;
  calls: CodeRunCall[];
  durationMs: number;
}

export type Entry =
  | { k: 'user'; text: string }
  | { k: 'assistant'; stage: string; iteration: number; text: string; reasoning: string; streaming: boolean; usage: TokenUsage | null }
  | ToolEntry
  | CodeEntry
  | { k: 'note'; stage: string; text: string }
  | { k: 'warning'; stage: string; code: string; message: string }
  | {
      k: 'approval';
      id: string;
      /** The tool call it gates; the prompt is shown before that call's line. */
      callId?: string | undefined;
      tool: string;
      args: unknown;
      reason: string;
      answered?: 'approve' | 'reject';
    }
  | { k: 'stop'; message: string }
  | { k: 'divergence'; subject: string; predicted: string; actual: string }
  | { k: 'error'; message: string }
  | {
      k: 'end';
      reason: RunEndReason;
      text: string;
      detail: string;
      iterations: number;
      /** Tool calls the model made, and those that ran (not skipped, refused or invalid): counted from the entries, live and in replay alike. */
      toolCalls: number;
      ran: number;
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

/** Statuses of calls that reached the robot. */
const RAN = new Set(['ok', 'failed', 'preempted', 'exception', 'stopped', 'timeout']);

function counts(entries: readonly Entry[]): { toolCalls: number; ran: number } {
  const tools = entries.filter((e): e is ToolEntry => e.k === 'tool');
  return { toolCalls: tools.length, ran: tools.filter((t) => t.result && RAN.has(t.result.status)).length };
}

/** Puts an approval prompt just before the line of the call it gates (the call's line appears first in the events). */
function insertApproval(entries: Entry[], e: Extract<Entry, { k: 'approval' }>): Entry[] {
  const i = e.callId ? findTool(entries, e.callId) : -1;
  return i < 0 ? [...entries, e] : [...entries.slice(0, i), e, ...entries.slice(i)];
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
  const stage = 'stage' in e ? (e.stage ?? '') : '';
  switch (e.kind) {
    case 'started':
      return { ...view, model: e.model, workflow: e.workflow, tracePath: e.tracePath, running: true };
    case 'text_delta':
    case 'reasoning_delta': {
      const field = e.kind === 'text_delta' ? 'text' : 'reasoning';
      const last = entries[entries.length - 1];
      if (last?.k === 'assistant' && last.streaming && last.iteration === e.iteration && last.stage === stage) {
        return { ...view, entries: [...entries.slice(0, -1), { ...last, [field]: last[field] + e.text }] };
      }
      return {
        ...view,
        entries: [
          ...entries,
          { k: 'assistant', stage, iteration: e.iteration, text: '', reasoning: '', [field]: e.text, streaming: true, usage: null },
        ],
      };
    }
    case 'assistant': {
      const last = entries[entries.length - 1];
      if (last?.k === 'assistant' && last.streaming && last.iteration === e.iteration && last.stage === stage) {
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
          {
            k: 'assistant',
            stage,
            iteration: e.iteration,
            text: e.text ?? '',
            reasoning: e.reasoning ?? '',
            streaming: false,
            usage: e.usage,
          },
        ],
      };
    }
    case 'tool_call':
      return {
        ...view,
        entries: [...entries, { k: 'tool', stage, callId: e.callId, name: e.name, args: e.args, iteration: e.iteration, warnings: [] }],
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
      return { ...view, entries: [...entries, { k: 'warning', stage, code: e.code, message: e.message }] };
    case 'approval_request':
      return {
        ...view,
        entries: insertApproval(entries, { k: 'approval', id: e.id, callId: e.callId, tool: e.tool, args: e.args, reason: e.reason }),
      };
    case 'approval': {
      // Answered here or elsewhere (the view's prompt): the prompt shows the decision either way.
      const answered = e.decision === 'approved' ? 'approve' : 'reject';
      const marked = entries.map((x) => (x.k === 'approval' && x.callId === e.callId && !x.answered ? { ...x, answered } : x)) as Entry[];
      return { ...view, entries: patchTool(marked, e.callId, (t) => ({ ...t, approval: `${e.decision}${e.note ? `: ${e.note}` : ''}` })) };
    }
    case 'ask':
    case 'answer':
      return view; // the question is shown and answered in AskDialog
    case 'note':
      return { ...view, entries: [...entries, { k: 'note', stage, text: e.text }] };
    case 'code_run':
      return {
        ...view,
        entries: [
          ...entries,
          {
            k: 'code',
            stage,
            id: e.id,
            callId: e.callId,
            code: e.code,
            ok: e.ok,
            error: e.error,
            output: e.output,
            calls: e.calls,
            durationMs: e.durationMs,
          },
        ],
      };
    case 'stop':
      return { ...view, entries: [...entries, { k: 'stop', message: e.message }] };
    case 'divergence':
      return { ...view, entries: [...entries, { k: 'divergence', subject: e.subject, predicted: e.predicted, actual: e.actual }] };
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
            ...counts(entries),
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

function errorOf(v: unknown): CodeEntry['error'] {
  if (!v || typeof v !== 'object') return undefined;
  const e = v as Record<string, unknown>;
  return { kind: str(e['kind']), message: str(e['message']), ...(typeof e['line'] === 'number' ? { line: e['line'] } : {}) };
}

function callsOf(v: unknown): CodeRunCall[] {
  if (!Array.isArray(v)) return [];
  return v.map((c: unknown) => {
    const x = (c && typeof c === 'object' ? c : {}) as Record<string, unknown>;
    return {
      seq: num(x['seq']),
      name: str(x['name']),
      args: x['args'],
      ok: Boolean(x['ok']),
      ...(typeof x['result'] === 'string' ? { result: x['result'] } : {}),
      ...(typeof x['error'] === 'string' ? { error: x['error'] } : {}),
      durationMs: num(x['durationMs']),
    };
  });
}

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
  // A workflow runs several flows, each with its own final and end: the answer is the last final of the
  // stage that answered first (the planner, not the critic after it); the totals add up every end.
  let final = '';
  let answerStage: string | undefined;
  const lastEnd = t.records.map((x) => x.type).lastIndexOf('end');
  const total = { iterations: 0, toolCalls: 0, usage: { promptTokens: 0, completionTokens: 0, totalTokens: 0 }, durationMs: 0 };
  const push = (e: Entry): void => {
    view = { ...view, entries: [...view.entries, e] };
  };
  let asked = false;
  for (const r of t.records as TraceLineInfo[]) {
    const stage = str(r['stage']);
    switch (r.type) {
      case 'message':
        if (r['prior']) break;
        // The person's request once; the tasks a workflow hands its stages show as what the stage was asked.
        if (r['role'] === 'user') {
          if (!asked || !stage) push({ k: 'user', text: str(r['content']) });
          asked = true;
        } else if (r['role'] === 'assistant')
          push({
            k: 'assistant',
            stage,
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
          stage,
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
          ...(stage ? { stage } : {}),
          code: str(r['code']),
          message: str(r['message']),
          ...(typeof r['toolCallId'] === 'string' ? { callId: r['toolCallId'] } : {}),
        });
        break;
      case 'approval': {
        // The prompt the person saw, with their decision, before the call's line (as it was live).
        const decision = str(r['decision']);
        const entries = patchTool(view.entries, str(r['id']), (x) => ({
          ...x,
          approval: `${decision}${r['note'] ? `: ${str(r['note'])}` : ''}`,
        }));
        const prompt: Entry = {
          k: 'approval',
          id: `trace-${str(r['id'])}`,
          callId: str(r['id']),
          tool: str(r['tool']),
          args: r['args'],
          reason: decision === 'denied' ? str(r['note'], 'not allowed in this session') : `${str(r['tool'])} needed approval`,
          ...(decision === 'approved' ? { answered: 'approve' as const } : decision === 'rejected' ? { answered: 'reject' as const } : {}),
        };
        view = { ...view, entries: insertApproval(entries, prompt) };
        break;
      }
      case 'note':
        push({ k: 'note', stage, text: str(r['text']) });
        break;
      case 'code_run':
        push({
          k: 'code',
          stage,
          id: str(r['id']),
          callId: typeof r['toolCallId'] === 'string' ? r['toolCallId'] : undefined,
          code: str(r['code']),
          ok: Boolean(r['ok']),
          error: errorOf(r['error']),
          output: str(r['output']),
          calls: callsOf(r['calls']),
          durationMs: num(r['durationMs']),
        });
        break;
      case 'stop':
        push({ k: 'stop', message: str(r['message']) });
        break;
      case 'divergence':
        push({ k: 'divergence', subject: str(r['subject']), predicted: str(r['predicted']), actual: str(r['actual']) });
        break;
      case 'error':
        push({ k: 'error', message: str(r['message']) });
        break;
      case 'final':
        if (stage.includes('/')) break;
        answerStage ??= stage;
        if (stage === answerStage) final = str(r['answer']);
        break;
      case 'end': {
        const u = usageOf(r['usage']);
        total.iterations += num(r['iterations']);
        total.toolCalls += num(r['toolCalls']);
        if (u) for (const k of ['promptTokens', 'completionTokens', 'totalTokens'] as const) total.usage[k] += u[k];
        // Nested flows run inside their parent's time: the longest end is the closest to the run's.
        total.durationMs = Math.max(total.durationMs, num(r['durationMs']));
        if (t.records.indexOf(r) !== lastEnd) break;
        push({
          k: 'end',
          reason: END[str(r['reason'])] ?? 'error',
          text: final,
          detail: str(r['reason']),
          ...total,
          ...counts(view.entries),
        });
        break;
      }
      default:
        break;
    }
  }
  return view;
}
