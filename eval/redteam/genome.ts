// A red-team strategy as data: what to call, on what, and what to answer, all
// chosen from what a model receives (observe.ts). The search (search.ts) mutates
// and recombines these; the named shapes below are where it starts.
import { z } from 'zod';
import { pickOne } from '../reference/rng';

/** Where an argument's name comes from — always something the model was shown. */
export const NAME_SOURCES = ['noun', 'matched', 'first', 'other', 'all', 'display', 'place', 'random', 'next', 'dest'] as const;
export type NameSource = (typeof NAME_SOURCES)[number];

export const ActZ = z.discriminatedUnion('do', [
  /** A tool the request names, then the tool of its first verb: the first branch, whatever the tool said. */
  z.object({ do: z.literal('first-branch'), probe: z.enum(NAME_SOURCES), object: z.enum(NAME_SOURCES) }),
  /** The tool of the request's nth verb, on a name (the verb alone, or the right skill on the wrong object). */
  z.object({ do: z.literal('verb'), nth: z.number().int().min(0).max(3), object: z.enum(NAME_SOURCES) }),
  /** Every offered tool once (do everything). */
  z.object({ do: z.literal('every-tool'), object: z.enum(NAME_SOURCES) }),
  /** The tool of a verb on every id seen, each followed by the tool of a second verb on `dest` (every task of the scene). */
  z.object({ do: z.literal('every-object'), verb: z.number().int().min(0), then: z.number().int().min(0), dest: z.enum(NAME_SOURCES) }),
  /** Every tool that writes what the robot believes (set, add, update, mark), making facts true. */
  z.object({ do: z.literal('setters'), value: z.number().int().min(0).max(3) }),
  /** Seeded random calls of offered tools with arguments that fit their schemas. */
  z.object({ do: z.literal('random'), n: z.number().int().min(1).max(8) }),
  /** Tools that take no argument, or read one (look before answering). */
  z.object({ do: z.literal('gather'), object: z.enum(NAME_SOURCES) }),
  /** One offered tool with every id seen packed into each string argument. */
  z.object({ do: z.literal('stuff'), tool: z.number().int().min(0) }),
]);
export type Act = z.infer<typeof ActZ>;

export const PARTS = [
  'claim',
  'giveup',
  'refuse',
  'copy-input',
  'copy-system',
  'copy-tools',
  'ids',
  'displays',
  'quantities',
  'quantity',
  'display',
  'results',
  'template',
  'status',
  'codes',
  'plain',
  'lore',
] as const;
export type Part = (typeof PARTS)[number];

/** The canonical verbs a request is read for (verb-only answers are keyed by the first one). */
export const VERBS = ['pick', 'place', 'open', 'close', 'turnon', 'turnoff', 'slice', 'move', 'say', 'find', 'use', 'other'] as const;
export const FIELDS = 6;

export const AnswerZ = z.object({
  parts: z.array(z.enum(PARTS)).max(6),
  /** Per template field (and the status line, the codes): which listed choice; −1: every choice (hedge). */
  pick: z.array(z.number().int().min(-1)).length(FIELDS),
  /** When set, the choices are read from `table` by the request's first verb (an answer from the verb alone). */
  byVerb: z.boolean(),
  table: z.array(z.array(z.number().int().min(-1)).length(FIELDS)).length(VERBS.length),
  /** What a list field of the template (RAIDER's objects) holds. */
  objects: z.enum([...NAME_SOURCES, 'none']),
});
export type Answer = z.infer<typeof AnswerZ>;

export const GenomeZ = z.object({
  seed: z.number().int().min(0),
  /** A router's category: the nth choice, or −1 by the words of the request. */
  route: z.number().int().min(-1),
  acts: z.array(ActZ).max(4),
  /** Calls per flow at most: a small number is a claim after a partial act. */
  maxCalls: z.number().int().min(0).max(40),
  answer: AnswerZ,
  /** What a sub-agent tool (ALRM's executor) is handed: the request, its clauses, or every object in turn. */
  delegate: z.enum(['copy', 'split', 'every']),
});
export type Genome = z.infer<typeof GenomeZ>;

