// Tool calls from a local model as a grammar: the JSON schemas of the tools'
// parameters narrowed to what node-llama-cpp compiles into a GBNF grammar, and
// the reply format a model without native function calling must follow. The
// grammar only lets the model sample tokens that keep the reply valid JSON of
// that shape, so even a weak (or random) model's reply parses.
import type { ModelTool } from '../model';

/** The JSON-schema subset node-llama-cpp turns into a grammar (its GbnfJsonSchema). */
export type GrammarSchema =
  | { const: string | number | boolean | null }
  | { enum: (string | number | boolean | null)[] }
  | { oneOf: GrammarSchema[] }
  | { type: 'string'; minLength?: number; maxLength?: number }
  | { type: 'number' | 'integer' | 'boolean' | 'null' }
  | { type: 'array'; items: GrammarSchema; minItems?: number; maxItems?: number }
  | { type: 'object'; properties: Record<string, GrammarSchema>; additionalProperties?: false };

/** Bounds that keep a constrained reply short: a weak model otherwise fills a string to the token limit. */
export interface GrammarBounds {
  maxString: number;
  maxItems: number;
  maxCalls: number;
  maxAnswer: number;
}

export const DEFAULT_BOUNDS: GrammarBounds = { maxString: 64, maxItems: 8, maxCalls: 4, maxAnswer: 600 };

type Json = Record<string, unknown>;
const isObj = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const SCALARS = new Set(['string', 'number', 'integer', 'boolean', 'null']);

/**
 * A tool's parameter schema as a grammar schema: `$ref`s into `$defs`/`definitions`
 * inlined, `anyOf`/`oneOf` kept, optional properties left out (node-llama-cpp makes
 * every listed property required), strings and arrays bounded. Anything it cannot
 * express (patterns, numeric ranges) is left to the tool's own argument check.
 */
export function toGrammarSchema(schema: unknown, bounds: GrammarBounds = DEFAULT_BOUNDS, root: unknown = schema, depth = 0): GrammarSchema {
  if (!isObj(schema) || depth > 12) return { type: 'string', maxLength: bounds.maxString };
  const ref = schema['$ref'];
  if (typeof ref === 'string') return toGrammarSchema(resolveRef(root, ref), bounds, root, depth + 1);
  if ('const' in schema) return { const: schema['const'] as string | number | boolean | null };
  if (Array.isArray(schema['enum'])) return { enum: schema['enum'] as (string | number | boolean | null)[] };
  const alts = (schema['anyOf'] ?? schema['oneOf']) as unknown;
  if (Array.isArray(alts) && alts.length) return oneOf(alts.map((a) => toGrammarSchema(a, bounds, root, depth + 1)));
  const type = schema['type'];
  if (Array.isArray(type)) return oneOf(type.map((t) => toGrammarSchema({ ...schema, type: t }, bounds, root, depth + 1)));
  if (type === 'string') {
    const min = typeof schema['minLength'] === 'number' ? schema['minLength'] : undefined;
    const max = Math.min(typeof schema['maxLength'] === 'number' ? schema['maxLength'] : bounds.maxString, bounds.maxString);
    return { type: 'string', ...(min !== undefined ? { minLength: Math.min(min, max) } : {}), maxLength: max };
  }
  if (type === 'number' || type === 'integer' || type === 'boolean' || type === 'null') return { type };
  if (type === 'array') {
    const min = typeof schema['minItems'] === 'number' ? schema['minItems'] : undefined;
    const max = Math.min(typeof schema['maxItems'] === 'number' ? schema['maxItems'] : bounds.maxItems, bounds.maxItems);
    return {
      type: 'array',
      items: toGrammarSchema(schema['items'], bounds, root, depth + 1),
      ...(min !== undefined ? { minItems: Math.min(min, max) } : {}),
      maxItems: max,
    };
  }
  if (type === 'object' || isObj(schema['properties'])) {
    const props = isObj(schema['properties']) ? schema['properties'] : {};
    const required = Array.isArray(schema['required']) ? new Set(schema['required'].filter((k) => typeof k === 'string')) : undefined;
    const properties: Record<string, GrammarSchema> = {};
    for (const [k, v] of Object.entries(props)) {
      if (required && !required.has(k)) continue;
      properties[k] = toGrammarSchema(v, bounds, root, depth + 1);
    }
    return { type: 'object', properties, additionalProperties: false };
  }
  if (typeof type === 'string' && SCALARS.has(type)) return { type: 'string', maxLength: bounds.maxString };
  return { type: 'string', maxLength: bounds.maxString };
}

function oneOf(options: GrammarSchema[]): GrammarSchema {
  return options.length === 1 && options[0] ? options[0] : { oneOf: options };
}

function resolveRef(root: unknown, ref: string): unknown {
  if (!ref.startsWith('#/')) return undefined;
  let node: unknown = root;
  for (const part of ref.slice(2).split('/')) node = isObj(node) ? node[part.replace(/~1/g, '/').replace(/~0/g, '~')] : undefined;
  return node;
}

/**
 * The schema of a whole reply when the model has no native function calling:
 * `{"tool_calls":[{"name":…,"arguments":{…}}]}` (one branch per tool, so the
 * arguments follow that tool's schema) or `{"answer":"…"}`.
 */
export function replySchema(
  tools: readonly ModelTool[],
  choice: 'auto' | 'required' | 'none' = 'auto',
  bounds: GrammarBounds = DEFAULT_BOUNDS,
): GrammarSchema {
  const answer: GrammarSchema = { type: 'object', properties: { answer: { type: 'string', maxLength: bounds.maxAnswer } } };
  if (!tools.length || choice === 'none') return answer;
  const call = oneOf(
    tools.map((t) => ({
      type: 'object',
      properties: { name: { const: t.function.name }, arguments: toGrammarSchema(t.function.parameters, bounds) },
    })),
  );
  const calls: GrammarSchema = {
    type: 'object',
    properties: { tool_calls: { type: 'array', items: call, minItems: 1, maxItems: bounds.maxCalls } },
  };
  return choice === 'required' ? calls : { oneOf: [calls, answer] };
}

/** What a constrained reply said: tool calls (arguments as JSON text) or an answer. */
export interface GrammarReply {
  answer?: string;
  calls: { name: string; arguments: string }[];
}

/** Reads a constrained reply; undefined when it is not of the reply format (cut off at the token limit). */
export function parseGrammarReply(text: string): GrammarReply | undefined {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!isObj(v)) return undefined;
  if (typeof v['answer'] === 'string') return { answer: v['answer'], calls: [] };
  const calls = v['tool_calls'];
  if (!Array.isArray(calls)) return undefined;
  const out: GrammarReply['calls'] = [];
  for (const c of calls) {
    if (!isObj(c) || typeof c['name'] !== 'string') return undefined;
    out.push({ name: c['name'], arguments: JSON.stringify(c['arguments'] ?? {}) });
  }
  return { calls: out };
}

/** The system prompt's part that tells a model without native tool calls what it may call and how to reply. */
export function grammarInstructions(tools: readonly ModelTool[]): string {
  if (!tools.length) return 'Reply with JSON: {"answer": "your answer"}.';
  const list = tools.map((t) => `- ${t.function.name}: ${t.function.description} Arguments: ${JSON.stringify(t.function.parameters)}`);
  return [
    'You can call these tools:',
    ...list,
    'Reply with JSON only: {"tool_calls": [{"name": "TOOL", "arguments": {...}}]} to call tools, or {"answer": "your answer"} when done.',
    'Tool results come back as a user message starting "Tool results:".',
  ].join('\n');
}
