// Code written by a model, run as a traced tool call. `programTool` runs a
// program in the QuickJS sandbox against an API built from tools; each API call
// goes through the runtime (`ctx.invoke`), so the trace shows the program as one
// `run_program` call with its API calls nested under it, each with its result.
// `writeAndRun` is the loop around it: a model writes the program in its reply
// (no tool calling needed, paper 002 §III.B.2), the program runs, and a program
// that fails (an endless loop, a memory bomb, a throw, a reach for the host) goes
// back to the model with the sandbox's readable error, for another try.
import { z } from 'zod';
import { type SandboxLimits, formatResult, runProgram } from '../../sandbox';
import type { ChatMessage } from '../../models/model';
import type { FlowLimits } from '../../runtime/flow';
import type { WorkflowRun } from '../../runtime/workflow';
import { type Tool, defineTool } from '../../tools/tool';
import { toolApi } from './tool-api';

export const PROGRAM_TOOL = 'run_program';

export interface ProgramToolSpec {
  /** The functions the program may call. */
  tools: readonly Tool[];
  /** Return types for the API's declarations (e.g. get_pose's shape). */
  returns?: Readonly<Record<string, string>>;
  limits?: Partial<SandboxLimits>;
}

/** The declarations a model reads to write a program against `tools`. */
export function apiDocs(spec: ProgramToolSpec): string {
  return toolApi(spec.tools, () => Promise.reject(new Error('docs only')), spec.returns).docs;
}

/** A tool that runs a program against `spec.tools`; it needs the runtime's `invoke` (it runs inside a flow or through ctx.invoke). */
export function programTool(spec: ProgramToolSpec): Tool {
  return defineTool({
    name: PROGRAM_TOOL,
    description: 'Runs a JavaScript program in the sandbox; the program calls the robot API functions directly.',
    category: 'action',
    params: z.strictObject({ code: z.string().min(1).describe('the program, plain JavaScript') }),
    card: {
      outputs: "each API call with its result, the program's output, and its value or why it stopped",
      whenToUse: 'to run a whole sub-task as code (Code-as-Policy)',
      dimension: 'execution',
      tags: ['code', 'program', 'sandbox'],
    },
    execute: async ({ code }, tctx) => {
      const invoke = tctx.invoke;
      if (!invoke) return { ok: false, content: 'run_program needs the agent runtime to trace its calls; run it inside a workflow.' };
      // A stopped program returns at once; its call in flight still ends (its skill aborted) and is traced before this call ends.
      const inFlight = new Set<Promise<unknown>>();
      const track = <T>(p: Promise<T>): Promise<T> => {
        inFlight.add(p);
        void p.finally(() => inFlight.delete(p)).catch(() => undefined);
        return p;
      };
      const { api } = toolApi(spec.tools, (tool, args, signal) => track(invoke(tool, args, signal)), spec.returns);
      const r = await runProgram(code, { api, signal: tctx.signal, ...(spec.limits ? { limits: spec.limits } : {}) });
      await Promise.allSettled([...inFlight]);
      return {
        ok: r.ok,
        content: formatResult(r),
        data: {
          output: r.output,
          calls: r.calls.length,
          ...(r.ok ? { value: r.value } : { error: r.error }),
        },
      };
    },
  });
}

/** The program in a model's reply: the last fenced block (```js … ```), or undefined. */
export function extractCode(text: string): { code: string; language: string } | undefined {
  const blocks = [...text.matchAll(/```([\w+-]*)[^\n]*\n([\s\S]*?)```/g)];
  const last = blocks.at(-1);
  if (!last) return undefined;
  const code = (last[2] ?? '').trim();
  return code ? { code, language: (last[1] ?? '').toLowerCase() } : undefined;
}

const JS = new Set(['', 'js', 'javascript', 'ts', 'typescript', 'jsx']);

export interface WriteAndRunSpec {
  /** The full stage path the writer and the program are traced under, e.g. "planner/executor". */
  stage: string;
  system: string;
  input: string;
  program: Tool;
  /** Programs tried before giving up (the first plus corrections). */
  attempts?: number;
  /** The calling tool's signal (a preemption ends the writing and the program). */
  signal?: AbortSignal;
  limits?: Partial<FlowLimits>;
}

export interface WriteAndRunResult {
  ok: boolean;
  /** What happened, for the caller's model: the last program's API calls, output and end, or why no program ran. */
  report: string;
  /** The programs as written, in order. */
  programs: string[];
  /** How the writer's flow ended last (a stop or a model failure ends the loop). */
  reason: 'final' | 'time_limit' | 'max_iterations' | 'stopped' | 'model_error';
}

/** A model writes a program in its reply; it runs; a failure goes back to the model, up to `attempts` programs. */
export async function writeAndRun(ctx: WorkflowRun, spec: WriteAndRunSpec): Promise<WriteAndRunResult> {
  const attempts = spec.attempts ?? 3;
  let messages: ChatMessage[] | undefined;
  const programs: string[] = [];
  let input = spec.input;
  let report = 'No program was written.';
  for (let turn = 0; turn < attempts + 2 && programs.length < attempts; turn++) {
    // The first flow starts the conversation; corrections continue it.
    const r = await ctx.flow({
      stage: spec.stage,
      ...(messages ? { messages } : { system: spec.system }),
      input,
      tools: [],
      ...(spec.limits ? { limits: spec.limits } : {}),
      ...(spec.signal ? { signal: spec.signal } : {}),
    });
    messages = r.messages;
    if (r.reason !== 'final' || r.final === undefined) {
      return { ok: false, report: `${report} The code writer ended without a program (${r.reason}).`, programs, reason: r.reason };
    }
    const found = extractCode(r.final);
    if (!found) {
      input = 'Your reply had no program. Write the whole program in one ```javascript code block.';
      continue;
    }
    if (!JS.has(found.language)) {
      input = `The program must be JavaScript, not ${found.language}. Write the whole program again in one \`\`\`javascript code block.`;
      continue;
    }
    programs.push(found.code);
    const run = await ctx.invoke(
      spec.program,
      { code: found.code },
      { stage: spec.stage, ...(spec.signal ? { signal: spec.signal } : {}) },
    );
    report = run.content;
    if (run.ok) return { ok: true, report, programs, reason: 'final' };
    if (run.status === 'stopped' || run.status === 'preempted' || ctx.signal.aborted)
      return { ok: false, report, programs, reason: 'stopped' };
    input = `The program failed:\n${run.content}\nFix it and write the whole program again in one \`\`\`javascript code block. Calls that succeeded already changed the world: do not repeat them.`;
  }
  return { ok: false, report, programs, reason: 'final' };
}