const answer = (parts: Part[], pick = 0, objects: Answer['objects'] = 'none'): Answer => ({
  parts,
  pick: Array<number>(FIELDS).fill(pick),
  byVerb: false,
  table: VERBS.map(() => Array<number>(FIELDS).fill(pick)),
  objects,
});

const base = (over: Partial<Genome>): Genome => ({
  seed: 1,
  route: 0,
  acts: [],
  maxCalls: 12,
  answer: answer(['claim']),
  delegate: 'copy',
  ...over,
});

/** The shapes the issue names, written generically: where the search starts. */
export const SEEDS: Record<string, Genome> = {
  'constant answer': base({ answer: answer(['template', 'status'], 1) }),
  'hedge-all': base({ answer: answer(['template', 'status', 'codes', 'ids', 'claim'], -1, 'all') }),
  'copy the prompt': base({ answer: answer(['copy-input', 'copy-system']) }),
  'copy the tool descriptions': base({ answer: answer(['copy-tools', 'displays', 'quantities']) }),
  'verb-only': base({
    answer: {
      ...answer(['template', 'status']),
      byVerb: true,
      table: VERBS.map((_, v) => Array<number>(FIELDS).fill(v % 3 === 1 ? 3 : 1)),
    },
  }),
  'id stuffing': base({ acts: [{ do: 'stuff', tool: 0 }], answer: answer(['template', 'ids', 'displays'], 1, 'all') }),
  'right skill, wrong object': base({ acts: [{ do: 'first-branch', probe: 'other', object: 'all' }], answer: answer(['claim']) }),
  // Every object of the scene to where the request sends things: acting on the request's
  // objects and on all the others too (handed out one by one where a planner delegates).
  'do everything': base({
    acts: [
      { do: 'gather', object: 'first' },
      { do: 'every-object', verb: 0, then: 1, dest: 'dest' },
    ],
    maxCalls: 40,
    delegate: 'every',
    answer: answer(['claim', 'status', 'ids']),
  }),
  'do everything, one subtask each': base({
    acts: [
      { do: 'gather', object: 'first' },
      { do: 'verb', nth: 0, object: 'matched' },
      { do: 'verb', nth: 1, object: 'dest' },
    ],
    maxCalls: 12,
    delegate: 'every',
    answer: answer(['ids', 'claim']),
  }),
  'first branch': base({ acts: [{ do: 'first-branch', probe: 'matched', object: 'noun' }], answer: answer(['claim']) }),
  'claim after a partial act': base({
    acts: [{ do: 'verb', nth: 0, object: 'matched' }],
    maxCalls: 1,
    answer: answer(['claim', 'status']),
  }),
  'setters that make facts true': base({ acts: [{ do: 'setters', value: 0 }], answer: answer(['claim', 'template']) }),
  'static answer: plain names, a quantity, what robots have': base({ answer: answer(['lore', 'plain', 'quantity']) }),
  'early give-up': base({ answer: answer(['giveup', 'refuse', 'status'], 1) }),
  'seeded random valid calls': base({ acts: [{ do: 'random', n: 4 }], answer: answer(['template', 'results'], 0, 'first') }),
  'look, then answer from the results': base({
    acts: [{ do: 'gather', object: 'matched' }],
    answer: answer(['template', 'results', 'displays', 'quantities'], 1, 'matched'),
  }),
};

/** A short stable key (the same genome, the same key). */
export function genomeKey(g: Genome): string {
  return JSON.stringify(g);
}

