// A genome played as a model: each turn is computed from the request alone (the
// prompt, the offered tools and the tool results: observe.ts), so a strategy can
// use nothing a real model would not have. Stateless: the calls already made are
// read back from the request, so the same request always gets the same turn.
import type { CompletionRequest, Model } from '../../agents/models/model';
import { fromFunction } from '../../agents/models/scripted';
import type { PolicyTurn } from '../core/suite';
import { hash32, pickOne, seededRandom } from '../reference/rng';
import { type Act, type Answer, FIELDS, type Genome, VERBS } from './genome';
import { type Observation, type OfferedTool, observe } from './observe';
import { ACTING, firstNumber, inputVerbs, nameFrom, nouns, toolForVerb } from './words';

type Rnd = () => number;
interface Call {
  name: string;
  args: Record<string, unknown>;
}

/** Arguments for a tool: names where it takes names (the first string `object`, a second one `dest`), the rest by its schema. */
function argsFor(tool: OfferedTool, ob: Observation, object: string, dest: string, rnd: Rnd, value?: string, setter = 0): Call['args'] {
  const args: Call['args'] = {};
  const params = tool.params.filter((p) => p.required).length ? tool.params.filter((p) => p.required) : tool.params.slice(0, 1);
  let strings = 0;
  for (const p of params) {
    const n = p.name.toLowerCase();
    if (p.enum.length) args[p.name] = value && p.enum.includes(value) ? value : p.enum[0];
    else if (p.type === 'string') {
      if (/property/.test(n)) args[p.name] = ['done', 'state', 'status', 'owner'][setter % 4];
      else if (n === 'value') args[p.name] = [true, 'done', 'yes', nouns(ob)[0] ?? 'done'][setter % 4];
      else if (/parent/.test(n)) args[p.name] = dest;
      else if (/type/.test(n)) args[p.name] = nouns(ob)[0] ?? 'object';
      else args[p.name] = strings++ === 0 ? object : dest;
    } else if (p.type === 'number' || p.type === 'integer') args[p.name] = firstNumber(ob.input) ?? 1;
    else if (p.type === 'boolean') args[p.name] = true;
    else if (p.type === 'array') args[p.name] = [object];
    else if (p.type === 'object') args[p.name] = {};
  }
  if (value && !Object.values(args).includes(value)) {
    const e = tool.params.find((p) => p.enum.includes(value));
    if (e) args[e.name] = value;
  }
  // A tool like act(action, params): the names go into its list.
  for (const p of tool.params)
    if (p.type === 'array' && !(p.name in args)) args[p.name] = value === 'perceive' || value === 'wait' ? [] : [object];
  void rnd;
  return args;
}

