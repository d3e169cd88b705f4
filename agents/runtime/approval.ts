// The approval gate: a person decides, per tool category, whether the model's
// calls run by themselves, need a yes first, or never run. A rejection goes back
// to the model as the call's result, so it can change course or ask the user.
import type { ToolCategory } from '../tools/tool';
import { untilAborted } from './controller';

export type ApprovalMode = 'auto' | 'ask' | 'deny';

export interface ApprovalPolicy {
  information: ApprovalMode;
  action: ApprovalMode;
  /** Per-tool overrides by exact name (e.g. let `say` run while other actions ask). */
  tools?: Readonly<Record<string, ApprovalMode>>;
}

/** What the person is asked to approve: the exact tool and arguments the model sent. */
export interface ApprovalRequest {
  callId: string;
  tool: string;
  category: ToolCategory;
  /** The arguments as the model wrote them (JSON text). */
  arguments: string;
  /** The validated arguments the tool will receive (defaults filled in). */
  args: unknown;
  iteration: number;
  /** Why a person is asked beyond the policy: the safety chain held the action (a shadow prediction). */
  reason?: string;
  /** Aborts when the run stops; a prompt should close itself. */
  signal: AbortSignal;
}

export interface ApprovalAnswer {
  approved: boolean;
  /** Why, in the person's words; passed on to the model. */
  note?: string;
}

export interface ApprovalGate {
  policy: ApprovalPolicy;
  /** Asks a person; needed when any mode is 'ask' (without it 'ask' acts as 'deny'). */
  ask?: (request: ApprovalRequest) => Promise<ApprovalAnswer>;
}

export type ApprovalDecision =
  | { decision: 'auto' }
  | { decision: 'approved'; note?: string; waitedMs: number }
  | { decision: 'rejected'; note?: string; waitedMs: number }
  | { decision: 'denied'; note: string };

export const AUTO_APPROVE: ApprovalGate = { policy: { information: 'auto', action: 'auto' } };
/** The cautious default for people at a UI: look freely, ask before the robot acts. */
export const ASK_BEFORE_ACTING: Omit<ApprovalGate, 'ask'> = { policy: { information: 'auto', action: 'ask' } };

export function modeFor(policy: ApprovalPolicy, tool: string, category: ToolCategory): ApprovalMode {
  return policy.tools?.[tool] ?? policy[category];
}

/**
 * Applies the gate to one call. Rejects (with the signal's reason) if the run is
 * stopped while a person is deciding, so Stop ends the wait.
 */
export async function decide(gate: ApprovalGate, request: ApprovalRequest): Promise<ApprovalDecision> {
  const mode = modeFor(gate.policy, request.tool, request.category);
  if (mode === 'auto') return { decision: 'auto' };
  if (mode === 'deny') return { decision: 'denied', note: `${request.category} tools are not allowed in this session` };
  if (!gate.ask) return { decision: 'denied', note: 'this call needs approval and no one is there to approve it' };
  const t0 = performance.now();
  let answer: ApprovalAnswer;
  try {
    answer = await untilAborted(gate.ask(request), request.signal);
  } catch (e) {
    if (request.signal.aborted) throw e;
    // A broken prompt must not run the call: treat it as a no.
    return { decision: 'rejected', note: `the approval prompt failed (${e instanceof Error ? e.message : String(e)})`, waitedMs: ms(t0) };
  }
  const note = answer.note?.trim() ? { note: answer.note.trim() } : {};
  return { decision: answer.approved ? 'approved' : 'rejected', ...note, waitedMs: ms(t0) };
}

/** The tool message the model reads when a call was not allowed to run. */
export function refusalText(tool: string, d: Extract<ApprovalDecision, { decision: 'rejected' | 'denied' }>): string {
  if (d.decision === 'rejected') {
    return `The user rejected this call: ${tool} was not run.${d.note ? ` The user said: "${d.note}".` : ''} Do not retry it unchanged; adjust the plan or ask the user.`;
  }
  return `This call was not run: ${d.note}. Do not call ${tool} again; answer with what you can do without it.`;
}

function ms(t0: number): number {
  return Math.round(performance.now() - t0);
}