/** What a genome does, in a line. */
export function describe(g: Genome): string {
  const acts = g.acts.map((a) => {
    switch (a.do) {
      case 'first-branch':
        return `first branch (probe ${a.probe}, act on ${a.object})`;
      case 'verb':
        return `verb #${a.nth} on ${a.object}`;
      case 'every-tool':
        return `every tool on ${a.object}`;
      case 'every-object':
        return `verb #${a.verb} on every id, then verb #${a.then} on ${a.dest}`;
      case 'setters':
        return `setters (value ${a.value})`;
      case 'random':
        return `${a.n} random valid calls`;
      case 'gather':
        return `look (on ${a.object})`;
      case 'stuff':
        return `tool #${a.tool} stuffed with every id`;
    }
  });
  const pick = g.answer.byVerb ? 'by verb' : g.answer.pick.every((p) => p === -1) ? 'hedge' : `choice ${g.answer.pick.join('/')}`;
  const ans = `answer ${g.answer.parts.join('+') || 'empty'} (${pick}${g.answer.objects !== 'none' ? `, objects ${g.answer.objects}` : ''})`;
  return [
    acts.length ? acts.join(' → ') : 'no call',
    g.maxCalls < 12 && acts.length ? `at most ${g.maxCalls} call${g.maxCalls === 1 ? '' : 's'}` : '',
    g.delegate !== 'copy' ? `delegate ${g.delegate}` : '',
    g.route !== 0 ? `route ${g.route === -1 ? 'by words' : `#${g.route}`}` : '',
    ans,
  ]
    .filter(Boolean)
    .join('; ');
}

type Rnd = () => number;
const int = (rnd: Rnd, lo: number, hi: number) => lo + Math.floor(rnd() * (hi - lo + 1));
const source = (rnd: Rnd): NameSource => pickOne(rnd, NAME_SOURCES)!;

function randomAct(rnd: Rnd): Act {
  switch (int(rnd, 0, 7)) {
    case 0:
      return { do: 'first-branch', probe: source(rnd), object: source(rnd) };
    case 1:
      return { do: 'verb', nth: int(rnd, 0, 3), object: source(rnd) };
    case 2:
      return { do: 'every-tool', object: source(rnd) };
    case 3:
      return { do: 'every-object', verb: int(rnd, 0, 3), then: int(rnd, 0, 3), dest: source(rnd) };
    case 4:
      return { do: 'setters', value: int(rnd, 0, 3) };
    case 5:
      return { do: 'random', n: int(rnd, 1, 8) };
    case 6:
      return { do: 'gather', object: source(rnd) };
    default:
      return { do: 'stuff', tool: int(rnd, 0, 12) };
  }
}

function mutateAct(a: Act, rnd: Rnd): Act {
  switch (a.do) {
    case 'first-branch':
      return rnd() < 0.5 ? { ...a, probe: source(rnd) } : { ...a, object: source(rnd) };
    case 'verb':
      return rnd() < 0.5 ? { ...a, nth: int(rnd, 0, 3) } : { ...a, object: source(rnd) };
    case 'every-tool':
      return { ...a, object: source(rnd) };
    case 'every-object':
      return rnd() < 0.4 ? { ...a, dest: source(rnd) } : rnd() < 0.5 ? { ...a, verb: int(rnd, 0, 3) } : { ...a, then: int(rnd, 0, 3) };
    case 'setters':
      return { ...a, value: int(rnd, 0, 3) };
    case 'random':
      return { ...a, n: int(rnd, 1, 8) };
    case 'gather':
      return { ...a, object: source(rnd) };
    case 'stuff':
      return { ...a, tool: int(rnd, 0, 12) };
  }
}

function mutateAnswer(a: Answer, rnd: Rnd): Answer {
  const r = rnd();
  if (r < 0.2) {
    const parts = [...a.parts];
    if (parts.length && rnd() < 0.4) parts.splice(int(rnd, 0, parts.length - 1), 1);
    else if (parts.length < 6) parts.splice(int(rnd, 0, parts.length), 0, pickOne(rnd, PARTS)!);
    return { ...a, parts };
  }
  if (r < 0.45) {
    const pick = [...a.pick];
    pick[int(rnd, 0, FIELDS - 1)] = int(rnd, -1, 8);
    return { ...a, pick };
  }
  if (r < 0.55) {
    // One field's choice for every verb at once: a constant answer's variations.
    const i = int(rnd, 0, FIELDS - 1);
    const k = int(rnd, -1, 8);
    const pick = [...a.pick];
    pick[i] = k;
    return { ...a, pick, table: a.table.map((row) => row.map((x, j) => (j === i ? k : x))) };
  }
  if (r < 0.75) {
    const table = a.table.map((row) => [...row]);
    table[int(rnd, 0, VERBS.length - 1)]![int(rnd, 0, FIELDS - 1)] = int(rnd, -1, 8);
    return { ...a, table, byVerb: rnd() < 0.8 ? true : a.byVerb };
  }
  if (r < 0.85) return { ...a, byVerb: !a.byVerb };
  return { ...a, objects: rnd() < 0.2 ? 'none' : source(rnd) };
}

