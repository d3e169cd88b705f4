// Fuzzy name resolution (paper 001 §4.1.2: models are asked to use detected
// names, but tool arguments that do not match exactly are matched anyway).
// Tiers, first decisive tier wins; several matches in a tier is an ambiguity
// the model must settle, never a silent guess:
//   1. the exact id;
//   2. normalised id, display name or alias ("Red Bowl", "bowl-1", "coke");
//   3. id without its number, or the catalogue type ("bowl" for bowl_1);
//   4. category ("fruit");
//   5. tokens: every word of the query describes it ("red" -> red bowl), else
//      the longest name/alias/type fully mentioned in the query
//      ("adriana_user" -> Adriana);
//   6. a small typo in one name ("strawbery"), only when one candidate is
//      clearly closest (optional: `acceptTypos: false` turns it into a hint).
// Failures carry a one-line message a language model can act on.
import { compareIds } from '../ids';
import { distance as editDistance } from 'fastest-levenshtein';
import type { SimWorld } from '../world/sim-world';
import { knownObjectIds } from './believed';
import { describePerson } from './person-names';
import { visibleEntityIds, visiblePersonIds } from './visibility';

export { knownObjectIds };

export type NameKind = 'object' | 'person' | 'location';
export type MatchKind = 'id' | 'name' | 'type' | 'category' | 'token' | 'typo';

export type Resolution =
  | { ok: true; id: string; kind: NameKind; match: MatchKind }
  | { ok: false; reason: 'unknown' | 'ambiguous'; message: string; candidates: string[] };

export interface ResolveOptions {
  /** Which kinds of thing the name may denote (default all three). */
  kinds?: readonly NameKind[];
  /**
   * What to consider: everything in the world (the operator's and the scorer's
   * view, never a tool's), what the camera sees now, or what the robot knows
   * (furniture a priori, objects once perceived). People: everyone, or only
   * those in view now (a person out of view cannot be measured or served).
   */
  pool?: 'all' | 'visible' | 'known';
  /** An explicit set of object ids to consider (intersected with `pool`). */
  objects?: Iterable<string>;
  /** Resolve a close typo to its one candidate (default true); false: reply "did you mean". */
  acceptTypos?: boolean;
}

export interface NameCandidate {
  id: string;
  kind: NameKind;
  /** Human label, e.g. "red bowl", "Adriana". */
  label: string;
  /** Normalised id, display name and aliases. */
  names: string[];
  /** Normalised id without its trailing number. */
  idBase: string;
  types: string[];
  categories: string[];
  /** Every word that describes it (names, type, category, attribute values). */
  bag: Set<string>;
  /** A person the robot has not recognised: called by a handle, never by name. */
  unrecognised?: true;
}

const ARTICLES = /^(?:the|a|an|my|our|this|that)\s+/;
/** Looks like an id: lower-case words joined by "_" ending in a number ("multimeter_2"). */
const ID_LIKE = /^[a-z][a-z0-9]*(?:_[a-z0-9]+)*_\d+$/;

