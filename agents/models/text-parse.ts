// Finding tool calls in model text (RAIDER's call_tool{…}, JSON objects, Hermes
// <tool_call> blocks). Parsing accepts every format whichever one was asked for,
// because small models drift between them. Model text is untrusted: the search
// reads at most MAX_TEXT_TOOL_CALL_INPUT characters and runs in linear time
// (text-scan.ts), so a reply of 60 k `[` costs milliseconds, not minutes.
import type { ModelTool } from './model';
import { Brackets, isRecord, Loose, parseJsonish, QUOTES } from './text-scan';

export type TextToolCallFormat = 'raider' | 'json' | 'hermes';

export interface ParsedTextToolCall {
  name: string;
  /** JSON object text, like a native call's `function.arguments`. */
  arguments: string;
  format: TextToolCallFormat;
  /** The text the call was parsed from. */
  raw: string;
}

export interface TextToolCallParse {
  calls: ParsedTextToolCall[];
  /** The content with the calls (and what only wrapped them) removed. */
  text: string;
}

/** Calls are looked for in the first this-many characters of a reply only (a reply is rarely over 30 k). */
export const MAX_TEXT_TOOL_CALL_INPUT = 256 * 1024;
/** A region inside this many regions that failed to parse is not tried: keeps the work linear. */
const MAX_FAILED_NESTING = 3;
/** Arrays of calls nest this deep at most (Hermes may wrap calls in a list). */
const MAX_CALL_DEPTH = 4;

const NAME = /^[A-Za-z_][A-Za-z0-9_.-]{0,63}$/;
const HERMES_OPEN = '<tool_call>';
const HERMES_CLOSE = '</tool_call>';

type Call = Omit<ParsedTextToolCall, 'format' | 'raw'>;
interface Span {
  start: number;
  end: number;
  calls: ParsedTextToolCall[];
}

/**
 * Finds tool calls in model text. `tools` gives positional RAIDER arguments
 * their names (the order of the JSON-schema properties); `onlyKnown` drops calls
 * naming tools not in `tools` (a guard for servers whose text merely mentions JSON).
 */
