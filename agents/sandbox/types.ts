// The sandbox's public shapes: what a caller hands in (an API record, limits) and
// what comes back (a result with the program's value or a classified error, its
// output and every API call it made). Code-as-Policy (paper 002 §III.B.2) runs a
// model's program in one go "while maintaining a log of all action executions";
// `calls` is that log.
import { z } from 'zod';

/**
 * A host function the program may call by name. `args` is the positional
 * argument list (`pick("lemon")` → `["lemon"]`), or, when the program passes one
 * plain object (`pick({ object_name: "lemon" })`), that object. The signal is
 * aborted when the program is stopped, times out or ends while the call runs.
 */
export type SandboxFunction = (args: unknown[] | Record<string, unknown>, signal: AbortSignal) => Promise<unknown>;
export type SandboxApi = Readonly<Record<string, SandboxFunction>>;

const MiB = 1024 * 1024;

export const SandboxLimitsSchema = z.strictObject({
  /** QuickJS heap limit. */
  memoryBytes: z
    .int()
    .min(MiB)
    .max(1024 * MiB),
  /**
   * QuickJS stack limit. QuickJS recurses on the worker's native stack too, so a
   * large value overflows V8's stack before QuickJS's own check fires
   * (feasibility.md §5): 1 MiB at most.
   */
  stackBytes: z
    .int()
    .min(32 * 1024)
    .max(MiB),
  /** Wall time for the whole program, API calls included. */
  timeMs: z.int().min(1).max(600_000),
  /** API calls the program may make. */
  maxCalls: z.int().min(0).max(100_000),
  /** Output kept (the tail: the end of a program's output says most about how it ended). */
  maxOutputChars: z.int().min(0).max(1_000_000),
});
export type SandboxLimits = z.infer<typeof SandboxLimitsSchema>;

/**
 * 20 s as RAIDER's per-run timeout (paper 001) and the runtime's default; a
 * 16,000-character output tail as CaP-X feeds back to its model (anchors-2026.md §3).
 */
export const DEFAULT_LIMITS: SandboxLimits = {
  memoryBytes: 32 * MiB,
  stackBytes: 256 * 1024,
  timeMs: 20_000,
  maxCalls: 50,
  maxOutputChars: 16_000,
};

/** One API call as the program made it, for the trace (each becomes a tool call with its result). */
export interface SandboxCall {
  /** 1-based, in call order. */
  seq: number;
  name: string;
  args: unknown[] | Record<string, unknown>;
  /** Epoch ms when the host started the call. */
  startedAt: number;
  durationMs: number;
  /** The value returned to the program, or why the call failed (also what the program saw). */
  outcome: { ok: true; value: unknown } | { ok: false; error: string };
}

export type SandboxErrorKind =
  | 'syntax' // the program does not parse
  | 'exception' // it threw and did not catch
  | 'api_error' // an API call failed and the program did not catch it
  | 'host_access' // it reached for something outside the sandbox (require, process, fetch, import…)
  | 'timeout' // it ran past its wall time (QuickJS interrupt, or the watchdog killed the worker)
  | 'memory' // it allocated past its memory limit
  | 'stack' // it recursed past its stack limit
  | 'api_limit' // it made more API calls than allowed
  | 'stopped' // the caller aborted (Stop)
  | 'internal'; // the sandbox itself failed (a bug, or the worker could not start)

export interface SandboxError {
  kind: SandboxErrorKind;
  /** Written for the model: what happened, and what the program may do instead. */
  message: string;
  /** 1-based line of the program where it happened, when known. */
  line?: number;
}

export type SandboxResult =
  | { ok: true; value: unknown; output: string; calls: SandboxCall[] }
  | { ok: false; error: SandboxError; output: string; calls: SandboxCall[] };

export interface RunOptions {
  api: SandboxApi;
  limits?: Partial<SandboxLimits>;
  /** Stop: aborts at once (the worker is terminated, the running API call's signal aborted). */
  signal?: AbortSignal;
  /** Called as each API call ends (or is cut short by a stop or timeout). */
  onCall?: (call: SandboxCall) => void;
  /** Output as it is printed, in chunks (flushed at each API call, every ~100 ms and at the end). */
  onOutput?: (text: string) => void;
}