/** Lower case, words separated by single spaces, no leading article. */
export function normaliseName(s: string): string {
  return s
    .toLowerCase()
    .replace(/[_\-\s.,;:!?"'()[\]{}]+/g, ' ')
    .trim()
    .replace(ARTICLES, '')
    .trim();
}

const words = (s: string): string[] => normaliseName(s).split(' ').filter(Boolean);
const stripNumber = (s: string): string => s.replace(/\s\d+$/, '');

/** Equal words, allowing a plural or possessive "s"/"es". */
function sameWord(a: string, b: string): boolean {
  if (a === b) return true;
  const [s, l] = a.length <= b.length ? [a, b] : [b, a];
  return s.length >= 3 && (l === `${s}s` || l === `${s}es`);
}

const hasWord = (bag: Iterable<string>, w: string): boolean => {
  for (const b of bag) if (sameWord(b, w)) return true;
  return false;
};

type ObjectSpec = ReturnType<SimWorld['entity']>['spec'];

/** An object's candidate depends on its spec only, which does not change: made once per spec (every name query asked for all of them). */
const OBJECT_CANDIDATES = new WeakMap<ObjectSpec, NameCandidate>();

function objectCandidate(id: string, s: ObjectSpec): NameCandidate {
  const hit = OBJECT_CANDIDATES.get(s);
  if (hit && hit.id === id) return hit;
  const names = [id, s.name, ...s.aliases].map(normaliseName);
  const attrs = Object.values(s.attributes).filter((v): v is string => typeof v === 'string');
  const bag = new Set([...names, s.type, s.category, ...attrs].flatMap(words));
  const c: NameCandidate = {
    id,
    kind: 'object',
    label: s.name,
    names,
    idBase: stripNumber(normaliseName(id)),
    types: [normaliseName(s.type)],
    categories: [normaliseName(s.category)],
    bag,
  };
  // Shared by every later query: frozen, so no caller can change what the next one sees.
  Object.freeze(names);
  OBJECT_CANDIDATES.set(s, Object.freeze(c));
  return c;
}

export function nameCandidates(sim: SimWorld, opts: ResolveOptions = {}): NameCandidate[] {
  const kinds = new Set<NameKind>(opts.kinds ?? ['object', 'person', 'location']);
  const out: NameCandidate[] = [];
  if (kinds.has('object')) {
    let ids: string[] =
      opts.pool === 'visible'
        ? [...visibleEntityIds(sim), ...(sim.heldId() ? [sim.heldId()!] : [])]
        : opts.pool === 'known'
          ? knownObjectIds(sim)
          : [...sim.entities.keys()];
    if (opts.objects) {
      const only = new Set(opts.objects);
      ids = ids.filter((id) => only.has(id));
    }
    for (const id of [...new Set(ids)].sort()) out.push(objectCandidate(id, sim.entity(id).spec));
  }
  if (kinds.has('person')) {
    const inView = opts.pool === 'all' || opts.pool === undefined ? undefined : new Set(visiblePersonIds(sim));
    for (const [id, p] of [...sim.people].sort(([a], [b]) => compareIds(a, b))) {
      if (inView && !inView.has(id)) continue;
      // The robot's view: a person it has not recognised answers only to the handle it gave them.
      const seen = inView ? sim.belief.people.get(id) : undefined;
      if (inView && !seen) continue;
      if (seen && !seen.recognised) {
        const description = describePerson(sim, seen);
        out.push({
          id: seen.handle,
          kind: 'person',
          label: description,
          names: [normaliseName(seen.handle)],
          idBase: stripNumber(normaliseName(seen.handle)),
          types: ['person'],
          categories: [],
          bag: new Set([...words(seen.handle), ...words(description), 'the', 'a', 'person', 'human']),
          unrecognised: true,
        });
        continue;
      }
      const names = [id, p.spec.name].map(normaliseName);
      out.push({
        id,
        kind: 'person',
        label: p.spec.name,
        names,
        idBase: stripNumber(normaliseName(id)),
        types: ['person'],
        categories: [],
        bag: new Set([...names.flatMap(words), 'person', 'human']),
      });
    }
  }
  if (kinds.has('location')) {
    for (const l of [...sim.locations.values()].sort((a, b) => compareIds(a.id, b.id))) {
      const names = [l.id, ...(l.title ? [l.title] : [])].map(normaliseName);
      out.push({
        id: l.id,
        kind: 'location',
        label: l.title ?? l.id,
        names,
        idBase: stripNumber(normaliseName(l.id)),
        types: [],
        categories: [normaliseName(l.kind)],
        bag: new Set([...names, l.kind].flatMap(words)),
      });
    }
  }
  return out;
}

/** "bowl_1 (red bowl)", "person_1 (Adriana)", "kitchen (place)"; the bare id when the label adds nothing. */
export function describeCandidate(c: Pick<NameCandidate, 'id' | 'label' | 'kind'>): string {
  const id = normaliseName(c.id);
  const label = normaliseName(c.label);
  const redundant = label === id || label === stripNumber(id);
  if (c.kind === 'location') return `${c.id} (place${redundant ? '' : `: ${c.label}`})`;
  return redundant ? c.id : `${c.id} (${c.label})`;
}

function kindWords(kinds: ReadonlySet<NameKind>): { one: string; many: string } {
  if (kinds.size === 1) {
    const k = [...kinds][0]!;
    if (k === 'object') return { one: 'object', many: 'objects' };
    if (k === 'person') return { one: 'person', many: 'people' };
    return { one: 'place', many: 'places' };
  }
  return { one: 'thing', many: 'things' };
}

function typoLimit(len: number): number {
  return len < 4 ? 0 : len <= 8 ? Math.max(1, Math.floor(len / 4)) : 2;
}

/** Resolves a name to one object, person or place, or says why it cannot. */
export function resolveName(sim: SimWorld, query: string, opts: ResolveOptions = {}): Resolution {
  const cands = nameCandidates(sim, opts);
  const exact = cands.find((c) => c.id === query);
  if (exact) return { ok: true, id: exact.id, kind: exact.kind, match: 'id' };
  const q = normaliseName(query);
  const qWords = words(query);
  const kinds = new Set(cands.map((c) => c.kind));
  const noun = kindWords(kinds.size ? kinds : new Set(opts.kinds ?? ['object', 'person', 'location']));
  // Places are known a priori; objects and people only once perceived, so a miss says so without saying whether it exists.
  const perceivable = !opts.kinds || opts.kinds.some((k) => k !== 'location');
  // People count only while in view (see nameCandidates).
  const pool = opts.kinds?.length === 1 && opts.kinds[0] === 'person' && opts.pool === 'known' ? 'visible' : opts.pool;
  const where = !perceivable ? '' : pool === 'visible' ? ' is visible from here' : pool === 'known' ? ' is known to the robot' : '';
  const elsewhere = !perceivable
    ? ''
    : pool === 'visible'
      ? '; it may be elsewhere, or hidden from view'
      : pool === 'known'
        ? '; it may be somewhere not yet perceived'
        : '';
  // People in view it has not recognised: a name addresses none of them (said the same whatever the name, so it tells nothing of who they are).
  const strangers = cands.filter((c) => c.unrecognised);
  const note = (m: string): string =>
    strangers.length
      ? `${m}${/[.?]$/.test(m) ? '' : '.'} A person the robot has not recognised is called by the handle it gave them, never by a name: ${strangers.map(describeCandidate).join(', ')}; recognize_humans names those it recognises.`
      : m;
  // An id ("multimeter_2") is matched exactly, never to a neighbour: another
  // object of the same kind is a different object.
  if (ID_LIKE.test(query)) {
    const near = cands
      .filter((c) => editDistance(c.id, query) <= 2 || c.idBase === stripNumber(normaliseName(query)))
      .map((c) => c.id)
      .slice(0, 4);
    return {
      ok: false,
      reason: 'unknown',
      message: note(`no ${noun.one} with the id "${query}"${where}${near.length ? `. Did you mean ${near.join(' or ')}?` : elsewhere}`),
      candidates: near,
    };
  }
  const decide = (hits: NameCandidate[], match: MatchKind): Resolution | undefined => {
    if (hits.length === 1) return { ok: true, id: hits[0]!.id, kind: hits[0]!.kind, match };
    if (hits.length > 1) {
      const k = kindWords(new Set(hits.map((h) => h.kind)));
      return {
        ok: false,
        reason: 'ambiguous',
        message: `"${query}" matches several ${k.many}: ${hits.map(describeCandidate).join(', ')}. Did you mean one of those?`,
        candidates: hits.map((h) => h.id),
      };
    }
    return undefined;
  };
  if (!q) return { ok: false, reason: 'unknown', message: `an empty name does not denote any ${noun.one}`, candidates: [] };
  const tiers: Array<[MatchKind, (c: NameCandidate) => boolean]> = [
    ['name', (c) => c.names.includes(q)],
    ['type', (c) => c.idBase === q || c.types.some((t) => t === q || sameWord(t, q))],
    ['category', (c) => c.categories.some((t) => t === q || sameWord(t, q))],
    ['token', (c) => qWords.length > 0 && qWords.every((w) => hasWord(c.bag, w))],
  ];
  for (const [match, test] of tiers) {
    const r = decide(cands.filter(test), match);
    if (r) return r;
  }
  // The longest name, alias or type fully mentioned in the query.
  let best: NameCandidate[] = [];
  let bestLen = 0;
  for (const c of cands) {
    const keys = [...c.names, c.idBase, ...c.types].map((k) => k.split(' '));
    const len = Math.max(0, ...keys.filter((k) => k.every((w) => hasWord(qWords, w))).map((k) => k.length));
    if (len > bestLen) [best, bestLen] = [[c], len];
    else if (len === bestLen && len > 0) best.push(c);
  }
  const mentioned = decide(best, 'token');
  if (mentioned) return mentioned;
  // Typos: edit distance to the nearest key of each candidate.
  const scored = cands
    .map((c) => ({ c, d: Math.min(...[...c.names, c.idBase, ...c.types].map((k) => editDistance(q, k))) }))
    .sort((a, b) => a.d - b.d || compareIds(a.c.id, b.c.id));
  const top = scored[0];
  if (top && opts.acceptTypos !== false && top.d <= typoLimit(q.length)) {
    const tied = scored.filter((s) => s.d === top.d).map((s) => s.c);
    const r = decide(tied, 'typo');
    if (r) return r;
  }
  const hintLimit = Math.max(2, Math.floor(q.length / 3));
  const near = scored
    .filter((s) => s.d <= hintLimit)
    .slice(0, 3)
    .map((s) => s.c);
  if (near.length) {
    const k = kindWords(new Set(near.map((c) => c.kind)));
    return {
      ok: false,
      reason: 'unknown',
      message: note(`no ${k.one} called "${query}"${where}. Did you mean ${near.map((c) => c.id).join(' or ')}?`),
      candidates: near.map((c) => c.id),
    };
  }
  const none = kinds.size > 1 ? 'nothing' : `no ${noun.one}`;
  if (!cands.length) return { ok: false, reason: 'unknown', message: `${none} called "${query}"${where}${elsewhere}`, candidates: [] };
  // List what there is, per kind, so the model can pick a real name.
  const groups = (['object', 'person', 'location'] as const)
    .map((kind) => cands.filter((c) => c.kind === kind))
    .filter((g) => g.length)
    .map((g) => {
      const listed = g.slice(0, 12).map(describeCandidate).join(', ');
      return `${kindWords(new Set([g[0]!.kind])).many}: ${listed}${g.length > 12 ? `, and ${g.length - 12} more` : ''}`;
    });
  return {
    ok: false,
    reason: 'unknown',
    message: note(
      `${none} called "${query}"${where}${elsewhere}. ${pool === 'visible' && perceivable ? 'Visible' : 'Known'} ${groups.join('; ')}.`,
    ),
    candidates: [],
  };
}
