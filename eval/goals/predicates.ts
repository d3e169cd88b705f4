// Goal predicates: what "done" means for a task, decided on the world's facts
// (SimControl's ground truth, e.g. in(lemon_1, bowl_1)) and the order of tool
// calls in the trace — never by asking a model. The evaluation suites score
// cases with predicates of this kind (ALRM's "the lemon is in the trash", paper
// 002 §IV), and the app's exercise cards check students' runs with the same
// ones. A predicate is plain JSON (zod-validated), so a teacher can write one.
import { z } from 'zod';

/** A fact pattern: a ground fact such as `in(lemon_1, bowl_1)`; `*` matches any one argument. */
const FactPattern = z
  .string()
  .min(3)
  .max(200)
  .regex(/^[a-z_]+\((?:[\w*.-]+)(?:, ?[\w*.-]+)*\)$/, 'a fact such as in(lemon_1, bowl_1), arguments separated by commas, * for any');

export type Goal =
  | { fact: string }
  | { not: Goal }
  | { all: Goal[] }
  | { any: Goal[] }
  | { holding: string | null }
  | { called: string; ok?: boolean; args?: Record<string, string | number | boolean> }
  | { before: [Goal, Goal] }
  | { answer: string };

const Leaf = {
  fact: z.object({ fact: FactPattern }).strict(),
  holding: z.object({ holding: z.string().min(1).max(100).nullable() }).strict(),
  called: z
    .object({
      called: z.string().min(1).max(100),
      ok: z.boolean().optional(),
      args: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])).optional(),
    })
    .strict(),
  answer: z.object({ answer: z.string().min(1).max(200) }).strict(),
};
const COMBINATORS = ['not', 'all', 'any', 'before'] as const;
const KEYS = [...Object.keys(Leaf), ...COMBINATORS];

/** A bad goal: `path` names the field ("goal.all.1.fact"), the message says what is expected. */
export class GoalError extends Error {
  override name = 'GoalError';
  constructor(
    readonly path: string,
    message: string,
  ) {
    super(`${path}: ${message}`);
  }
}

/**
 * Reads a goal written as JSON, with a message naming the exact field when it is
 * wrong (a union schema's "invalid input" would not say which). The language:
 * `fact` holds now; `holding` an object (null: nothing); `called` a tool (that
 * succeeded with `ok`, with these `args`); `before: [a, b]` a's call came before
 * b's; `answer` the final answer mentions the text; `not`, `all`, `any` combine.
 */
export function parseGoal(value: unknown, path = 'goal', depth = 0): Goal {
  if (depth > 8) throw new GoalError(path, 'goals nest at most 8 deep');
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new GoalError(path, `expected an object with one of ${KEYS.join(', ')}`);
  const keys = Object.keys(value);
  const key = keys.find((k) => KEYS.includes(k));
  if (!key) throw new GoalError(path, `expected one of ${KEYS.join(', ')}, got ${keys.join(', ') || 'an empty object'}`);
  const v = value as Record<string, unknown>;
  if (key === 'not') {
    if (keys.length > 1) throw new GoalError(path, `"not" stands alone (also got ${keys.filter((k) => k !== 'not').join(', ')})`);
    return { not: parseGoal(v['not'], `${path}.not`, depth + 1) };
  }
  if (key === 'all' || key === 'any' || key === 'before') {
    const list = v[key];
    if (keys.length > 1) throw new GoalError(path, `"${key}" stands alone (also got ${keys.filter((k) => k !== key).join(', ')})`);
    if (!Array.isArray(list) || list.length === 0 || list.length > 20)
      throw new GoalError(`${path}.${key}`, 'expected a list of 1 to 20 goals');
    const goals = list.map((g, i) => parseGoal(g, `${path}.${key}.${i}`, depth + 1));
    if (key !== 'before') return key === 'all' ? { all: goals } : { any: goals };
    if (goals.length !== 2 || !goals.every((g) => 'called' in g))
      throw new GoalError(`${path}.before`, 'expected two "called" goals: [first, second]');
    return { before: [goals[0]!, goals[1]!] };
  }
  const r = Leaf[key as keyof typeof Leaf].safeParse(value);
  if (!r.success) {
    const issue = r.error.issues[0]!;
    const at = issue.path.length ? `${path}.${issue.path.map(String).join('.')}` : path;
    throw new GoalError(at, issue.code === 'unrecognized_keys' ? `unknown field ${issue.keys.join(', ')}` : issue.message);
  }
  return r.data as Goal;
}

