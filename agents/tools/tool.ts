// A Tool is a self-documenting function a model can call (paper 000 §II.A): a
// zod schema is the single source of the JSON Schema the model sees and of the
// argument validation; a validation failure comes back as text the model can act
// on. Each tool carries a tool card (paper 004 §3.1): capability, inputs,
// outputs, when to use it, its mode, and the robot capabilities it needs.
import { z } from 'zod';
import type { Capability, Robot } from '../../robot/robot';
import type { ImagePart } from '../../base/image-part';
import { MAX_TOOL_ARGUMENT_CHARS, argumentProblem, cutArgumentsSize } from './limits';

export type ToolCategory = 'information' | 'action';
/** ETP's invocation modes: once per query, running in the background, or triggered by a condition. */
export type ToolMode = 'on-demand' | 'continuous' | 'event';
/** ETP's four capability dimensions. */
export type CapabilityDimension = 'perception' | 'cognition' | 'reasoning' | 'execution';

export interface ToolCard {
  capability: string;
  inputs: string;
  outputs: string;
  whenToUse: string;
  constraints: string | undefined;
  mode: ToolMode;
  dimension: CapabilityDimension;
  requires: Capability[];
  tags: string[];
}

/** One API call a sandboxed program made, as the trace shows it. */
export interface CodeRunCall {
  /** 1-based, in call order. */
  seq: number;
  name: string;
  args: unknown;
  ok: boolean;
  /** What the program got back (ok), or why the call failed. */
  result?: string;
  error?: string;
  durationMs: number;
}

/**
 * A program a model wrote, run in the sandbox (ALRM's Code-as-Policy, RAIDER's
 * recovery plans): the code, how it ended, its output and every API call with
 * its result. A tool reports it through `ToolContext.codeRun`, a workflow through
 * `WorkflowRun.codeRun`; the trace records it as `code_run` and the app's trace
 * panel shows the code with its calls nested under it.
 */
export interface CodeRun {
  /** Unique within the turn (e.g. "program_1"). */
  id: string;
  language: 'javascript';
  code: string;
  ok: boolean;
  /** How it ended when not ok: the sandbox's error kind (syntax, timeout, host_access…) and its message. */
  error?: { kind: string; message: string; line?: number };
  /** What the program printed (the tail, as the sandbox keeps it). */
  output: string;
  calls: CodeRunCall[];
  durationMs: number;
}

export interface ToolContext {
  robot: Robot;
  signal: AbortSignal;
  /** Per-session scratch space for tools that remember (e.g. the event cursor of check_events). */
  state: Map<string, unknown>;
  /** The stage path of the flow calling the tool, when a workflow runs it (an agent tool nests under it). */
  stage?: string;
  /** Reports a sandboxed program this call ran, into the trace under this call (absent outside a flow). */
  codeRun?: (run: CodeRun) => void;
  /**
   * Calls another tool from inside this one (code in the sandbox calling the robot API): the
   * runtime traces it under this call, applies approval and Stop, and returns how it ended.
   * Absent when the tool runs outside a flow (the tool console).
   */
  invoke?: (tool: Tool, args: unknown, signal?: AbortSignal) => Promise<InvokedResult>;
}

/** A tool result as the runtime reports it: `status` says how the call ended (ok, failed, refused, stopped…). */
export interface InvokedResult extends ToolResult {
  status: string;
}

/** What a tool gives back. `content` is what the model reads. */
export interface ToolResult {
  ok: boolean;
  content: string;
  data?: unknown;
  /** Pictures for a model that sees (the camera): sent after the tool messages as a user message, kept beside the trace. */
  images?: ImagePart[];
}

export interface ToolSpec<P extends z.ZodObject> {
  name: string;
  description: string;
  category: ToolCategory;
  params: P;
  card: {
    capability?: string;
    outputs: string;
    whenToUse: string;
    constraints?: string;
    mode?: ToolMode;
    dimension: CapabilityDimension;
    requires?: Capability[];
    tags?: string[];
  };
  execute(args: z.infer<P>, ctx: ToolContext): Promise<ToolResult> | ToolResult;
}

export interface FunctionSchema {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
}

export interface Tool {
  readonly name: string;
  readonly description: string;
  readonly category: ToolCategory;
  readonly card: ToolCard;
  /** JSON Schema of the arguments (what the model sees). */
  readonly parameters: Record<string, unknown>;
  /** The zod schema behind `parameters`, for tools defined here (an MCP server registers it); tools from outside have none. */
  readonly params?: z.ZodObject;
  /** Validates raw arguments; the error text is written for a model to fix its call. */
  parse(raw: unknown): { ok: true; args: unknown } | { ok: false; message: string };
  run(args: unknown, ctx: ToolContext): Promise<ToolResult>;
  /** Validate then run: the single entry point used by the runtime and the tool console. */
  call(raw: unknown, ctx: ToolContext): Promise<ToolResult>;
  schema(): FunctionSchema;
}

export const TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

export function toJsonSchema(params: z.ZodObject): Record<string, unknown> {
  const s = z.toJSONSchema(params, { target: 'draft-7', io: 'input' }) as Record<string, unknown>;
  delete s['$schema'];
  // Models handle an explicit empty object better than a missing properties key.
  if (s['type'] === 'object' && !s['properties']) s['properties'] = {};
  return s;
}

