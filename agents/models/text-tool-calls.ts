// Tool calls written as text, for models without native tool calling (and for
// servers that leak calls into `content`: LM Studio with tool_choice "required",
// Ollama and llama.cpp template mismatches). RAIDER (paper 001 §3.3) prompts the
// model to write `call_tool{tool: name, args: [a, b]}` and its program flow
// manager parses that; other models write JSON (`{"name":…, "arguments":…}`) or
// Hermes `<tool_call>{…}</tool_call>`. Parsing accepts every format whichever
// one was asked for, because small models drift between them.
import type { ChatMessage, Completion, CompletionRequest, Model, ModelTool, ToolCall } from './model';

export type TextToolCallFormat = 'raider' | 'json' | 'hermes';
export const TEXT_TOOL_CALL_FORMATS: readonly TextToolCallFormat[] = ['raider', 'json', 'hermes'];

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

const NAME = /^[A-Za-z_][A-Za-z0-9_.-]{0,63}$/;

/**
 * Finds tool calls in model text. `tools` gives positional RAIDER arguments
 * their names (the order of the JSON-schema properties); `onlyKnown` drops calls
 * naming tools not in `tools` (a guard for servers whose text merely mentions JSON).
 */
export function parseTextToolCalls(content: string, opts: { tools?: readonly ModelTool[]; onlyKnown?: boolean } = {}): TextToolCallParse {
  const spans: Array<{ start: number; end: number; calls: ParsedTextToolCall[] }> = [];
  const claimed = (i: number): boolean => spans.some((s) => i >= s.start && i < s.end);
  const tools = opts.tools ?? [];

  // Hermes: <tool_call>{…}</tool_call>; a missing close tag is tolerated (the model stopped at it).
  for (const m of content.matchAll(/<tool_call>/g)) {
    const start = m.index;
    const bodyStart = start + m[0].length;
    const close = content.indexOf('</tool_call>', bodyStart);
    const end = close < 0 ? content.length : close + '</tool_call>'.length;
    const body = content.slice(bodyStart, close < 0 ? content.length : close);
    const calls = jsonValues(body).flatMap((v) => callsFromJson(v, true, tools));
    if (calls.length) spans.push({ start, end, calls: calls.map((c) => ({ ...c, format: 'hermes', raw: content.slice(start, end) })) });
  }

  // RAIDER: call_tool{tool: name, args: [...]} (also with parentheses).
  for (const m of content.matchAll(/call_tool\s*([{(])/g)) {
    const start = m.index;
    if (claimed(start)) continue;
    const open = start + m[0].length - 1;
    const close = findClose(content, open);
    const end = close < 0 ? content.length : close + 1;
    const inner = content.slice(open + 1, close < 0 ? content.length : close);
    const call = raiderCall(inner, tools);
    if (call) spans.push({ start, end, calls: [{ ...call, format: 'raider', raw: content.slice(start, end) }] });
  }

  // JSON objects (or arrays of them) anywhere else, fenced or bare.
  for (let i = 0; i < content.length; i++) {
    const c = content[i];
    if ((c !== '{' && c !== '[') || claimed(i)) continue;
    const close = findClose(content, i);
    if (close < 0) continue;
    const seg = content.slice(i, close + 1);
    const value = parseJsonish(seg);
    if (value === undefined) continue;
    const items = Array.isArray(value) ? value : [value];
    const calls = items.flatMap((v) => callsFromJson(v, false, tools));
    if (calls.length && calls.length === items.length) {
      spans.push({ start: i, end: close + 1, calls: calls.map((cl) => ({ ...cl, format: 'json', raw: seg })) });
    }
    i = close; // a non-call object's insides are not calls either (e.g. RAIDER's {"final_response": …})
  }

  spans.sort((a, b) => a.start - b.start);
  const known = new Set(tools.map((t) => t.function.name));
  const keep = (c: ParsedTextToolCall): boolean => !opts.onlyKnown || known.has(c.name);
  const kept = spans.filter((s) => s.calls.every(keep));
  return { calls: kept.flatMap((s) => s.calls), text: removeSpans(content, kept) };
}

/** Parses the inside of `call_tool{…}`. */
function raiderCall(inner: string, tools: readonly ModelTool[]): Omit<ParsedTextToolCall, 'format' | 'raw'> | undefined {
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
function callsFromJson(v: unknown, lenient: boolean, tools: readonly ModelTool[]): Array<Omit<ParsedTextToolCall, 'format' | 'raw'>> {
  if (Array.isArray(v)) return lenient ? v.flatMap((x) => callsFromJson(x, lenient, tools)) : [];
  if (!isRecord(v)) return [];
  if (isRecord(v['function']) && typeof v['function']['name'] === 'string') return callsFromJson(v['function'], true, tools);
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
    if (/^\s*(?:[-*•>]|\d+[.)])?\s*[`:,;]*\s*$/.test(rest)) continue;
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

// --- scanning helpers ---------------------------------------------------------

const QUOTES: Record<string, string> = { '"': '"', "'": "'", '\u201c': '\u201d', '\u2018': '\u2019' };

/**
 * Index of the bracket closing the one at `open`, skipping quoted strings; -1
 * if unbalanced. A `'` only opens a string where a value can start, so an
 * apostrophe inside a bare word (robot's) does not.
 */
function findClose(s: string, open: number): number {
  const stack: string[] = [];
  for (let i = open; i < s.length; i++) {
    const c = s[i] ?? '';
    const closeQuote = QUOTES[c];
    if (closeQuote !== undefined && (c === '"' || c === '\u201c' || valueStart(s, i))) {
      const end = endOfString(s, i, closeQuote);
      if (end < 0) return -1;
      i = end;
      continue;
    }
    if (c === '{' || c === '[' || c === '(') stack.push(c === '{' ? '}' : c === '[' ? ']' : ')');
    else if (c === '}' || c === ']' || c === ')') {
      if (stack.pop() !== c) return -1;
      if (!stack.length) return i;
    }
  }
  return -1;
}

function valueStart(s: string, i: number): boolean {
  for (let j = i - 1; j >= 0; j--) {
    const c = s[j] ?? '';
    if (c === ' ' || c === '\t' || c === '\n' || c === '\r') continue;
    return '[{(,:'.includes(c);
  }
  return true;
}

function endOfString(s: string, start: number, close: string): number {
  for (let i = start + 1; i < s.length; i++) {
    if (s[i] === '\\') i++;
    else if (s[i] === close) return i;
  }
  return -1;
}

/** Every JSON-ish value (object or array) in a text, in order. */
function jsonValues(text: string): unknown[] {
  const out: unknown[] = [];
  for (let i = 0; i < text.length; i++) {
    if (text[i] !== '{' && text[i] !== '[') continue;
    const close = findClose(text, i);
    if (close < 0) continue;
    const v = parseJsonish(text.slice(i, close + 1));
    if (v !== undefined) {
      out.push(v);
      i = close;
    }
  }
  return out;
}

/** JSON, else the tolerant parser (single quotes, bare words, trailing commas); undefined if neither. */
export function parseJsonish(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    try {
      return new Loose(text).document();
    } catch {
      return undefined;
    }
  }
}

/**
 * A forgiving reader for what models write when asked for call_tool{…}: keys
 * and strings may be bare or single-quoted, lists may end with a comma, Python's
 * True/False/None are read as JSON's.
 */
class Loose {
  private i = 0;
  constructor(private readonly s: string) {}

  document(): unknown {
    const v = this.value('');
    this.ws();
    if (this.i < this.s.length) throw new Error(`unexpected "${this.s.slice(this.i, this.i + 10)}"`);
    return v;
  }

  private ws(): void {
    while (this.i < this.s.length && /\s/.test(this.s[this.i] ?? '')) this.i++;
  }

  private value(stops: string): unknown {
    this.ws();
    const c = this.s[this.i];
    if (c === undefined) throw new Error('unexpected end');
    if (c === '{') return this.object();
    if (c === '[') return this.array();
    const close = QUOTES[c];
    if (close !== undefined) return this.string(close);
    return this.bare(stops);
  }

  private object(): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    this.i++;
    for (;;) {
      this.ws();
      if (this.s[this.i] === '}') {
        this.i++;
        return out;
      }
      const q = QUOTES[this.s[this.i] ?? ''];
      const key = q !== undefined ? this.string(q) : this.until(':').trim();
      this.ws();
      if (this.s[this.i] !== ':') throw new Error('expected ":"');
      this.i++;
      out[key] = this.value(',}');
      this.ws();
      if (this.s[this.i] === ',') this.i++;
      else if (this.s[this.i] !== '}') throw new Error('expected "," or "}"');
    }
  }

  private array(): unknown[] {
    const out: unknown[] = [];
    this.i++;
    for (;;) {
      this.ws();
      if (this.s[this.i] === ']') {
        this.i++;
        return out;
      }
      out.push(this.value(',]'));
      this.ws();
      if (this.s[this.i] === ',') this.i++;
      else if (this.s[this.i] !== ']') throw new Error('expected "," or "]"');
    }
  }

  private string(close: string): string {
    const end = endOfString(this.s, this.i, close);
    if (end < 0) throw new Error('unterminated string');
    const body = this.s.slice(this.i + 1, end);
    this.i = end + 1;
    try {
      return JSON.parse(`"${body.replace(/\\'/g, "'").replace(/(?<!\\)"/g, '\\"')}"`) as string;
    } catch {
      return body;
    }
  }

  private until(stops: string): string {
    const start = this.i;
    while (this.i < this.s.length && !stops.includes(this.s[this.i] ?? '')) this.i++;
    return this.s.slice(start, this.i);
  }

  private bare(stops: string): unknown {
    const word = this.until(stops || ',]}').trim();
    if (!word) throw new Error('empty value');
    if (/^-?\d+(\.\d+)?([eE][+-]?\d+)?$/.test(word)) return Number(word);
    if (/^(true|True)$/.test(word)) return true;
    if (/^(false|False)$/.test(word)) return false;
    if (/^(null|None)$/.test(word)) return null;
    return word;
  }
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

// --- prompting ------------------------------------------------------------------

/** The tool list as the model reads it in the system message. */
export function describeTools(tools: readonly ModelTool[], format: TextToolCallFormat): string {
  return tools
    .map((t) => {
      const params = t.function.parameters;
      const props = isRecord(params['properties']) ? params['properties'] : {};
      const required = new Set(
        Array.isArray(params['required']) ? params['required'].filter((r): r is string => typeof r === 'string') : [],
      );
      if (format !== 'raider') return `- ${t.function.name}: ${t.function.description}\n  parameters: ${JSON.stringify(params)}`;
      const sig = Object.entries(props).map(([k, s]) => `${k}${required.has(k) ? '' : '?'}: ${typeText(s)}`);
      const notes = Object.entries(props)
        .filter(([, s]) => isRecord(s) && typeof s['description'] === 'string')
        .map(([k, s]) => `\n    ${k}: ${String((s as Record<string, unknown>)['description'])}`);
      return `- ${t.function.name}(${sig.join(', ')}): ${t.function.description}${notes.join('')}`;
    })
    .join('\n');
}

function typeText(s: unknown): string {
  if (!isRecord(s)) return 'any';
  if (Array.isArray(s['enum'])) return s['enum'].map((e) => JSON.stringify(e)).join(' | ');
  if (s['type'] === 'array') return `${typeText(s['items'])}[]`;
  if (typeof s['type'] === 'string') return s['type'];
  if (Array.isArray(s['anyOf'])) return s['anyOf'].map(typeText).join(' | ');
  return 'any';
}

/** How to write a call, in the chosen format. */
export function formatInstructions(format: TextToolCallFormat, toolChoice?: CompletionRequest['toolChoice']): string {
  const how = {
    raider: [
      'To call a tool, write a line of exactly this form:',
      'call_tool{tool: tool_name, args: ["first argument", 2]}',
      'List the arguments in the order of the tool signature ([] when it takes none); quote strings.',
    ],
    json: [
      'To call a tool, write a JSON object of this form in its own ```json block:',
      '{"name": "tool_name", "arguments": {"parameter": "value"}}',
    ],
    hermes: ['To call a tool, write:', '<tool_call>', '{"name": "tool_name", "arguments": {"parameter": "value"}}', '</tool_call>'],
  }[format];
  const rules = [
    'You may write several calls, one after another. Then stop: the results come back in the next message.',
    toolChoice === 'required'
      ? 'You must call at least one tool now.'
      : toolChoice === 'none'
        ? 'Do not call any tool now; answer from what you know.'
        : 'When you need no more tools, give your final answer without any tool call in it.',
  ];
  return [...how, ...rules].join('\n');
}

/** Writes a call back into text, so a text-only model sees its earlier calls in its own format. */
export function renderTextToolCall(call: ToolCall, format: TextToolCallFormat, tools: readonly ModelTool[]): string {
  const parsed = parseJsonish(call.function.arguments);
  const args = isRecord(parsed) ? parsed : {};
  const json = JSON.stringify({ name: call.function.name, arguments: args });
  if (format === 'json') return `\`\`\`json\n${json}\n\`\`\``;
  if (format === 'hermes') return `<tool_call>\n${json}\n</tool_call>`;
  const tool = tools.find((t) => t.function.name === call.function.name);
  const keys = tool && isRecord(tool.function.parameters['properties']) ? Object.keys(tool.function.parameters['properties']) : [];
  // Positional only when that loses nothing; otherwise named (the parser reads both).
  const positionalOk = Object.keys(args).every((k) => keys.includes(k)) && keys.slice(0, Object.keys(args).length).every((k) => k in args);
  const list = positionalOk ? JSON.stringify(keys.filter((k) => k in args).map((k) => args[k])) : JSON.stringify(args);
  return `call_tool{tool: ${call.function.name}, args: ${list}}`;
}

// --- the Model wrapper ------------------------------------------------------------

export interface TextToolCallOptions {
  format: TextToolCallFormat;
  /** Defaults to the wrapped model's id. */
  id?: string;
}

/**
 * For models without native tool calling: the tool list and the call format go
 * into the system message, no `tools` are sent, and calls are parsed from the
 * reply (toolCallSource 'text'). Earlier calls and results in the history are
 * rewritten as text too, since such servers may drop or reject `tool` messages.
 */
export function withTextToolCalls(model: Model, opts: TextToolCallOptions): Model {
  let seq = 0;
  return {
    id: opts.id ?? model.id,
    async complete(req: CompletionRequest): Promise<Completion> {
      const tools = req.tools ?? [];
      const messages = textHistory(req.messages, tools, opts.format, req.toolChoice);
      const filter = req.onText ? new HeldBackText(req.onText) : undefined;
      const inner = await model.complete({
        ...req,
        messages,
        tools: undefined,
        toolChoice: undefined,
        onText: filter ? (d) => filter.push(d) : undefined,
        onRetry: (info) => {
          filter?.reset();
          req.onRetry?.(info);
        },
      });
      if (inner.toolCalls.length) {
        filter?.end(inner.message.content ?? '');
        return inner;
      }
      const content = inner.message.content ?? '';
      const parsed = tools.length && req.toolChoice !== 'none' ? parseTextToolCalls(content, { tools }) : { calls: [], text: content };
      filter?.end(parsed.text);
      if (!parsed.calls.length) return { ...inner, message: { role: 'assistant', content } };
      const turn = ++seq;
      const toolCalls: ToolCall[] = parsed.calls.map((c, i) => ({
        id: `call_text_${turn}_${i + 1}`,
        type: 'function',
        function: { name: c.name, arguments: c.arguments },
      }));
      return {
        ...inner,
        message: { role: 'assistant', content: parsed.text || null, tool_calls: toolCalls },
        toolCalls,
        finishReason: 'tool_calls',
        toolCallSource: 'text',
      };
    },
  };
}

/** Rewrites a native-tools history for a text-only model. */
export function textHistory(
  messages: readonly ChatMessage[],
  tools: readonly ModelTool[],
  format: TextToolCallFormat,
  toolChoice?: CompletionRequest['toolChoice'],
): ChatMessage[] {
  const names = new Map<string, string>();
  const out: ChatMessage[] = [];
  const fromTool = new Set<ChatMessage>();
  for (const m of messages) {
    if (m.role === 'assistant') {
      for (const tc of m.tool_calls ?? []) names.set(tc.id, tc.function.name);
      const calls = (m.tool_calls ?? []).map((tc) => renderTextToolCall(tc, format, tools));
      out.push({ role: 'assistant', content: [m.content ?? '', ...calls].filter(Boolean).join('\n') });
    } else if (m.role === 'tool') {
      const msg: ChatMessage = {
        role: 'user',
        content: `Result of ${names.get(m.tool_call_id) ?? 'tool'} (${m.tool_call_id}):\n${m.content}`,
      };
      fromTool.add(msg);
      out.push(msg);
    } else out.push({ ...m });
  }
  // Tool results become user turns; merge neighbours because strict chat
  // templates (Mistral, Gemma) reject two user turns in a row.
  const merged: ChatMessage[] = [];
  for (const m of out) {
    const prev = merged.at(-1);
    if (prev && prev.role === 'user' && m.role === 'user' && (fromTool.has(prev) || fromTool.has(m))) {
      const joined: ChatMessage = { role: 'user', content: `${prev.content}\n\n${m.content}` };
      fromTool.add(joined);
      merged[merged.length - 1] = joined;
    } else merged.push(m);
  }
  if (!tools.length) return merged;
  const section = `## Tools\n${describeTools(tools, format)}\n\n## Tool call format\n${formatInstructions(format, toolChoice)}`;
  const sys = merged.findIndex((m) => m.role === 'system');
  const first = merged[sys];
  if (first && first.role === 'system') merged[sys] = { role: 'system', content: `${first.content}\n\n${section}` };
  else merged.unshift({ role: 'system', content: section });
  return merged;
}

/**
 * Streams text while holding back anything that may be a call, so the user does
 * not watch `call_tool{…}` scroll by and then vanish. Once a line shows a call
 * marker, the rest waits for the end and the cleaned text.
 */
class HeldBackText {
  private buf = '';
  private emitted = '';
  private holding = false;

  constructor(private readonly sink: (delta: string) => void) {}

  push(delta: string): void {
    this.buf += delta;
    if (this.holding) return;
    const pending = this.buf.slice(this.emitted.length);
    const marker = /call_tool|<tool_call|```|\{/.exec(pending);
    let upTo = marker ? marker.index : pending.length;
    if (marker) this.holding = true;
    else upTo = Math.max(0, pending.length - 10); // a marker may be arriving in pieces
    // Never emit the start of a line that is only a bullet so far: the line may be a call.
    const lineStart = this.emitted.length + pending.lastIndexOf('\n', upTo - 1) + 1;
    const line = this.buf.slice(lineStart, this.emitted.length + upTo);
    if (!/[A-Za-z]/.test(line)) upTo = Math.min(upTo, lineStart - this.emitted.length);
    // Whitespace waits for the text after it: the final text is trimmed.
    while (upTo > 0 && /\s/.test(pending[upTo - 1] ?? '')) upTo--;
    if (upTo > 0) this.emit(pending.slice(0, upTo));
  }

  /** Emits what is left of the final, cleaned text. */
  end(finalText: string): void {
    for (const prefix of [this.emitted, this.emitted.trimEnd(), this.emitted.trimStart(), this.emitted.trim()]) {
      if (finalText.startsWith(prefix)) {
        const rest = finalText.slice(prefix.length);
        if (rest) this.sink(rest);
        return;
      }
    }
  }

  reset(): void {
    this.buf = '';
    this.emitted = '';
    this.holding = false;
  }

  private emit(text: string): void {
    this.emitted += text;
    this.sink(text);
  }
}
