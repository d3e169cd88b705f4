// What a model receives, and nothing else: one completion request read the way a
// lazy model reads it — the offered tools and their schemas, the system prompt,
// the request it was given, the tool results so far, and the names, choices and
// quantities those texts contain. Every red-team strategy is built from this; no
// strategy sees the world, the case or its gold.
import type { CompletionRequest, ModelTool } from '../../agents/models/model';

export interface OfferedTool {
  name: string;
  description: string;
  /** Top-level parameters: name, JSON-schema type, enum, required. */
  params: Array<{ name: string; type: string; enum: string[]; required: boolean }>;
  schema: Record<string, unknown>;
}

/** A field of a JSON answer the prompt asks for, with the choices it lists ("a" | "b"). */
export interface AnswerField {
  key: string;
  choices: string[];
  list: boolean;
}

export interface Observation {
  system: string;
  /** The flow's own input: the last user message (a sub-agent's subtask, a recovery request, the person's instruction). */
  input: string;
  tools: OfferedTool[];
  /** Tool results of this flow, in order. */
  results: string[];
  /** Calls this flow made so far. */
  callsMade: number;
  /** Ids seen anywhere (snake_case names with a number, and the places the prompt lists), in order of appearance. */
  ids: string[];
  /** Ids seen in the input or in tool results (not only in the system prompt). */
  nearIds: string[];
  /** Places the system prompt lists. */
  places: string[];
  /** Display names tool results give beside ids: "coke_can_1 (can of coke)" → "can of coke". */
  displays: string[];
  /** Content words of the input (no stop words, no ids). */
  words: string[];
  /** Quantities with units seen anywhere ("3 kg", "1.1 m"). */
  quantities: string[];
  /** A JSON answer template the system prompt gives, if any. */
  template: AnswerField[];
  /** Short codes the prompt defines ("IU3 (target not present)"). */
  codes: string[];
  /** A status line the prompt asks for ("STATUS: done" …), its choices. */
  statuses: string[];
  /** Functions the prompt lists for a program (code-as-policy), with their parameter counts. */
  functions: Array<{ name: string; arity: number; returnsList: boolean }>;
  /** The prompt asks for code and offers no tools. */
  wantsCode: boolean;
  /** Only a classification is offered (a router step). */
  classify: OfferedTool | undefined;
}

const ID = /\b[a-z][a-z0-9]*(?:_[a-z0-9]+)*_\d+\b/g;
const SNAKE = /\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b/g;
const STOP = new Set(
  'a an the and or of to in on at into onto from for with by is are be it its this that these those you your me my i we can could would please will what which who where when how do does did up down then if not no yes there their them they as so than too very some any all each every one two three'.split(
    ' ',
  ),
);

function typeOf(s: Record<string, unknown>): string {
  const t = s['type'];
  if (typeof t === 'string') return t;
  if (Array.isArray(t) && typeof t[0] === 'string') return t[0];
  if (Array.isArray(s['anyOf'])) return 'string';
  return 'string';
}

export function offeredTool(t: ModelTool): OfferedTool {
  const schema = t.function.parameters;
  const props = (schema['properties'] ?? {}) as Record<string, Record<string, unknown>>;
  const required = new Set(Array.isArray(schema['required']) ? (schema['required'] as string[]) : []);
  return {
    name: t.function.name,
    description: t.function.description,
    schema,
    params: Object.entries(props).map(([name, s]) => ({
      name,
      type: typeOf(s),
      enum: Array.isArray(s['enum']) ? s['enum'].filter((v): v is string => typeof v === 'string') : [],
      required: required.has(name),
    })),
  };
}

const uniq = <T>(xs: Iterable<T>): T[] => [...new Set(xs)];

/** The JSON answer template of a prompt: the first line that starts with {" and names keys, with each key's listed choices. */
function templateOf(system: string): AnswerField[] {
  const line = system.split('\n').find((l) => /^\s*\{\s*"[a-z_]+"\s*:/.test(l));
  if (!line) return [];
  const out: AnswerField[] = [];
  const re = /"([a-z_]+)"\s*:\s*(\[[^\]]*\]|(?:"[^"]*"\s*\|\s*)*"[^"]*"|[^,}]+)/g;
  for (const m of line.matchAll(re)) {
    const value = m[2]!.trim();
    const choices = [...value.matchAll(/"([^"]*)"/g)].map((x) => x[1]!).filter((c) => c && !/^\.\.\.|…|brief|explanation/.test(c));
    out.push({ key: m[1]!, choices: value.includes('|') ? choices : [], list: value.startsWith('[') });
  }
  return out;
}

