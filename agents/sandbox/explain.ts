// Turns how a program ended into a SandboxError a model can act on: what
// happened, where (the line), and what it may use instead. ALRM's observations
// to the planner are built from the execution log with "descriptive feedback"
// (paper 002 §III.B.2); these messages are that feedback for a failed run.
import type { DoneMessage, GuestError } from './protocol';
import type { SandboxCall, SandboxError, SandboxLimits } from './types';

/** Host globals a program might reach for, and what to tell it. Touching one ends the program. */
const HOST_GLOBALS: Record<string, string> = {};
const group = (names: string[], why: string) => names.forEach((n) => (HOST_GLOBALS[n] = why));
group(['require', 'module', 'exports', '__dirname', '__filename'], 'there are no modules or files');
group(['process', 'Buffer', 'Deno', 'Bun', 'std', 'os'], 'the program cannot reach the host process');
group(['fetch', 'XMLHttpRequest', 'WebSocket'], 'there is no network');
group(['window', 'document', 'navigator', 'location', 'importScripts', 'postMessage'], 'there is no browser page');
group(
  ['setTimeout', 'setInterval', 'setImmediate', 'clearTimeout', 'clearInterval'],
  'there are no timers; API calls return when they are done, so call them one after another',
);

export const BLOCKED_GLOBALS: readonly string[] = Object.keys(HOST_GLOBALS);

export interface ExplainContext {
  code: string;
  names: readonly string[];
  limits: SandboxLimits;
  calls: readonly SandboxCall[];
}

/** "It may use only pick(), place(), print() (or console.log) and standard JavaScript." */
export function available(names: readonly string[]): string {
  const fns = [...names.map((n) => `${n}()`), 'print() (or console.log)'];
  return `It may use only ${fns.join(', ')} and standard JavaScript (Math, JSON, arrays, strings…).`;
}

/** The 1-based program line of an error, from QuickJS's stack ("at f (program.js:3:11)"). */
export function lineOf(error: GuestError, code: string): number | undefined {
  const m = /program\.js:(\d+)/.exec(error.stack);
  if (!m) return undefined;
  // The wrapper's closing line follows the program's last line.
  return Math.min(Number(m[1]), code.split('\n').length);
}

export function explain(done: DoneMessage, c: ExplainContext): SandboxError {
  const error = done.error ?? { name: 'Error', message: 'the program failed', stack: '' };
  const line = lineOf(error, c.code);
  const at = line ? ` at line ${line}` : '';
  const withLine = (e: SandboxError): SandboxError => (line ? { ...e, line } : e);
  const seconds = (ms: number) => `${Math.round(ms / 100) / 10} s`;

  // No line: QuickJS records the position only at calls, so an interrupted loop reports the line of its function.
  if (done.fatal === 'timeout') {
    return {
      kind: 'timeout',
      message: `The program was stopped: it ran longer than its time limit of ${seconds(c.limits.timeMs)}. A program must finish: no endless loops, no waiting for something that does not happen.`,
    };
  }
  if (done.fatal === 'api_limit') {
    return withLine({
      kind: 'api_limit',
      message: `The program was stopped${at}: it made more than ${c.limits.maxCalls} API calls. Do the task with fewer calls (check a result instead of retrying in a loop).`,
    });
  }
  if (done.fatal === 'host_access') return withLine(hostAccess(done.reach ?? 'something outside the sandbox', at, c.names));

  if (error.name === 'SandboxError') return { kind: 'internal', message: `The sandbox failed while running the program: ${error.message}` };
  if (/out of memory/i.test(error.message)) {
    return withLine({
      kind: 'memory',
      message: `The program was stopped${at}: it ran out of memory (limit ${Math.round(c.limits.memoryBytes / 1048576)} MiB). Avoid building very large arrays or strings.`,
    });
  }
  if (/stack (size )?exceeded|stack overflow/i.test(error.message)) {
    return withLine({
      kind: 'stack',
      message: `The program was stopped${at}: its recursion went too deep (stack limit ${Math.round(c.limits.stackBytes / 1024)} KiB). Use a loop instead of deep recursion.`,
    });
  }
  if (error.name === 'SyntaxError') {
    const source = line ? (c.code.split('\n')[line - 1] ?? '') : '';
    if (/^\s*(import|export)\b/.test(source)) return withLine(hostAccess('import', at, c.names));
    return withLine({
      kind: 'syntax',
      message: `Syntax error${at}: ${error.message}. Write plain JavaScript (no TypeScript types, no import or export).`,
    });
  }
  if (error.name === 'ApiError') {
    const failed = [...c.calls].reverse().find((call) => !call.outcome.ok);
    const what = failed ? `${failed.name}(${argsText(failed.args)})` : 'An API call';
    return withLine({
      kind: 'api_error',
      message: `${what} failed${at}: ${sentence(error.message)} The program did not catch the error, so it stopped there.`,
    });
  }
  if (error.name === 'Pending') {
    return {
      kind: 'exception',
      message:
        'The program waited for a promise that never settles. There are no timers or events: API calls return their results directly.',
    };
  }
  if (error.name === 'ReferenceError') {
    return withLine({ kind: 'exception', message: `ReferenceError${at}: ${error.message}. ${available(c.names)}` });
  }
  if (error.name === 'Thrown')
    return withLine({ kind: 'exception', message: `The program threw ${error.message}${at} and did not catch it.` });
  return withLine({ kind: 'exception', message: `Uncaught ${error.name}${at}: ${error.message}` });
}

function hostAccess(reach: string, at: string, names: readonly string[]): SandboxError {
  const name = /^import/.test(reach) ? 'import' : reach;
  const why = name === 'import' ? 'there are no modules or files' : (HOST_GLOBALS[name] ?? 'it is outside the sandbox');
  return {
    kind: 'host_access',
    message: `The program was stopped${at}: it used ${reach}, which is not available (${why}). ${available(names)}`,
  };
}

/** Arguments as the program wrote them, shortened: `"lemon"`, `{"target":"bowl"}`. */
export function argsText(args: unknown[] | Record<string, unknown>): string {
  const list = Array.isArray(args) ? args : [args];
  const text = list.map((a) => (a === undefined ? 'undefined' : JSON.stringify(a))).join(', ');
  return text.length > 120 ? `${text.slice(0, 117)}...` : text;
}

const sentence = (text: string) => (/[.!?]$/.test(text.trim()) ? text.trim() : `${text.trim()}.`);