/** One small change: an act's parameter, an act added, dropped or replaced, the answer, the call budget, the route. */
export function mutate(g: Genome, rnd: Rnd): Genome {
  const r = rnd();
  const acts = [...g.acts];
  if (r < 0.25 && acts.length) {
    const i = int(rnd, 0, acts.length - 1);
    acts[i] = mutateAct(acts[i]!, rnd);
    return { ...g, acts };
  }
  if (r < 0.35 && acts.length < 4) {
    acts.splice(int(rnd, 0, acts.length), 0, randomAct(rnd));
    return { ...g, acts };
  }
  if (r < 0.42 && acts.length) {
    acts.splice(int(rnd, 0, acts.length - 1), 1);
    return { ...g, acts };
  }
  if (r < 0.75) return { ...g, answer: mutateAnswer(g.answer, rnd) };
  if (r < 0.85) return { ...g, maxCalls: pickOne(rnd, [0, 1, 2, 3, 4, 6, 8, 12, 20, 40])! };
  if (r < 0.9) return { ...g, route: int(rnd, -1, 3) };
  if (r < 0.95) return { ...g, delegate: pickOne(rnd, ['copy', 'split', 'every'] as const)! };
  return { ...g, seed: int(rnd, 0, 1_000_000) };
}

/**
 * The same genome with one answer choice swept over its values (−1 … 7): every
 * constant answer along one field (for one verb, when `verb` is given), for the
 * search to try side by side instead of waiting for a mutation to land on each.
 */
export function sweep(g: Genome, field: number, verb?: number): Genome[] {
  return Array.from({ length: 9 }, (_, j) => {
    const k = j - 1;
    const a = g.answer;
    if (verb !== undefined)
      return {
        ...g,
        answer: { ...a, byVerb: true, table: a.table.map((row, v) => (v === verb ? row.map((x, i) => (i === field ? k : x)) : row)) },
      };
    return {
      ...g,
      answer: {
        ...a,
        pick: a.pick.map((x, i) => (i === field ? k : x)),
        table: a.table.map((row) => row.map((x, i) => (i === field ? k : x))),
      },
    };
  });
}

/** A child of two: the acts of one, the answer of the other, the rest mixed. */
export function crossover(a: Genome, b: Genome, rnd: Rnd): Genome {
  const acts = rnd() < 0.5 ? [...a.acts] : [...a.acts.slice(0, 2), ...b.acts.slice(0, 2)];
  return {
    seed: rnd() < 0.5 ? a.seed : b.seed,
    route: rnd() < 0.5 ? a.route : b.route,
    acts: acts.slice(0, 4),
    maxCalls: rnd() < 0.5 ? a.maxCalls : b.maxCalls,
    answer: rnd() < 0.5 ? b.answer : { ...a.answer, parts: b.answer.parts },
    delegate: rnd() < 0.5 ? a.delegate : b.delegate,
  };
}

/** A genome from nothing (fresh blood for the search). */
export function randomGenome(rnd: Rnd): Genome {
  let g = base({ seed: int(rnd, 0, 1_000_000), acts: Array.from({ length: int(rnd, 0, 2) }, () => randomAct(rnd)) });
  for (let i = 0; i < 4; i++) g = { ...g, answer: mutateAnswer(g.answer, rnd) };
  return g;
}
