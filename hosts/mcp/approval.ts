// Approval for MCP calls that act. Annotations are hints to a client, not
// permissions (ros-mcp-server #283), so the server itself asks before a robot
// moves: by MCP elicitation when the client can show a form, otherwise it
// refuses and says which flag allows it. `authorizeAction` is the one place an
// MCP acting call is approved; the skills it then asks of the robot pass the
// robot's safety chain (server.ts, fleet.ts), as every other path's do.
import { type ApprovalDecision, type ApprovalGate, type ApprovalMode, decide } from '../../agents/runtime/approval';
import type { Tool } from '../../agents/tools/tool';

export const APPROVE_MODES = ['ask', 'auto', 'deny'] as const satisfies readonly ApprovalMode[];

export interface ActionCall {
  callId: string;
  /** The robot's name in the fleet. */
  robot: string;
  tool: Tool;
  /** The name the client called (prefixed with the robot when the server hosts several). */
  name: string;
  /** Validated arguments. */
  args: unknown;
  signal: AbortSignal;
}

/** A person on the client's side, reached by elicitation; absent when the client cannot show a form. */
export type AskPerson = (message: string, signal: AbortSignal) => Promise<{ approved: boolean; note?: string }>;

export type Authorization =
  | { run: true; decision: ApprovalDecision }
  | { run: false; decision: Exclude<ApprovalDecision, { decision: 'auto' | 'approved' }>; text: string };

function approvalMessage(call: ActionCall): string {
  const args = JSON.stringify(call.args);
  return `The robot "${call.robot}" is about to run ${call.tool.name}(${args.length > 400 ? `${args.slice(0, 400)}…` : args}): ${call.tool.description} Let it run?`;
}

/** Decides whether an acting call may run; information calls never reach here. */
export async function authorizeAction(call: ActionCall, mode: ApprovalMode, ask: AskPerson | undefined): Promise<Authorization> {
  if (mode === 'ask' && !ask) {
    return {
      run: false,
      decision: { decision: 'denied', note: 'the client cannot ask a person (no elicitation support)' },
      text:
        `Not run: ${call.name} makes the robot act and needs a person's approval first, but this MCP client cannot ask for it ` +
        `(it does not support elicitation). To let acting tools run without asking, start the server with --approve auto; ` +
        `--read-only offers only the tools that do not act.`,
    };
  }
  const gate: ApprovalGate = {
    policy: { information: 'auto', action: mode },
    ...(ask ? { ask: (r) => ask(approvalMessage(call), r.signal) } : {}),
  };
  const d = await decide(gate, {
    callId: call.callId,
    tool: call.tool.name,
    category: call.tool.category,
    arguments: JSON.stringify(call.args),
    args: call.args,
    iteration: 0,
    signal: call.signal,
  });
  if (d.decision === 'auto' || d.decision === 'approved') return { run: true, decision: d };
  const text =
    d.decision === 'denied'
      ? `Not run: this server does not let acting tools run (--approve deny). ${call.name} was refused; use the tools that only look.`
      : `Not run: the person declined ${call.name}.${d.note ? ` They said: "${d.note}".` : ''} Do not retry it unchanged.`;
  return { run: false, decision: d, text };
}
