// Isolated invocation (paper 004 §3.1: "each invocation runs in an isolated session
// that captures the returned output and any runtime feedback"): every call gets its
// own deadline and abort handle, and an error boundary, so a tool that hangs, throws
// or ignores its signal ends as a readable result and the run goes on. Tools run in
// another process (./external) sit behind the same boundary.
import type { Tool, ToolContext, ToolResult } from './tool';

export type InvocationStatus = 'ok' | 'failed' | 'invalid_arguments' | 'timeout' | 'exception' | 'aborted';

/** What one isolated call reports besides the text the model reads. */
export interface Invocation extends ToolResult {
  status: InvocationStatus;
  durationMs: number;
}

export interface IsolationOptions {
  /** The call's own deadline; the default suits a skill that moves the robot. */
  timeoutMs?: number;
  /** After the deadline (or an abort), how long the tool may take to confirm before it is left behind. */
  graceMs?: number;
}

export const DEFAULT_ISOLATION: Required<IsolationOptions> = { timeoutMs: 60_000, graceMs: 500 };

/** Validates and runs one call inside its boundary. */
export async function invokeIsolated(tool: Tool, raw: unknown, ctx: ToolContext, opts: IsolationOptions = {}): Promise<Invocation> {
  const { timeoutMs, graceMs } = { ...DEFAULT_ISOLATION, ...opts };
  const t0 = performance.now();
  const done = (status: InvocationStatus, r: ToolResult): Invocation => ({
    ...r,
    ok: status === 'ok',
    status,
    durationMs: Math.round(performance.now() - t0),
  });
  const parsed = tool.parse(raw);
  if (!parsed.ok) return done('invalid_arguments', { ok: false, content: parsed.message });

  const own = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    own.abort(new Error(`${tool.name} timed out after ${timeoutMs} ms`));
  }, timeoutMs);
  const onOuter = () => own.abort(ctx.signal.reason);
  if (ctx.signal.aborted) onOuter();
  else ctx.signal.addEventListener('abort', onOuter, { once: true });

  // The tool's promise races its own abort plus a grace period: a tool that never looks at its signal is left behind.
  let leftBehind: (() => void) | undefined;
  const abandoned = new Promise<'abandoned'>((resolve) => {
    const arm = () => {
      const g = setTimeout(() => resolve('abandoned'), graceMs);
      leftBehind = () => clearTimeout(g);
    };
    if (own.signal.aborted) arm();
    else own.signal.addEventListener('abort', arm, { once: true });
  });
  try {
    const work = Promise.resolve().then(() => tool.run(parsed.args, { ...ctx, signal: own.signal }));
    const r = await Promise.race([work, abandoned]);
    if (r === 'abandoned') {
      // Keep an eventual rejection from becoming an unhandled one.
      work.catch(() => undefined);
      return timedOut
        ? done('timeout', {
            ok: false,
            content: `${tool.name} did not finish within ${timeoutMs / 1000} s and was abandoned; it may have done part of its work. Check the state, then try another way.`,
          })
        : done('aborted', { ok: false, content: `${tool.name} was interrupted and did not confirm it had stopped.` });
    }
    if (timedOut && !r.ok) {
      return done('timeout', { ...r, content: `${tool.name} ran out of its ${timeoutMs / 1000} s and stopped: ${r.content}` });
    }
    return done(r.ok ? 'ok' : 'failed', r);
  } catch (e) {
    const why = e instanceof Error ? e.message : String(e);
    if (timedOut) return done('timeout', { ok: false, content: `${tool.name} ran out of its ${timeoutMs / 1000} s: ${why}` });
    if (own.signal.aborted) return done('aborted', { ok: false, content: `${tool.name} was interrupted: ${why}` });
    return done('exception', {
      ok: false,
      content: `${tool.name} failed with an error: ${why}. The run goes on; try other arguments or another tool.`,
    });
  } finally {
    clearTimeout(timer);
    leftBehind?.();
    ctx.signal.removeEventListener('abort', onOuter);
  }
}

/** The same tool, every call of which runs inside its own boundary (what ETP shows a model directly). */
export function isolated(tool: Tool, opts: IsolationOptions = {}): Tool {
  const run = async (args: unknown, ctx: ToolContext): Promise<ToolResult> => {
    // Arguments were validated by the caller (the flow); validate again only through parse's cheap path.
    const r = await invokeIsolated(tool, args, ctx, opts);
    return {
      ok: r.ok,
      content: r.content,
      data: {
        ...(isRecord(r.data) ? r.data : r.data === undefined ? {} : { value: r.data }),
        invocation: { status: r.status, durationMs: r.durationMs },
      },
    };
  };
  return {
    ...tool,
    run,
    call: async (raw, ctx) => {
      const p = tool.parse(raw);
      return p.ok ? run(p.args, ctx) : { ok: false, content: p.message };
    },
  };
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