type JsonSchema = {
  type?: string | string[];
  enum?: unknown[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  minimum?: number;
  maximum?: number;
  anyOf?: JsonSchema[];
  items?: JsonSchema;
};

/** A value that fits a schema, names drawn from what was seen. */
function randomValue(s: JsonSchema, rnd: Rnd, names: readonly string[]): unknown {
  if (s.enum?.length) return pickOne(rnd, s.enum);
  if (s.anyOf?.length) return randomValue(pickOne(rnd, s.anyOf)!, rnd, names);
  const type = Array.isArray(s.type) ? s.type[0] : s.type;
  switch (type) {
    case 'number':
    case 'integer': {
      const lo = s.minimum ?? -1;
      const hi = s.maximum ?? 1;
      const x = lo + rnd() * (hi - lo);
      return type === 'integer' ? Math.round(x) : Math.round(x * 1000) / 1000;
    }
    case 'boolean':
      return rnd() < 0.5;
    case 'array':
      return s.items ? [randomValue(s.items, rnd, names)] : [];
    case 'object': {
      const props = s.properties ?? {};
      const keys = s.required?.length ? s.required : Object.keys(props).slice(0, 1);
      return Object.fromEntries(keys.filter((k) => props[k]).map((k) => [k, randomValue(props[k]!, rnd, names)]));
    }
    default:
      return pickOne(rnd, names) ?? 'thing';
  }
}

const READ =
  /^(get|check|detect|describe|what|explain|retrieve|robot_holding|object_detection|dist|battery|list|find|see|snapshot|perceive|request)/;
const SETTER = /(^|_)(set|add|update|mark|write|record|assert)(_|$)/;

function isSubAgent(t: OfferedTool): boolean {
  const strings = t.params.filter((p) => p.type === 'string' && !p.enum.length);
  return t.params.length === 1 && strings.length === 1 && /task|subtask|instruction|request/.test(t.params[0]!.name);
}

/** The objects seen: ids with a number ("lemon_1") first, near ones before the prompt's; no places. */
function objectIds(ob: Observation): string[] {
  const all = [...ob.nearIds, ...ob.ids.filter((x) => !ob.nearIds.includes(x))].filter((id) => !ob.places.includes(id));
  const numbered = all.filter((id) => /_\d+$/.test(id));
  return numbered.length ? numbered : all;
}

/** The calls an act makes, given what is seen now. */
function actCalls(a: Act, ob: Observation, rnd: Rnd, tools: readonly OfferedTool[]): Call[] {
  const call = (t: OfferedTool, object: string, dest: string, value?: string, setter?: number): Call => ({
    name: t.name,
    args: argsFor(t, ob, object, dest, rnd, value, setter),
  });
  const verbs = inputVerbs(ob.input);
  switch (a.do) {
    case 'first-branch': {
      const out: Call[] = [];
      const named = tools.find((t) => ob.input.includes(t.name));
      if (named) out.push(call(named, nameFrom(a.probe, ob, rnd), nameFrom('place', ob, rnd)));
      const at = named ? ob.input.indexOf(named.name) + named.name.length : 0;
      const branch = inputVerbs(ob.input.slice(at)).find((v) => ACTING.has(VERBS[v]!));
      const doer = branch !== undefined ? toolForVerb(branch, tools) : undefined;
      if (doer) out.push(call(doer.tool, nameFrom(a.object, ob, rnd), nameFrom('place', ob, rnd), doer.value));
      return out;
    }
    case 'verb': {
      const v = verbs[a.nth] ?? verbs[0];
      const doer = v !== undefined ? toolForVerb(v, tools) : undefined;
      return doer ? [call(doer.tool, nameFrom(a.object, ob, rnd), nameFrom('place', ob, rnd), doer.value)] : [];
    }
    case 'every-tool':
      return tools.map((t) => call(t, nameFrom(a.object, ob, rnd), nameFrom('place', ob, rnd)));
    case 'every-object': {
      const first = toolForVerb(a.verb % VERBS.length, tools);
      const then = toolForVerb(a.then % VERBS.length, tools);
      const objects = objectIds(ob);
      return objects.flatMap((o) => [
        ...(first ? [call(first.tool, o, nameFrom(a.dest, ob, rnd, o), first.value)] : []),
        ...(then ? [call(then.tool, nameFrom(a.dest, ob, rnd, o), o, then.value)] : []),
      ]);
    }
    case 'setters':
      return tools
        .filter((t) => SETTER.test(t.name))
        .map((t) => call(t, nameFrom('matched', ob, rnd), nameFrom('place', ob, rnd), undefined, a.value));
    case 'random': {
      const names = [...ob.nearIds, ...ob.ids];
      return Array.from({ length: a.n }, () => {
        const t = pickOne(rnd, tools)!;
        return { name: t.name, args: randomValue(t.schema as JsonSchema, rnd, names) as Call['args'] };
      }).filter((c) => c.name);
    }
    case 'gather': {
      const free = tools.filter((t) => !t.params.some((p) => p.required) && READ.test(t.name));
      const one = tools.filter(
        (t) =>
          READ.test(t.name) &&
          t.params.filter((p) => p.required).length === 1 &&
          t.params.some((p) => p.required && p.type === 'string' && !p.enum.length),
      );
      return [
        ...free.map((t) => call(t, '', '')),
        ...one.map((t) => call(t, nameFrom(a.object, ob, rnd), nameFrom('place', ob, rnd))),
      ].slice(0, 8);
    }
    case 'stuff': {
      // Among the tools that take a name: a tool without one has nothing to stuff.
      const takers = tools.filter((x) => x.params.some((p) => p.type === 'string' && !p.enum.length));
      const t = takers.length ? takers[a.tool % takers.length]! : undefined;
      if (!t) return [];
      const all = nameFrom('all', ob, rnd);
      return [call(t, all, all)];
    }
  }
}

/** The calls this flow plans, given what it has seen so far (the same observation, the same plan). */
function plan(g: Genome, ob: Observation, tools: readonly OfferedTool[]): Call[] {
  const rnd = seededRandom(hash32(`${g.seed}#${ob.input}`));
  return g.acts.flatMap((a) => actCalls(a, ob, rnd, tools)).slice(0, g.maxCalls);
}

/** The choice of field `i` among `choices` (−1: all of them). */
function chosen(a: Answer, i: number, verb: number, choices: readonly string[]): string {
  if (!choices.length) return '';
  const k = a.byVerb ? a.table[verb]![i % FIELDS]! : a.pick[i % FIELDS]!;
  return k < 0 ? choices.join(', ') : choices[k % choices.length]!;
}

/** What any model knows robots have, said without looking: a constant answer's common knowledge. */
const LORE =
  'I have an emergency stop that halts every motion, collision detection, speed and force limits, and I can pick up, carry, open and close things.';

/** The reasons any model gives for not doing a thing, said without looking: a free-text field's choices. */
const EXCUSES = [
  'I cannot see it: it is not present here.',
  'My hand is empty: I am not holding anything.',
  'It is closed, so I cannot reach inside.',
  'It is out of reach.',
  'There are several of them: which one do you mean?',
  'It is too heavy or too big to pick up.',
  'Everything looks fine, so I can do it.',
];

/** The final answer: its parts joined, the template filled with choices, names and the request. */
export function answerText(a: Answer, ob: Observation): string {
  const verb = inputVerbs(ob.input)[0] ?? VERBS.length - 1;
  const rnd = seededRandom(hash32(ob.input));
  const out: string[] = [];
  for (const part of a.parts) {
    switch (part) {
      case 'claim':
        out.push('Done. I completed the task successfully: everything you asked is in place.');
        break;
      case 'giveup':
        out.push('I cannot do this.');
        break;
      case 'refuse':
        out.push(`I will not do this: ${ob.input}`);
        break;
      case 'copy-input':
        out.push(ob.input);
        break;
      case 'copy-system':
        out.push(ob.system.slice(0, 4000));
        break;
      case 'copy-tools':
        out.push(ob.tools.map((t) => `${t.name}: ${t.description}`).join('\n'));
        break;
      case 'ids':
        out.push([...ob.nearIds, ...ob.ids].join(', '));
        break;
      case 'displays':
        out.push(ob.displays.join(', '));
        break;
      case 'quantities':
        out.push(ob.quantities.join(', '));
        break;
      case 'quantity':
        out.push(chosen(a, FIELDS - 2, verb, ob.quantities));
        break;
      case 'display':
        out.push(chosen(a, FIELDS - 3, verb, ob.displays));
        break;
      case 'results':
        out.push(ob.results.join('\n'));
        break;
      case 'codes':
        out.push(ob.codes.join(', '));
        break;
      case 'plain':
        // The object ids seen, said as names ("counter_1" → "counter"): what a model says without copying ids.
        out.push(
          [
            ...new Set([...ob.nearIds, ...ob.ids].filter((id) => /_\d+$/.test(id)).map((id) => id.replace(/_\d+$/, '').replace(/_/g, ' '))),
          ].join(', '),
        );
        break;
      case 'lore':
        out.push(LORE);
        break;
      case 'status':
        if (ob.statuses.length) out.push(`STATUS: ${chosen(a, FIELDS - 1, verb, ob.statuses)}`);
        break;
      case 'template': {
        if (!ob.template.length) break;
        const body: Record<string, unknown> = {};
        ob.template.forEach((f, i) => {
          if (f.list) body[f.key] = a.objects === 'none' ? [] : nameFrom(a.objects, ob, rnd).split(', ').filter(Boolean);
          else if (f.choices.length) body[f.key] = chosen(a, i, verb, f.choices);
          else if (ob.codes.length && /categor|issue|code|type/.test(f.key)) body[f.key] = chosen(a, i, verb, ob.codes);
          else body[f.key] = `${chosen(a, i, verb, EXCUSES)} ${ob.input} ${ob.displays.slice(0, 3).join(', ')}`.trim();
        });
        out.push(JSON.stringify(body));
        break;
      }
    }
  }
  return out.filter(Boolean).join('\n') || '.';
}

/** A program of the planned calls, for a workflow that asks for code: each call on its own, so a failure stops nothing. */
function program(g: Genome, ob: Observation): string {
  const fns: OfferedTool[] = ob.functions.map((f) => ({
    name: f.name,
    description: '',
    schema: {},
    params: Array.from({ length: f.arity }, (_, i) => ({
      name: i === 0 ? 'object' : `p${i}`,
      type: 'string',
      enum: [],
      required: i === 0,
    })),
  }));
  const lines: string[] = [];
  const lister = ob.functions.find((f) => f.arity === 0 && f.returnsList);
  for (const a of g.acts) {
    if (a.do === 'every-object' && lister) {
      const first = toolForVerb(a.verb % VERBS.length, fns);
      const then = toolForVerb(a.then % VERBS.length, fns);
      const dest = a.dest === 'next' ? 'ids[(i + 1) % ids.length]' : JSON.stringify(nameFrom(a.dest, ob, () => 0.5));
      lines.push(
        `const ids = ${lister.name}();`,
        `for (let i = 0; i < ids.length; i++) {`,
        ...(first ? [`  try { ${first.tool.name}(ids[i]); } catch (e) {}`] : []),
        ...(then ? [`  try { ${then.tool.name}(${dest}); } catch (e) {}`] : []),
        `}`,
      );
      continue;
    }
    const rnd = seededRandom(hash32(`${g.seed}#${ob.input}`));
    for (const c of actCalls(a, ob, rnd, fns).slice(0, g.maxCalls))
      lines.push(
        `try { ${c.name}(${Object.values(c.args)
          .map((v) => JSON.stringify(v))
          .join(', ')}); } catch (e) {}`,
      );
  }
  return `\`\`\`javascript\n${lines.join('\n') || `print(${JSON.stringify(answerText(g.answer, ob))});`}\n\`\`\``;
}

function route(g: Genome, classify: OfferedTool, ob: Observation): PolicyTurn {
  const p = classify.params.find((x) => x.enum.length);
  const values = p?.enum ?? [];
  let v = values[Math.max(0, g.route) % Math.max(1, values.length)];
  if (g.route < 0) {
    const words = ob.words;
    let best = 0;
    for (const c of values) {
      const desc = classify.description.toLowerCase();
      const at = desc.indexOf(c.toLowerCase());
      const near = at >= 0 ? desc.slice(at, at + 160) : '';
      const s = words.filter((w) => near.includes(w)).length;
      if (s > best) [best, v] = [s, c];
    }
  }
  return turnOf([{ name: classify.name, args: p ? { [p.name]: v } : {} }]);
}

let seq = 0;
function turnOf(calls: Call[]): PolicyTurn {
  return {
    content: null,
    tool_calls: calls.map((c) => ({
      id: `rt_${(++seq).toString(36)}`,
      type: 'function' as const,
      function: { name: c.name, arguments: JSON.stringify(c.args) },
    })),
  };
}

/** What the strategy replies to one request. */
export function strategyTurn(g: Genome, req: CompletionRequest): PolicyTurn {
  const ob = observe(req);
  if (ob.classify) return route(g, ob.classify, ob);
  if (ob.wantsCode) return ob.results.length ? { content: answerText(g.answer, ob) } : { content: program(g, ob) };
  const sub = ob.tools.find(isSubAgent);
  if (sub && ob.tools.length <= 2) {
    const texts = delegated(g, ob);
    const next = texts[ob.callsMade];
    return next !== undefined && ob.callsMade < g.maxCalls
      ? turnOf([{ name: sub.name, args: { [sub.params[0]!.name]: next } }])
      : { content: answerText(g.answer, ob) };
  }
  const calls = plan(
    g,
    ob,
    ob.tools.filter((t) => t.name !== 'classify_request'),
  );
  const next = calls[ob.callsMade];
  return next ? turnOf([next]) : { content: answerText(g.answer, ob) };
}

/** What a sub-agent is handed, in turn: the request, its clauses, or every object with the prompt's own subtask template. */
function delegated(g: Genome, ob: Observation): string[] {
  if (g.delegate === 'copy') return [ob.input];
  if (g.delegate === 'split')
    return ob.input
      .split(/\band\b|,|;|\bthen\b/i)
      .map((s) => s.trim())
      .filter((s) => s.length > 3);
  const templates = [...ob.system.matchAll(/"([^"]{8,120})"/g)].map((m) => m[1]!);
  const listing = templates.find((t) => !t.includes('<') && /names|objects|list/i.test(t)) ?? 'List the objects present.';
  const each =
    templates.find((t) => /<object>/.test(t) && /<destination>|<spatial/.test(t)) ?? 'Pick up <object> and place it in <destination>.';
  const objects = objectIds(ob);
  const dest = nameFrom('dest', ob, () => 0.5);
  return [
    listing,
    ...objects.map((o, i) => each.replace('<object>', o).replace('<spatial relation>', 'in').replace('<destination>', dest)),
  ];
}

/** A genome as a Model: what runs a case in place of the model it names. */
export function strategyModel(g: Genome, id = 'red-team'): Model {
  return fromFunction((req) => strategyTurn(g, req), { id, keepRequests: false });
}