/** The goal as a zod schema, for schemas that embed one (it runs parseGoal). */
export const GoalSchema = z.unknown().transform((v, ctx): Goal => {
  try {
    return parseGoal(v, '');
  } catch (e) {
    ctx.addIssue({ code: 'custom', message: (e as Error).message.replace(/^: /, '') });
    return z.NEVER;
  }
});

/** A tool call as the trace records it (eval's CallRecord and the app's call log both fit). */
export interface GoalCall {
  name: string;
  args: unknown;
  ok: boolean;
}

/** What a goal is decided on: the facts now, the calls in order, the last final answer. */
export interface GoalWorld {
  facts: readonly string[];
  calls: readonly GoalCall[];
  answer?: string;
}

/** One checked goal: whether it holds, in words, and what is missing when it does not. */
export interface GoalCheck {
  ok: boolean;
  /** What the goal asks, as a person reads it ("lemon_1 is in bowl_1"). */
  label: string;
  /** When it does not hold: what is true instead, or what is missing. */
  missing?: string;
  children?: GoalCheck[];
}

function parseFact(f: string): { name: string; args: string[] } | undefined {
  const m = /^([a-z_]+)\((.*)\)$/.exec(f.trim());
  if (!m) return undefined;
  return { name: m[1]!, args: m[2]!.split(',').map((a) => a.trim()) };
}

/** Whether a ground fact matches a pattern (`*` for any one argument). */
export function factMatches(pattern: string, fact: string): boolean {
  const p = parseFact(pattern);
  const f = parseFact(fact);
  if (!p || !f || p.name !== f.name || p.args.length !== f.args.length) return false;
  return p.args.every((a, i) => a === '*' || a === f.args[i]);
}

/** The fact in plain words: in(lemon_1, bowl_1) → "lemon_1 is in bowl_1". */
export function describeFact(pattern: string): string {
  const p = parseFact(pattern);
  if (!p) return pattern;
  const [a = '?', b = '?'] = p.args.map((x) => (x === '*' ? 'something' : x));
  switch (p.name) {
    case 'in':
      return `${a} is in ${b}`;
    case 'on':
      return `${a} is on ${b}`;
    case 'robot_at':
      return `the robot is at ${b}`;
    case 'holding':
      return `the robot holds ${b}`;
    case 'hand_empty':
      return 'the hand is empty';
    case 'held_by':
      return `${b} holds ${a}`;
    default:
      return p.args.length === 1 ? `${a} is ${p.name.replace(/_/g, ' ')}` : pattern;
  }
}

/** Facts about the same first argument: what holds instead ("now: on(lemon_1, table_1)"). */
function instead(pattern: string, facts: readonly string[]): string {
  const p = parseFact(pattern);
  const first = p?.args[0];
  if (!p || !first || first === '*') return 'it does not hold yet';
  const related = facts.filter((f) => {
    const g = parseFact(f);
    return g && g.args[0] === first && (g.name === p.name || ['in', 'on', 'held_by', 'holding', 'robot_at'].includes(g.name));
  });
  return related.length ? `now: ${related.slice(0, 3).join(', ')}` : `no fact about ${first} holds now`;
}

function argsMatch(want: Record<string, string | number | boolean> | undefined, args: unknown): boolean {
  if (!want) return true;
  if (typeof args !== 'object' || args === null) return false;
  const a = args as Record<string, unknown>;
  return Object.entries(want).every(([k, v]) =>
    typeof v === 'string' && typeof a[k] === 'string' ? a[k].toLowerCase() === v.toLowerCase() : a[k] === v,
  );
}

function callIndex(g: Goal, calls: readonly GoalCall[]): number {
  if (!('called' in g)) return -1;
  return calls.findIndex((c) => c.name === g.called && (g.ok === undefined || c.ok === g.ok) && argsMatch(g.args, c.args));
}

