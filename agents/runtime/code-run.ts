// What a sandboxed program did, in the shape the trace records (`code_run`) and the
// app's trace panel nests: the code, how it ended, its output and each API call
// with its result. A Code-as-Policy executor or a recovery-plan runner calls
// `ctx.codeRun(codeRunOf(…))` after `runProgram`.
import type { SandboxResult } from '../sandbox';
import type { CodeRun } from '../tools/tool';

const clip = (s: string, n: number): string => (s.length > n ? `${s.slice(0, n - 1)}…` : s);

function text(v: unknown): string {
  if (typeof v === 'string') return v;
  if (v === undefined) return 'undefined';
  try {
    return JSON.stringify(v);
  } catch {
    return String(v);
  }
}

export function codeRunOf(id: string, code: string, r: SandboxResult, durationMs: number): CodeRun {
  return {
    id,
    language: 'javascript',
    code,
    ok: r.ok,
    ...(r.ok
      ? {}
      : { error: { kind: r.error.kind, message: r.error.message, ...(r.error.line !== undefined ? { line: r.error.line } : {}) } }),
    output: r.output,
    calls: r.calls.map((c) => ({
      seq: c.seq,
      name: c.name,
      args: c.args,
      ok: c.outcome.ok,
      ...(c.outcome.ok ? { result: clip(text(c.outcome.value), 2000) } : { error: clip(c.outcome.error, 2000) }),
      durationMs: c.durationMs,
    })),
    durationMs: Math.round(durationMs),
  };
}
