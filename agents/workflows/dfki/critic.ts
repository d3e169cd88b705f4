// The goal-completion critic (paper 003 §3): a second model reads the person's goal
// and the execution log — reflections, state, actions, events and tool results —
// and answers achieved, continue (with what remains: the planner "talked through"
// a feasible task or stopped early), or stop (blocked, infeasible, or needing the
// person's consent, with the cause). It nudges the planner to act; it does not
// drive persistence beyond the point where acting is unjustified.
import { z } from 'zod';
import type { ChatMessage } from '../../models/model';

export const VerdictSchema = z.object({
  verdict: z.enum(['achieved', 'continue', 'stop']),
  reason: z.string().min(1),
  cause: z.enum(['blocked', 'infeasible', 'needs_consent']).optional(),
});
export type Verdict = z.infer<typeof VerdictSchema>;

export const CRITIC_PROMPT = [
  'You are the goal-completion critic of a robot. You read the goal a person gave and the execution log of the robot’s planner and executor (its reflections, state snapshots, actions, events and tool results), and judge whether the goal was reached.',
  'Answer with one JSON object and nothing else:',
  '{"verdict": "achieved" | "continue" | "stop", "reason": "…", "cause": "blocked" | "infeasible" | "needs_consent"}',
  '- achieved: the log shows the goal was reached by actions that succeeded (a claim in the final answer is not enough).',
  '- continue: the goal is feasible and not reached, and the planner stopped too early — it only described what to do, or gave up after a failure it can recover from. Say in "reason" what remains to be done.',
  '- stop: further action is not justified: the goal is infeasible (cause "infeasible"), progress is blocked by repeated failures or an event such as an emergency stop (cause "blocked"), or going on needs the person’s consent (cause "needs_consent"). Say why in "reason".',
  'Requests that are not tasks (a refusal of an impossible request, a question answered) are achieved when the answer is appropriate.',
].join('\n');

/** Reads the critic's answer: the JSON object, or failing that a verdict word; null when neither is there. */
export function parseVerdict(text: string): Verdict | null {
  const start = text.indexOf('{');
  const end = text.lastIndexOf('}');
  if (start >= 0 && end > start) {
    try {
      const v = VerdictSchema.safeParse(JSON.parse(text.slice(start, end + 1)));
      if (v.success) return v.data;
    } catch {
      // fall through to the word
    }
  }
  const word = /\b(achieved|continue|stop)\b/i.exec(text)?.[1]?.toLowerCase() as Verdict['verdict'] | undefined;
  return word ? { verdict: word, reason: text.trim().slice(0, 500) } : null;
}

const clip = (s: string, n: number): string => (s.length > n ? `${s.slice(0, n - 1)}…` : s);

/**
 * The execution log of a turn, from the planner's messages: each call with its
 * arguments and result, the planner's text, in order. Long results are clipped and
 * a very long log keeps its end (what happened last decides the verdict).
 */
export function executionLog(messages: readonly ChatMessage[], from: number, maxChars = 12_000): string {
  const lines: string[] = [];
  const names = new Map<string, string>();
  for (const m of messages.slice(from)) {
    if (m.role === 'user') lines.push(`[request] ${clip(m.content ?? '', 800)}`);
    else if (m.role === 'assistant') {
      if (m.content?.trim()) lines.push(`[planner] ${clip(m.content.trim(), 800)}`);
      for (const c of m.tool_calls ?? []) {
        names.set(c.id, c.function.name);
        lines.push(`[call] ${c.function.name} ${clip(c.function.arguments, 400)}`);
      }
    } else if (m.role === 'tool') lines.push(`[result of ${names.get(m.tool_call_id) ?? 'call'}] ${clip(m.content ?? '', 600)}`);
  }
  const text = lines.join('\n');
  return text.length > maxChars ? `(earlier steps left out)\n${text.slice(text.length - maxChars)}` : text;
}

export function criticInput(goal: string, log: string): string {
  return `Goal: ${goal}\n\nExecution log:\n${log || '(nothing was done)'}`;
}
