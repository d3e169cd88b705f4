// What a model reads about the sandbox, and what it gets back. ALRM gives its
// code executor "definitions of all actions (represented as Python functions),
// including method descriptions, input parameters, and expected outputs"
// (paper 002 §III.B.2); here they are TypeScript-style declarations, one a line.
import { argsText } from './explain';
import type { SandboxApi, SandboxResult } from './types';

/** A JSON Schema object as tools carry it (only the parts rendered here). */
export interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  enum?: unknown[];
  description?: string;
}

export interface ApiDoc {
  /** One line: what the function does. */
  doc: string;
  /** The parameters: a declaration (`object_name: string`) or the tool's JSON Schema of an object. */
  params?: string | JsonSchema;
  /** The type of what it returns; `unknown` by default. */
  returns?: string;
}

/**
 * The API as a model should see it:
 * `function pick(object_name: string): string; // Picks up an object…`
 * followed by `print`. Functions without a doc are listed with `(...args: unknown[])`.
 */
export function describeApi(api: SandboxApi, docs: Readonly<Record<string, ApiDoc | string>> = {}): string {
  const lines = Object.keys(api).map((name) => {
    const raw = docs[name];
    const d: ApiDoc = typeof raw === 'string' ? { doc: raw } : (raw ?? { doc: '', params: '...args: unknown[]' });
    const params = typeof d.params === 'string' ? d.params : d.params ? paramsOf(d.params) : '';
    const doc = oneLine(d.doc);
    return `function ${name}(${params}): ${d.returns ?? 'unknown'};${doc ? ` // ${doc}` : ''}`;
  });
  lines.push('function print(...values: unknown[]): void; // writes a line to the output (console.log does the same)');
  return lines.join('\n');
}

/** `{ properties: { object_name: { type: 'string' } }, required: [...] }` → `object_name: string`. */
export function paramsOf(schema: JsonSchema): string {
  const required = new Set(schema.required ?? []);
  return Object.entries(schema.properties ?? {})
    .map(([k, v]) => `${k}${required.has(k) ? '' : '?'}: ${typeOf(v)}`)
    .join(', ');
}

function typeOf(s: JsonSchema): string {
  if (s.enum) return s.enum.map((v) => JSON.stringify(v)).join(' | ');
  const types = Array.isArray(s.type) ? s.type : s.type ? [s.type] : [];
  if (!types.length) return s.properties ? objectType(s) : 'unknown';
  return types
    .map((t) => {
      if (t === 'integer') return 'number';
      if (t === 'array') return `${s.items ? wrap(typeOf(s.items)) : 'unknown'}[]`;
      if (t === 'object') return s.properties ? objectType(s) : 'Record<string, unknown>';
      return t;
    })
    .join(' | ');
}

const objectType = (s: JsonSchema) => `{ ${paramsOf(s).replaceAll(', ', '; ')} }`;
const wrap = (t: string) => (t.includes('|') ? `(${t})` : t);
const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim();

/**
 * Arguments as a record of the named parameters, whichever way the program
 * called: positionally (`place("bowl_1")` with names `["target", "position"]`)
 * or with one object (`place({ target: "bowl_1" })`). Throws a message the
 * program (and so the model) reads when there are more arguments than names.
 */
export function namedArgs(name: string, args: unknown[] | Record<string, unknown>, names: readonly string[]): Record<string, unknown> {
  if (!Array.isArray(args)) return args;
  if (args.length > names.length) {
    throw new Error(
      `${name} takes ${names.length ? `at most ${names.length} argument(s): ${names.join(', ')}` : 'no arguments'}; it got ${args.length}.`,
    );
  }
  const out: Record<string, unknown> = {};
  args.forEach((v, i) => {
    if (v !== undefined) out[names[i]!] = v;
  });
  return out;
}

/**
 * The run as text for the model: each API call with its outcome, the output,
 * then the value or the error (ALRM's observation "built from the execution logs").
 */
export function formatResult(r: SandboxResult, maxValueChars = 2000): string {
  const parts: string[] = [];
  if (r.calls.length) {
    parts.push('API calls:');
    for (const c of r.calls) {
      const outcome = c.outcome.ok ? `→ ${clip(show(c.outcome.value), 300)}` : `✗ ${clip(c.outcome.error, 300)}`;
      parts.push(`${c.seq}. ${c.name}(${argsText(c.args)}) ${outcome}`);
    }
  }
  if (r.output) parts.push(`Output:\n${r.output.replace(/\n$/, '')}`);
  if (r.ok)
    parts.push(
      r.value === undefined ? 'The program finished.' : `The program finished and returned ${clip(show(r.value), maxValueChars)}.`,
    );
  else parts.push(r.error.message);
  return parts.join('\n');
}

const show = (v: unknown) => (typeof v === 'string' ? v : v === undefined ? 'undefined' : JSON.stringify(v));
const clip = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);
