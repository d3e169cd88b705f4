// A run rebuilt from an imported trace (read-only replay): each recorded line becomes
// the run event it stood for, applied as a live run's would be, so both look alike.
import type { CodeRunCall, ImportedTrace, RunEndReason, TokenUsage, TraceLineInfo } from '../../../contract/schemas';
import { picturesOfRecord } from '../../../contract/pictures';
import { type CodeEntry, type Entry, type RunView, applyEvent, counts, insertApproval, outcomeOf, patchTool } from './run-view';

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
      case 'tool_result': {
        const pictures = picturesOfRecord(r['images'], r['data']);
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
            ...(pictures.length ? { pictures } : {}),
          })),
        };
        break;
      }
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
        const reason = END[str(r['reason'])] ?? 'error';
        push({
          k: 'end',
          reason,
          text: final,
          detail: str(r['reason']),
          ...total,
          ...counts(view.entries),
          ...outcomeOf(view.entries, reason),
        });
        break;
      }
      default:
        break;
    }
  }
  return view;
}