export function parseTextToolCalls(content: string, opts: { tools?: readonly ModelTool[]; onlyKnown?: boolean } = {}): TextToolCallParse {
  const tools = opts.tools ?? [];
  const s = flat(content.length > MAX_TEXT_TOOL_CALL_INPUT ? content.slice(0, MAX_TEXT_TOOL_CALL_INPUT) : content);
  const spans: Span[] = [];
  const claimedMask = new Uint8Array(s.length);
  const claim = (sp: Span): void => {
    spans.push(sp);
    claimedMask.fill(1, sp.start, Math.min(sp.end, s.length));
  };
  const brackets = new Brackets(s);

  hermesSpans(s, tools).forEach(claim);

  // RAIDER: call_tool{tool: name, args: [...]} (also with parentheses).
  const markers = [...s.matchAll(/call_tool\s*([{(])/g)];
  let attemptedTo = 0;
  markers.forEach((m, k) => {
    const start = m.index;
    if (claimedMask[start] || start < attemptedTo) return;
    const open = start + m[0].length - 1;
    const close = brackets.closeOf(open);
    // An unclosed call is read to the end only when it is the last one (the model stopped mid-call).
    if (close < 0 && k < markers.length - 1) return;
    const end = close < 0 ? s.length : close + 1;
    attemptedTo = end;
    const call = guarded(() => raiderCall(s.slice(open + 1, close < 0 ? s.length : close), tools));
    if (call) claim({ start, end, calls: [{ ...call, format: 'raider', raw: s.slice(start, end) }] });
  });

  // JSON objects (or arrays of them) anywhere else, fenced or bare.
  const failed: number[] = []; // ends of enclosing regions that did not parse
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if ((c !== '{' && c !== '[') || claimedMask[i]) continue;
    while (failed.length && (failed[failed.length - 1] ?? 0) < i) failed.pop();
    if (failed.length >= MAX_FAILED_NESTING || !mayBeCall(s, i)) continue;
    const close = brackets.closeOf(i);
    if (close < 0) continue;
    const seg = s.slice(i, close + 1);
    const value = parseJsonish(seg);
    if (value === undefined) {
      failed.push(close);
      continue;
    }
    const items = Array.isArray(value) ? value : [value];
    const calls = guarded(() => items.flatMap((v) => callsFromJson(v, false, tools, 0))) ?? [];
    if (calls.length && calls.length === items.length) {
      claim({ start: i, end: close + 1, calls: calls.map((cl) => ({ ...cl, format: 'json' as const, raw: seg })) });
    }
    i = close; // a non-call object's insides are not calls either (e.g. RAIDER's {"final_response": …})
  }

  spans.sort((a, b) => a.start - b.start);
  const known = new Set(tools.map((t) => t.function.name));
  const keep = (c: ParsedTextToolCall): boolean => !opts.onlyKnown || known.has(c.name);
  const kept = spans.filter((sp) => sp.calls.every(keep));
  return { calls: kept.flatMap((sp) => sp.calls), text: removeSpans(content, kept) };
}

/**
 * Hermes: <tool_call>{…}</tool_call>. A missing close tag is tolerated (the model
 * stopped at it): the block then ends at the next <tool_call> or the end.
 */
function hermesSpans(s: string, tools: readonly ModelTool[]): Span[] {
  // Tags are found in one pass over the characters (V8's indexOf was seen to stall for seconds
  // on 1 MB of repeated tags); a block ends at its close tag or the next open tag.
  const opens: number[] = [];
  const closes: number[] = [];
  for (let i = s.indexOf('<'); i >= 0 && i < s.length; i++) {
    if (s.charCodeAt(i) !== 60) continue;
    if (s.startsWith(HERMES_OPEN, i)) opens.push(i);
    else if (s.startsWith(HERMES_CLOSE, i)) closes.push(i);
  }
  const out: Span[] = [];
  let c = 0;
  opens.forEach((start, k) => {
    const bodyStart = start + HERMES_OPEN.length;
    const next = opens[k + 1] ?? -1;
    while (c < closes.length && (closes[c] ?? 0) < bodyStart) c++;
    const closeAt = closes[c] ?? -1;
    const closed = closeAt >= 0 && (next < 0 || closeAt < next);
    const bodyEnd = closed ? closeAt : next < 0 ? s.length : next;
    const end = closed ? closeAt + HERMES_CLOSE.length : bodyEnd;
    const body = s.slice(bodyStart, bodyEnd);
    const calls = guarded(() => jsonValues(body).flatMap((v) => callsFromJson(v, true, tools, 0))) ?? [];
    if (calls.length) out.push({ start, end, calls: calls.map((cl) => ({ ...cl, format: 'hermes' as const, raw: s.slice(start, end) })) });
  });
  return out;
}

/** Every JSON-ish value (object or array) in a text, in order. */
function jsonValues(text: string): unknown[] {
  const out: unknown[] = [];
  const brackets = new Brackets(text);
  const failed: number[] = [];
  for (let i = 0; i < text.length; i++) {
    if (text[i] !== '{' && text[i] !== '[') continue;
    while (failed.length && (failed[failed.length - 1] ?? 0) < i) failed.pop();
    if (failed.length >= MAX_FAILED_NESTING || !mayBeCall(text, i)) continue;
    const close = brackets.closeOf(i);
    if (close < 0) continue;
    const v = parseJsonish(text.slice(i, close + 1));
    if (v === undefined) failed.push(close);
    else {
      out.push(v);
      i = close;
    }
  }
  return out;
}

/** Cheap shape check before parsing: an object starts with a key, a list of calls with an object. */
function mayBeCall(s: string, open: number): boolean {
  let j = open + 1;
  while (j < s.length && /\s/.test(s[j] ?? '')) j++;
  const c = s[j] ?? '';
  if (s[open] === '[') return c === '{';
  return QUOTES[c] !== undefined || /[A-Za-z_]/.test(c);
}

/** A fresh sequential copy of the text: streamed text is a rope (built by +=), slower to index. */
function flat(text: string): string {
  return JSON.parse(JSON.stringify(text)) as string;
}

/** Runs a step that may meet absurd input (deep nesting); a failure there means "no call". */
function guarded<T>(fn: () => T): T | undefined {
  try {
    return fn();
  } catch {
    return undefined;
  }
}

/** Parses the inside of `call_tool{…}`. */
function raiderCall(inner: string, tools: readonly ModelTool[]): Call | undefined {
  let obj: unknown;
  try {
    obj = new Loose(`{${inner}}`).document();
  } catch {
    return undefined;
  }
  if (!isRecord(obj)) return undefined;
  const name = obj['tool'] ?? obj['name'] ?? obj['tool_name'];
  if (typeof name !== 'string' || !NAME.test(name.trim())) return undefined;
  const args = obj['args'] ?? obj['arguments'] ?? obj['parameters'];
  return { name: name.trim(), arguments: argumentsText(name.trim(), args, tools) };
}

/** A JSON value that names a call, in the shapes models write. */
function callsFromJson(v: unknown, lenient: boolean, tools: readonly ModelTool[], depth: number): Call[] {
  if (depth > MAX_CALL_DEPTH) return [];
  if (Array.isArray(v)) return lenient ? v.flatMap((x) => callsFromJson(x, lenient, tools, depth + 1)) : [];
  if (!isRecord(v)) return [];
  if (isRecord(v['function']) && typeof v['function']['name'] === 'string') return callsFromJson(v['function'], true, tools, depth + 1);
  const name = v['name'] ?? v['tool'] ?? v['tool_name'];
  if (typeof name !== 'string' || !NAME.test(name)) return [];
  const argKey = ['arguments', 'args', 'parameters', 'input'].find((k) => k in v);
  // A bare {"name": "Bowl"} is ordinary data; only a call-shaped object counts.
  if (!argKey && !lenient && !('tool' in v)) return [];
  const args = argKey ? v[argKey] : undefined;
  if (argKey && !lenient && args !== null && typeof args !== 'object' && typeof args !== 'string') return [];
  return [{ name, arguments: argumentsText(name, args, tools) }];
}

/** Arguments as JSON object text; a positional list is named by the tool's schema. */
function argumentsText(name: string, args: unknown, tools: readonly ModelTool[]): string {
  if (args === undefined || args === null) return '{}';
  if (typeof args === 'string') {
    const parsed = parseJsonish(args);
    if (isRecord(parsed)) return JSON.stringify(parsed);
    if (Array.isArray(parsed)) return JSON.stringify(positional(name, parsed, tools));
    // A single bare value: RAIDER models sometimes drop the brackets of a one-item list.
    return JSON.stringify(positional(name, [args], tools));
  }
  if (Array.isArray(args)) return JSON.stringify(positional(name, args, tools));
  if (isRecord(args)) return JSON.stringify(args);
  return JSON.stringify(positional(name, [args], tools));
}

/** Maps positional arguments to the tool's properties in schema order, coercing obvious scalars. */
export function positional(name: string, args: readonly unknown[], tools: readonly ModelTool[]): Record<string, unknown> {
  const tool = tools.find((t) => t.function.name === name);
  const props = tool && isRecord(tool.function.parameters['properties']) ? tool.function.parameters['properties'] : {};
  const keys = Object.keys(props);
  const out: Record<string, unknown> = {};
  args.forEach((a, i) => {
    const key = keys[i];
    // Extra arguments keep a visible name so validation can tell the model about them.
    if (key === undefined) out[`arg${i}`] = a;
    else out[key] = coerce(a, props[key]);
  });
  return out;
}

function coerce(value: unknown, schema: unknown): unknown {
  const type = isRecord(schema) ? schema['type'] : undefined;
  if ((type === 'number' || type === 'integer') && typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value)))
    return Number(value);
  if (type === 'boolean' && typeof value === 'string' && /^(true|false)$/i.test(value)) return value.toLowerCase() === 'true';
  if (type === 'string' && (typeof value === 'number' || typeof value === 'boolean')) return String(value);
  return value;
}

/** Removes call spans; drops lines left holding only a bullet, backticks or a fence. */
function removeSpans(content: string, spans: ReadonlyArray<{ start: number; end: number }>): string {
  if (!spans.length) return content.trim();
  const MARK = '\u0000';
  let s = '';
  let at = 0;
  for (const sp of spans) {
    s += content.slice(at, sp.start) + MARK;
    at = sp.end;
  }
  s += content.slice(at);
  const lines: string[] = [];
  for (const line of s.split('\n')) {
    if (!line.includes(MARK)) {
      lines.push(line);
      continue;
    }
    const rest = line
      .split(MARK)
      .join('')
      .replace(/`\s*`/g, '')
      .replace(/(\S) {2,}(?=\S)/g, '$1 ');
    // Trimmed first: two \s* around an optional group backtrack quadratically on long blank runs.
    if (/^(?:[-*•>]|\d+[.)])?[\s`:,;]*$/.test(rest.trim())) continue;
    lines.push(rest);
  }
  // Fences whose contents were all calls.
  const out: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i] ?? '';
    if (/^\s*```[\w-]*\s*$/.test(l) && /^\s*```\s*$/.test(lines[i + 1] ?? '')) {
      i++;
      continue;
    }
    out.push(l);
  }
  return out
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}
