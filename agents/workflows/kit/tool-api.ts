// Tools as the API a sandboxed program calls: ALRM's Code-as-Policy executor
// (paper 002 §III.B.2: "definitions of all actions … including method
// descriptions, input parameters, and expected outputs") and RAIDER's recovery
// plans (paper 001 §3.5: actions as functions, `ask` returning the answer).
// Every call goes through `invoke`, which the runtime supplies, so each one is
// traced as a tool call with its result, approved and stoppable like any other.
import { type ApiDoc, type JsonSchema, type SandboxApi, describeApi, namedArgs } from '../../sandbox';
import type { InvokedResult, Tool } from '../../tools/tool';

export type Invoke = (tool: Tool, args: Record<string, unknown>, signal: AbortSignal) => Promise<InvokedResult>;

export interface ToolApi {
  api: SandboxApi;
  /** The functions as the model reads them: one TypeScript-style declaration a line, then print. */
  docs: string;
}

/**
 * What a function returns to the program: an action's report (a sentence), or an
 * information tool's structured data (ids, poses) so the code can compute with it.
 * A failed call throws its message, which the program may catch.
 */
export function toolApi(tools: readonly Tool[], invoke: Invoke, returns: Readonly<Record<string, string>> = {}): ToolApi {
  const api: Record<string, SandboxApi[string]> = {};
  const docs: Record<string, ApiDoc> = {};
  for (const tool of tools) {
    const names = Object.keys((tool.parameters['properties'] ?? {}) as Record<string, unknown>);
    const structured = tool.category === 'information';
    api[tool.name] = async (args, signal) => {
      const r = await invoke(tool, namedArgs(tool.name, args, names), signal);
      if (!r.ok) throw new Error(r.content);
      return structured && r.data !== undefined ? r.data : r.content;
    };
    docs[tool.name] = {
      doc: tool.description,
      params: tool.parameters as JsonSchema,
      returns: returns[tool.name] ?? (structured ? 'unknown' : 'string'),
    };
  }
  return { api, docs: describeApi(api, docs) };
}
