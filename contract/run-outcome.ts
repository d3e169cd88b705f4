// How a run ended as the app marks it, computed from what the run recorded (its
// events, the same records its trace holds), never from the model's own words:
// a rejected or refused call, a failed call, an answer the world contradicts, a
// stop, a limit or an error each has its own mark. Green ("goal met") only when
// a goal check decided the goal was met; an answer nothing could check is "answered".
import { z } from 'zod';
import type { RunEndReason, RunEvent } from './agent-runs';

export const RunOutcome = z.enum(['met', 'contradicted', 'answered', 'rejected', 'refused', 'failed', 'stopped', 'limit', 'error']);
export type RunOutcome = z.infer<typeof RunOutcome>;

/** A goal check at the run's end, carried by a `note` run event's data (the host's task-card check). */
export const GoalCheckNote = z.object({
  goalCheck: z.object({ title: z.string(), ok: z.boolean(), detail: z.string() }),
});
export type GoalCheck = z.infer<typeof GoalCheckNote>['goalCheck'];

/** Tool statuses (agents/runtime/trace-schema.ts) of a call that was not let run: a policy, bad arguments, no such tool. */
const REFUSED = new Set(['denied', 'invalid_arguments', 'unknown_tool', 'skipped']);

export interface OutcomeTally {
  rejected: number;
  refused: number;
  failed: number;
  goal: GoalCheck | null;
  reason: RunEndReason | null;
}

export function emptyTally(): OutcomeTally {
  return { rejected: 0, refused: 0, failed: 0, goal: null, reason: null };
}

/** Adds one run event to the tally (pure: returns a new tally). */
export function tallyEvent(t: OutcomeTally, e: RunEvent): OutcomeTally {
  switch (e.kind) {
    case 'tool_result':
      // Counted from each call's result (a rejected or denied call has one too), once per call.
      if (e.ok) return t;
      if (e.status === 'rejected') return { ...t, rejected: t.rejected + 1 };
      return REFUSED.has(e.status) ? { ...t, refused: t.refused + 1 } : { ...t, failed: t.failed + 1 };
    case 'note': {
      const g = GoalCheckNote.safeParse(e.data);
      return g.success ? { ...t, goal: g.data.goalCheck } : t;
    }
    case 'final':
      return { ...t, reason: e.reason };
    default:
      return t;
  }
}

/** The run's mark; null while it runs. The first that applies wins, in the order below. */
export function runOutcome(t: OutcomeTally & { reason: RunEndReason }): RunOutcome;
export function runOutcome(t: OutcomeTally): RunOutcome | null;
export function runOutcome(t: OutcomeTally): RunOutcome | null {
  if (t.reason === null) return null;
  if (t.reason !== 'done') return t.reason;
  if (t.rejected) return 'rejected';
  if (t.refused) return 'refused';
  if (t.failed) return 'failed';
  if (t.goal) return t.goal.ok ? 'met' : 'contradicted';
  return 'answered';
}

/** The mark and words a person reads for each outcome (the agent panel's end line, the Runs list). */
export const OUTCOME_WORDS: Record<RunOutcome, { mark: string; words: string }> = {
  met: { mark: '✓', words: 'goal met' },
  contradicted: { mark: '✗', words: 'the world contradicts the answer' },
  answered: { mark: '○', words: 'answered, not checked against a goal' },
  rejected: { mark: '✗', words: 'a call was rejected' },
  refused: { mark: '⊘', words: 'a call was refused' },
  failed: { mark: '⚠', words: 'a call failed' },
  stopped: { mark: '■', words: 'stopped' },
  limit: { mark: '⏱', words: 'stopped at a limit' },
  error: { mark: '!', words: 'ended in an error' },
};
