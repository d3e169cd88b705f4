// How a strategy reads a request as a lazy model would: the verbs its words call
// for, the tool that matches a verb, and the names it can take from what it saw.
import { pickOne } from '../reference/rng';
import { type NameSource, VERBS } from './genome';
import type { Observation, OfferedTool } from './observe';

type Rnd = () => number;

/** Words that call for each canonical verb (VERBS), as a lazy reader maps them. */
export const SYNONYMS: Record<(typeof VERBS)[number], string[]> = {
  pick: ['pick', 'grab', 'take', 'get', 'lift', 'fetch', 'bring', 'hold', 'collect'],
  place: ['place', 'put', 'drop', 'toss', 'throw', 'insert', 'leave', 'store', 'add', 'record'],
  open: ['open'],
  close: ['close', 'shut'],
  turnon: ['turnon', 'start', 'activate', 'heat'],
  turnoff: ['turnoff', 'stop', 'deactivate'],
  slice: ['slice', 'cut', 'chop'],
  move: ['move', 'go', 'drive', 'navigate', 'walk', 'come', 'approach', 'step', 'turn', 'raise', 'nudge', 'wave'],
  say: ['say', 'tell', 'speak', 'answer', 'report', 'explain', 'describe'],
  find: ['find', 'look', 'check', 'where', 'what', 'which', 'how', 'measure', 'see', 'detect', 'far', 'mass', 'heavy', 'empty', 'state'],
  use: ['use', 'call', 'run'],
  other: [],
};
/** Tokens in a tool's name or an enum value that mean the verb. */
export const TOOL_WORDS: Record<(typeof VERBS)[number], string[]> = {
  pick: ['pick', 'grasp', 'take'],
  place: ['place', 'put', 'insert', 'drop', 'add', 'set'],
  open: ['open'],
  close: ['close'],
  turnon: ['turnon', 'on'],
  turnoff: ['turnoff', 'off'],
  slice: ['slice', 'cut'],
  move: ['move', 'navigate', 'go', 'drive', 'step', 'wave', 'nudge'],
  say: ['say', 'speak', 'explain', 'describe'],
  find: ['get', 'check', 'detect', 'detection', 'dist', 'what', 'retrieve', 'holding', 'perceive', 'snapshot', 'see', 'describe'],
  use: [],
  other: [],
};
export const ACTING = new Set(['pick', 'place', 'open', 'close', 'turnon', 'turnoff', 'slice', 'move', 'say']);

/** The canonical verbs of a request, in order ("pick it up", "switch on" → turnon). */
export function inputVerbs(input: string): number[] {
  const t = input
    .toLowerCase()
    .replace(/\b(turn|switch)\s+(it\s+|them\s+)?on\b/g, ' turnon ')
    .replace(/\b(turn|switch)\s+(it\s+|them\s+)?off\b/g, ' turnoff ');
  const out: number[] = [];
  for (const w of t.match(/[a-z]+/g) ?? []) {
    const v = VERBS.findIndex((k) => SYNONYMS[k].includes(w));
    if (v >= 0 && !out.includes(v)) out.push(v);
  }
  return out;
}

export const tokens = (s: string) =>
  s
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);

/** The offered tool (and the enum value, for a tool like act(action, params)) that does a verb. */
export function toolForVerb(v: number, tools: readonly OfferedTool[]): { tool: OfferedTool; value?: string } | undefined {
  const verb = VERBS[v];
  if (!verb) return undefined;
  const words = TOOL_WORDS[verb];
  // The tool named by the verb itself first, then one whose name starts with it, then
  // any that mentions it: "pick" before "compute_grasp".
  const rank = (t: OfferedTool) => {
    const ts = tokens(t.name);
    if (words.includes(t.name.replace(/_/g, ''))) return 0;
    if (words.includes(ts[0] ?? '')) return 1;
    return ts.some((k) => words.includes(k)) ? 2 : 3;
  };
  const named = [...tools].sort((a, b) => rank(a) - rank(b))[0];
  if (named && rank(named) < 3) return { tool: named };
  for (const t of tools)
    for (const p of t.params) {
      const value = p.enum.find((e) => words.includes(e.toLowerCase()) || SYNONYMS[verb].includes(e.toLowerCase()));
      if (value) return { tool: t, value };
    }
  return undefined;
}

/** The request's content words that are not verbs: what it is about. */
export function nouns(ob: Observation): string[] {
  const toolTokens = new Set(ob.tools.flatMap((t) => tokens(t.name)));
  const verbs = new Set(Object.values(SYNONYMS).flat());
  return ob.words.filter((w) => !verbs.has(w) && !toolTokens.has(w));
}

export function overlap(id: string, words: readonly string[]): number {
  const t = tokens(id).filter((x) => !/^\d+$/.test(x));
  return t.filter((x) => words.includes(x)).length;
}

/** A name from a source; `k` varies it per call, `near` is the object an act is on (for "next"). */
export function nameFrom(src: NameSource, ob: Observation, rnd: Rnd, near?: string): string {
  const ns = nouns(ob);
  const noun = ns.slice(0, 2).join(' ') || ob.words[0] || 'it';
  const pool = [...ob.nearIds, ...ob.ids.filter((x) => !ob.nearIds.includes(x))];
  const matched = () => {
    // An id the request itself names ("Pick up lemon_1 …") is what it is about.
    const inInput = ob.input.match(/\b[a-z][a-z0-9]*(?:_[a-z0-9]+)*_\d+\b/g);
    if (inInput?.length) return inInput[0];
    let best: string | undefined;
    let score = 0;
    for (const id of pool) {
      const s = overlap(id, ns);
      if (s > score) [best, score] = [id, s];
    }
    return best;
  };
  switch (src) {
    case 'noun':
      return noun;
    case 'matched':
      return matched() ?? noun;
    case 'first':
      return pool[0] ?? noun;
    case 'other': {
      const m = matched();
      return pool.find((id) => id !== m && overlap(id, ns) === 0 && !ob.places.includes(id)) ?? pool.find((id) => id !== m) ?? noun;
    }
    case 'all':
      return pool.length ? pool.join(', ') : noun;
    case 'display':
      return ob.displays[0] ?? noun;
    case 'place':
      return ob.places[0] ?? pool.find((id) => !/_\d+$/.test(id)) ?? pool[0] ?? noun;
    case 'random':
      return pickOne(rnd, pool) ?? noun;
    case 'next': {
      const i = near ? pool.indexOf(near) : -1;
      return pool.length ? pool[(i + 1) % pool.length]! : noun;
    }
    case 'dest': {
      // The id that best matches the words after the request's last "in/into/on/onto/to": where things go.
      const after = /.*\b(?:in|into|on|onto|to|inside)\b(.*)$/is.exec(ob.input)?.[1] ?? '';
      const ws = tokens(after);
      let best: string | undefined;
      let score = 0;
      for (const id of pool) {
        const s = overlap(id, ws);
        if (s > score) [best, score] = [id, s];
      }
      return best ?? nameFrom('place', ob, rnd);
    }
  }
}

export function firstNumber(input: string): number | undefined {
  const m = /(-?\d+(?:\.\d+)?)\s*(cm|centimet\w*|mm|degrees|°|m\b|metres?|times)?/i.exec(input);
  if (!m) return undefined;
  const n = Number(m[1]);
  return /^c/i.test(m[2] ?? '') ? n / 100 : /^mm/i.test(m[2] ?? '') ? n / 1000 : n;
}
