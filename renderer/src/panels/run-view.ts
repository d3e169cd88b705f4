// What the agent panel shows of a run, built either live from the host's run
// events or from an imported trace (read-only replay): the same entries either way.
import { type GoalCheck, GoalCheckNote, type RunOutcome, emptyTally, runOutcome, tallyEvent } from '../../../contract/run-outcome';
import type { CodeRunCall, RunEndReason, RunEvent, TokenUsage } from '../../../contract/schemas';
import type { RunPicture } from '../../../contract/pictures';

/** Every entry but the person's message carries the stage path of the flow it came from ("" for a single loop). */
export interface ToolEntry {
  k: 'tool';
  stage: string;
  callId: string;
  name: string;
  args: unknown;
  iteration: number;
  result?: { ok: boolean; status: string; content: string; durationMs: number };
  /** Pictures the call gave (the robot's camera), named in the run's trace. */
  pictures?: RunPicture[];
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
  | { k: 'note'; stage: string; text: string; goal?: GoalCheck }
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
      /** Calls that failed, were refused or were rejected: a run with any is not shown as plainly done. */
      failed: number;
      /** How it ended as the app marks it, from the run's own records (contract/run-outcome.ts). */
      outcome: RunOutcome;
      /** The goal check at its end, when a task card's goal decided. */
      goal: GoalCheck | null;
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

export function counts(entries: readonly Entry[]): { toolCalls: number; ran: number; failed: number } {
  const tools = entries.filter((e): e is ToolEntry => e.k === 'tool');
  return {
    toolCalls: tools.length,
    ran: tools.filter((t) => t.result && RAN.has(t.result.status)).length,
    failed: tools.filter((t) => t.result && !t.result.ok).length,
  };
}

/** The run's mark from its entries: each call's result and the goal check, as the host tallies its events. */
export function outcomeOf(entries: readonly Entry[], reason: RunEndReason): { outcome: RunOutcome; goal: GoalCheck | null } {
  let t = emptyTally();
  let goal: GoalCheck | null = null;
  for (const x of entries) {
    if (x.k === 'tool' && x.result)
      t = tallyEvent(t, { kind: 'tool_result', runId: '', stage: x.stage, callId: x.callId, name: x.name, ...x.result });
    if (x.k === 'note' && x.goal) goal = x.goal;
  }
  return { outcome: runOutcome({ ...t, goal, reason }), goal };
}

/** Puts an approval prompt just before the line of the call it gates (the call's line appears first in the events). */
export function insertApproval(entries: Entry[], e: Extract<Entry, { k: 'approval' }>): Entry[] {
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

export function patchTool(entries: Entry[], callId: string, patch: (t: ToolEntry) => ToolEntry): Entry[] {
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
          ...(e.pictures?.length ? { pictures: e.pictures } : {}),
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
    case 'note': {
      const g = GoalCheckNote.safeParse(e.data);
      return { ...view, entries: [...entries, { k: 'note', stage, text: e.text, ...(g.success ? { goal: g.data.goalCheck } : {}) }] };
    }
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
            ...outcomeOf(entries, e.reason),
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