function callLabel(g: Extract<Goal, { called: string }>): string {
  const args = g.args
    ? `(${Object.entries(g.args)
        .map(([k, v]) => `${k}: ${String(v)}`)
        .join(', ')})`
    : '';
  return `${g.called}${args} was called${g.ok === true ? ' and succeeded' : g.ok === false ? ' and failed' : ''}`;
}

/** Decides a goal on a world, with the words to show a person. */
export function checkGoal(goal: Goal, w: GoalWorld): GoalCheck {
  if ('fact' in goal) {
    const ok = w.facts.some((f) => factMatches(goal.fact, f));
    return { ok, label: describeFact(goal.fact), ...(ok ? {} : { missing: instead(goal.fact, w.facts) }) };
  }
  if ('not' in goal) {
    const inner = checkGoal(goal.not, w);
    return { ok: !inner.ok, label: `not: ${inner.label}`, ...(inner.ok ? { missing: 'it holds, and must not' } : {}) };
  }
  if ('all' in goal) {
    const children = goal.all.map((g) => checkGoal(g, w));
    const failed = children.filter((c) => !c.ok);
    return {
      ok: failed.length === 0,
      label: 'all of these',
      children,
      ...(failed.length ? { missing: `${failed.length} of ${children.length} not done` } : {}),
    };
  }
  if ('any' in goal) {
    const children = goal.any.map((g) => checkGoal(g, w));
    const ok = children.some((c) => c.ok);
    return { ok, label: 'one of these', children, ...(ok ? {} : { missing: 'none of them holds' }) };
  }
  if ('holding' in goal) {
    const held = w.facts.find((f) => factMatches('holding(robot, *)', f));
    const heldId = held ? parseFact(held)?.args[1] : undefined;
    const ok = goal.holding === null ? heldId === undefined : heldId === goal.holding;
    return {
      ok,
      label: goal.holding === null ? 'the hand is empty' : `the robot holds ${goal.holding}`,
      ...(ok ? {} : { missing: heldId ? `it holds ${heldId}` : 'the hand is empty' }),
    };
  }
  if ('called' in goal) {
    const ok = callIndex(goal, w.calls) >= 0;
    const tried = w.calls.filter((c) => c.name === goal.called).length;
    return {
      ok,
      label: callLabel(goal),
      ...(ok ? {} : { missing: tried ? `${goal.called} was called ${tried}×, not as asked` : `${goal.called} was not called` }),
    };
  }
  if ('before' in goal) {
    const [a, b] = goal.before;
    const ia = callIndex(a, w.calls);
    const ib = callIndex(b, w.calls);
    const la = 'called' in a ? a.called : '?';
    const lb = 'called' in b ? b.called : '?';
    const ok = ia >= 0 && ib >= 0 && ia < ib;
    const missing = ia < 0 ? `${la} was not called` : ib < 0 ? `${lb} was not called` : `${lb} came first`;
    return { ok, label: `${la} before ${lb}`, ...(ok ? {} : { missing }) };
  }
  const said = (w.answer ?? '').toLowerCase().includes(goal.answer.toLowerCase());
  return {
    ok: said,
    label: `the answer mentions "${goal.answer}"`,
    ...(said ? {} : { missing: w.answer ? 'the answer does not mention it' : 'no answer yet' }),
  };
}

/** Every id a goal names (objects, places, people) as fact arguments, for checking a card against a scene. */
export function namedIds(goal: Goal): string[] {
  const out = new Set<string>();
  const visit = (g: Goal): void => {
    if ('fact' in g) {
      for (const a of parseFact(g.fact)?.args ?? []) if (a !== '*' && a !== 'robot') out.add(a);
    } else if ('not' in g) visit(g.not);
    else if ('all' in g) g.all.forEach(visit);
    else if ('any' in g) g.any.forEach(visit);
    else if ('before' in g) g.before.forEach(visit);
    else if ('holding' in g && g.holding) out.add(g.holding);
  };
  visit(goal);
  return [...out];
}