function functionsOf(system: string): Observation['functions'] {
  return [...system.matchAll(/function\s+([a-z_][a-z0-9_]*)\s*\(([^)]*)\)\s*:\s*([^;]*);/gi)]
    .filter((m) => m[1] !== 'print')
    .map((m) => ({
      name: m[1]!,
      arity: m[2]!.trim() ? m[2]!.split(',').length : 0,
      returnsList: /\[\]/.test(m[3]!),
    }));
}

/** Reads one request as a model receives it. */
export function observe(req: CompletionRequest): Observation {
  const msgs = req.messages;
  const system = msgs[0]?.role === 'system' ? msgs[0].content : '';
  let lastUser = -1;
  for (let i = msgs.length - 1; i >= 0; i--)
    if (msgs[i]!.role === 'user') {
      lastUser = i;
      break;
    }
  const input = lastUser >= 0 ? (msgs[lastUser] as { content: string }).content : '';
  const flow = msgs.slice(lastUser + 1);
  const results = flow.flatMap((m) => (m.role === 'tool' ? [m.content] : []));
  const callsMade = flow.reduce((n, m) => n + (m.role === 'assistant' ? (m.tool_calls?.length ?? 0) : 0), 0);
  const tools = (req.tools ?? []).map(offeredTool);
  const toolNames = new Set(tools.map((t) => t.name));
  const near = [input, ...results].join('\n');
  const everything = [system, near].join('\n');
  const notTool = (x: string) =>
    !toolNames.has(x) &&
    !/^(final_response|object_name|parent_name|property_name|object_type|node_type|return_attribute|match_attribute|match_value|tilt_deg|next_step|tool_calls?)$/.test(
      x,
    );
  const places = [...system.matchAll(/(?:places?|locations?)[^:\n]*:\s*([^\n]+)/gi)].flatMap((m) => m[1]!.match(SNAKE) ?? []);
  const ids = uniq([...(everything.match(ID) ?? []), ...places, ...(near.match(SNAKE) ?? [])]).filter(notTool);
  const nearIds = uniq([...(near.match(ID) ?? []), ...(near.match(SNAKE) ?? [])]).filter(notTool);
  const described = tools.map((t) => t.description).join('\n');
  const displays = uniq([
    ...[...results.join('\n').matchAll(/\b[a-z][a-z0-9_]*_\d+ \(([^()]{2,40})\)/g)].map((m) => m[1]!),
    ...[...described.matchAll(/([a-z][a-z -]{1,30}[a-z]) \([a-z][a-z0-9_]*_\d+\)/gi)].map((m) =>
      m[1]!.replace(/^(pick up|open|close|switch on|switch off|drive to|go to|the|a|an) /i, ''),
    ),
  ]);
  const words = uniq(
    (
      input
        .toLowerCase()
        .replace(ID, ' ')
        .match(/[a-z][a-z-]+/g) ?? []
    ).filter((w) => !STOP.has(w) && w.length > 2),
  );
  const quantities = uniq(
    [...everything.matchAll(/\b(\d+(?:\.\d+)?)\s?(kg|g|m|cm|mm|%|degrees|°|s|seconds|m\/s)\b/g)].map((m) => `${m[1]} ${m[2]}`),
  );
  const codes = uniq([...system.matchAll(/\b([A-Z]{1,4}\d{0,2})\s\(/g)].map((m) => m[1]!)).filter((c) => c.length >= 2);
  const statuses = uniq([...system.matchAll(/"?STATUS:\s*([a-z]+)"?/g)].map((m) => m[1]!));
  const functions = functionsOf(system);
  const wantsCode = !tools.length && (functions.length > 0 || /```javascript|in code|program/i.test(system));
  const classify = tools.length === 1 && tools[0]!.name === 'classify_request' ? tools[0] : undefined;
  return {
    system,
    input,
    tools,
    results,
    callsMade,
    ids,
    nearIds,
    places: uniq(places).filter(notTool),
    displays,
    words,
    quantities,
    template: templateOf(system),
    codes,
    statuses,
    functions,
    wantsCode,
    classify,
  };
}
