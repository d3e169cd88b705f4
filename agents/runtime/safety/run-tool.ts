// A tool call from outside a flow — an MCP client, the robot HTTP API's ALRM
// actions, a host's tool console — through the same chain a flow uses: the
// arguments are validated and must be finite, the approval policy for the
// tool's category decides (auto, ask, deny), and the tool runs against a
// guarded robot so every skill it calls passes the chain's checks.
import { jsonSafe } from '../../../base/json';
import type { Tool, ToolResult } from '../../tools/tool';
import { type ApprovalDecision, type ApprovalGate, decide, refusalText } from '../approval';
import type { SafetyChain, SafetyScope } from './chain';
import { nonFinite } from './checks';

export interface SafeToolOptions {
  via: SafetyScope['via'];
  /** The approval policy and the person to ask (MCP elicitation, a terminal, a dialog). */
  gate: ApprovalGate;
  signal?: AbortSignal;
  /** The tools' scratch state (keep it across calls of one client). */
  state?: Map<string, unknown>;
  callId?: string;
  report?: SafetyScope['report'];
  diverged?: SafetyScope['diverged'];
}

export type SafeToolStatus = 'ok' | 'failed' | 'invalid_arguments' | 'rejected' | 'denied' | 'stopped' | 'exception';

export interface SafeToolResult {
  status: SafeToolStatus;
  /** What the caller reads: the tool's result, or why it did not run. */
  result: ToolResult;
  approval: ApprovalDecision | undefined;
}

/** Validates, approves and runs one tool call through the safety chain. Never throws for a tool's own failure. */
export async function runToolSafely(chain: SafetyChain, tool: Tool, raw: unknown, o: SafeToolOptions): Promise<SafeToolResult> {
  const signal = o.signal ?? new AbortController().signal;
  const parsed = tool.parse(raw);
  if (!parsed.ok) return { status: 'invalid_arguments', result: { ok: false, content: parsed.message }, approval: undefined };
  const bad = nonFinite(parsed.args);
  if (bad.length)
    return {
      status: 'invalid_arguments',
      result: { ok: false, content: `Invalid arguments for ${tool.name}: ${bad.join(', ')} must be a finite number.` },
      approval: undefined,
    };
  let approval: ApprovalDecision;
  try {
    approval = await decide(o.gate, {
      callId: o.callId ?? tool.name,
      tool: tool.name,
      category: tool.category,
      arguments: JSON.stringify(jsonSafe(parsed.args) ?? {}),
      args: parsed.args,
      iteration: 0,
      signal,
    });
  } catch {
    return {
      status: 'stopped',
      result: { ok: false, content: `Not run: stopped while waiting for approval of ${tool.name}.` },
      approval: undefined,
    };
  }
  if (approval.decision === 'rejected' || approval.decision === 'denied')
    return { status: approval.decision, result: { ok: false, content: refusalText(tool.name, approval) }, approval };
  const robot = chain.guard({
    via: o.via,
    tool: tool.name,
    ...(o.callId ? { callId: o.callId } : {}),
    // The call itself is approved; the chain asks again only for an action it holds.
    approval: 'auto',
    ...(o.gate.ask
      ? {
          ask: (q) =>
            o.gate.ask!({
              callId: o.callId ?? tool.name,
              tool: tool.name,
              category: 'action',
              arguments: q.call,
              args: q.args,
              iteration: 0,
              signal: q.signal,
              reason: q.reason,
            }),
        }
      : {}),
    ...(o.report ? { report: o.report } : {}),
    ...(o.diverged ? { diverged: o.diverged } : {}),
  });
  try {
    const r = await tool.run(parsed.args, { robot, signal, state: o.state ?? new Map() });
    return { status: r.ok ? 'ok' : 'failed', result: r, approval };
  } catch (e) {
    if (signal.aborted) return { status: 'stopped', result: { ok: false, content: `Stopped: ${tool.name} was interrupted.` }, approval };
    return {
      status: 'exception',
      result: { ok: false, content: `${tool.name} raised an error: ${e instanceof Error ? e.message : String(e)}` },
      approval,
    };
  }
}