/** Human- and model-readable explanation of why arguments were rejected. */
export function explainArgs(tool: string, error: z.ZodError, parameters: Record<string, unknown>, raw?: unknown): string {
  const props = (parameters['properties'] ?? {}) as Record<string, { type?: unknown; description?: string }>;
  const given = raw && typeof raw === 'object' && !Array.isArray(raw) ? (raw as Record<string, unknown>) : {};
  const lines = error.issues.map((issue) => {
    const field = issue.path.length ? issue.path.map(String).join('.') : '(arguments)';
    if (issue.code === 'unrecognized_keys') {
      return `- unknown argument(s) ${issue.keys.map((k) => `"${k}"`).join(', ')}; accepted: ${Object.keys(props).join(', ') || 'none'}`;
    }
    if (issue.path.length === 1 && given[String(issue.path[0])] === undefined) {
      const d = props[String(issue.path[0])]?.description;
      return `- ${field}: missing (required${d ? `: ${d}` : ''})`;
    }
    return `- ${field}: ${issue.message}`;
  });
  return `Invalid arguments for ${tool}:\n${lines.join('\n')}\nCall ${tool} again with arguments matching its schema.`;
}

export function describeInputs(parameters: Record<string, unknown>): string {
  const props = (parameters['properties'] ?? {}) as Record<string, { type?: unknown; description?: string; enum?: unknown[] }>;
  const req = new Set((parameters['required'] as string[] | undefined) ?? []);
  const parts = Object.entries(props).map(([k, v]) => {
    const type = v.enum ? `one of ${v.enum.map((x) => JSON.stringify(x)).join('|')}` : String(v.type ?? 'value');
    return `${k}${req.has(k) ? '' : '?'}: ${type}${v.description ? ` (${v.description})` : ''}`;
  });
  return parts.length ? parts.join('; ') : 'none';
}

export function defineTool<P extends z.ZodObject>(spec: ToolSpec<P>): Tool {
  if (!TOOL_NAME.test(spec.name)) throw new Error(`tool name "${spec.name}" must match ${TOOL_NAME}`);
  // The JSON Schema and the card's input line are built on first use: a command that
  // calls one tool (or none) does not convert the schemas of every tool it loads.
  let parameters: Record<string, unknown> | undefined;
  const params = (): Record<string, unknown> => (parameters ??= toJsonSchema(spec.params));
  let inputs: string | undefined;
  const card: ToolCard = {
    capability: spec.card.capability ?? spec.description,
    // An enumerable getter: JSON and structured clones of the card still carry it.
    get inputs() {
      return (inputs ??= describeInputs(params()));
    },
    outputs: spec.card.outputs,
    whenToUse: spec.card.whenToUse,
    constraints: spec.card.constraints,
    mode: spec.card.mode ?? 'on-demand',
    dimension: spec.card.dimension,
    requires: spec.card.requires ?? [],
    tags: spec.card.tags ?? [],
  };
  const parse = (raw: unknown): { ok: true; args: unknown } | { ok: false; message: string } => {
    let value: unknown = raw ?? {};
    if (typeof raw === 'string') {
      const size = cutArgumentsSize(raw) ?? raw.length;
      if (size > MAX_TOOL_ARGUMENT_CHARS)
        return {
          ok: false,
          message: `Invalid arguments for ${spec.name}: they are ${size} characters, over the limit of ${MAX_TOOL_ARGUMENT_CHARS}. Send only the arguments the schema asks for.`,
        };
      try {
        value = raw.trim() ? JSON.parse(raw) : {};
      } catch {
        return { ok: false, message: `Invalid arguments for ${spec.name}: not valid JSON (${raw.slice(0, 80)}). Send a JSON object.` };
      }
    }
    // JSON reads 1e999 as Infinity; no tool has a use for it, or for 1e308 metres.
    const problem = argumentProblem(value);
    if (problem)
      return {
        ok: false,
        message: `Invalid arguments for ${spec.name}:\n- ${problem}\nCall ${spec.name} again with arguments matching its schema.`,
      };
    const r = spec.params.safeParse(value);
    return r.success ? { ok: true, args: r.data } : { ok: false, message: explainArgs(spec.name, r.error, params(), value) };
  };
  const run = async (args: unknown, ctx: ToolContext): Promise<ToolResult> => {
    const missing = card.requires.filter((c) => !ctx.robot.has(c));
    if (missing.length) {
      return { ok: false, content: `${spec.name} is not available: this robot has no ${missing.join(', ')} capability.` };
    }
    return spec.execute(args as z.infer<P>, ctx);
  };
  return {
    name: spec.name,
    description: spec.description,
    category: spec.category,
    card,
    // An enumerable getter: a spread copy ({ ...tool }) still carries it.
    get parameters() {
      return params();
    },
    params: spec.params,
    parse,
    run,
    async call(raw, ctx) {
      const p = parse(raw);
      if (!p.ok) return { ok: false, content: p.message };
      return run(p.args, ctx);
    },
    schema: () => ({ name: spec.name, description: spec.description, parameters: params() }),
  };
}

/**
 * The same tool (name, schema, card) with its run wrapped: a check before it runs, a
 * rewrite of its result. `around` gets the validated arguments and the inner run.
 */
export function aroundTool(
  tool: Tool,
  around: (args: unknown, ctx: ToolContext, inner: (args: unknown, ctx: ToolContext) => Promise<ToolResult>) => Promise<ToolResult>,
): Tool {
  const run = (args: unknown, ctx: ToolContext): Promise<ToolResult> => around(args, ctx, (a, c) => tool.run(a, c));
  return {
    ...tool,
    run,
    async call(raw, ctx) {
      const p = tool.parse(raw);
      if (!p.ok) return { ok: false, content: p.message };
      return run(p.args, ctx);
    },
  };
}
