// The answers to a name the robot could not resolve: "no object with the id
// "x" is known to the robot", "… is visible from here", "Did you mean …?",
// "matches several objects: …", "Known objects: …, and N more". Each says what
// the robot knows or sees: judged against its belief (the records it holds,
// those renewed in this call) and, for what it says it cannot see, against the
// camera's view.
import { type Judge, type Rule, readOne } from './check-read';
import { ID, exists, knows, notVisibleNow, seenThisCall, visibleNow } from './check-judge';
import { sightOf } from './check-sight';

type Noun = 'object' | 'person' | 'place' | 'thing';
type Pool = 'visible' | 'known' | 'none';

const NOUN = '(object|person|place|thing)';
const WHERE = '( is visible from here| is known to the robot)?';
const ELSEWHERE = '(?:; it may be elsewhere, or hidden from view|; it may be somewhere not yet perceived)?';

const poolOf = (where: string | undefined): Pool =>
  where === ' is visible from here' ? 'visible' : where === ' is known to the robot' ? 'known' : 'none';

/** The claim "no <noun> <q> … here": judged for the id itself, when it is one. */
function noSuch(j: Judge, noun: Noun, q: string, pool: Pool): void {
  const w = j.c.world;
  const said = `no ${noun} "${q}"`;
  const e = w.entities.get(q);
  if (e && (noun === 'object' || noun === 'thing')) {
    if (pool === 'visible') notVisibleNow(j, q, said);
    // Known at both ends of the call: it was known when the name was resolved.
    else if (e.fixed || (j.c.knownBefore.has(q) && j.c.knownAfter.has(q))) j.lie(`said ${said} is known, but the robot knows ${q}`);
  }
  if (w.people.has(q) && (noun === 'person' || noun === 'thing') && sightOf(w, q, undefined) === 'seen')
    j.lie(`said ${said} is visible, but ${q} is in plain view`);
  if (w.locations.has(q) && noun === 'place') j.lie(`said ${said}, but ${q} is a place the robot knows`);
  if (noun !== 'object' && noun !== 'thing') return;
  // A display name of exactly one object in the pool denotes it.
  const named = [...w.entities.values()].filter(
    (x) =>
      x.spec.name.toLowerCase() === q.trim().toLowerCase() &&
      (pool === 'visible' ? seenThisCall(j, x.id) : j.c.knownBefore.has(x.id) && j.c.knownAfter.has(x.id)),
  );
  if (named.length === 1 && !e)
    j.lie(`said ${said}, but the robot ${pool === 'visible' ? 'sees' : 'knows'} ${named[0]!.id}, called "${named[0]!.spec.name}"`);
}

/** Names offered instead ("Did you mean a or b?"): things the robot may name. */
function offered(j: Judge, ids: readonly string[], pool: Pool): void {
  for (const id of ids) {
    if (!exists(j, id)) continue;
    const e = j.c.world.entities.get(id);
    if (e && !e.fixed && !knows(j, id)) j.leak(`offered ${id}, which the robot has not perceived`);
    if (e && pool === 'visible') visibleNow(j, id, `${id} is visible`);
  }
}

/** One listed candidate: "lemon_1", "mug_2 (blue mug)", "table_1_front (place: front of table 1)", "adriana (Adriana)". */
function candidate(j: Judge, item: string, pool: Pool): string | undefined {
  const m = new RegExp(`^(${ID})(?: \\((place)?(?:: )?([^()]*)\\))?$`).exec(item);
  if (!m) return void j.unread(item);
  const [, id, place, label] = m;
  if (place) {
    const l = j.c.world.locations.get(id!);
    if (!l) j.lie(`listed ${id} as a place, but there is no such place`);
    else if (label && label !== l.title) j.lie(`gave ${id}'s title as "${label}", but it is "${l.title ?? ''}"`);
    return id;
  }
  if (!exists(j, id!, label || undefined)) return id;
  offered(j, [id!], pool);
  return id;
}

/** "objects: a, b (label), and 3 more; people: …; places: …": each listed thing, and the count where it can be told. */
function groups(j: Judge, text: string, pool: Pool): void {
  for (const g of text.split('; ')) {
    const m = /^(objects|people|places|things): (.+?)(?:, and (\d+) more)?$/.exec(g);
    if (!m) {
      j.unread(g);
      continue;
    }
    const items = m[2]!.split(/, (?![^()]*\))/);
    const ids = items.map((i) => candidate(j, i, pool)).filter((x): x is string => Boolean(x));
    const total = ids.length + Number(m[3] ?? 0);
    const w = j.c.world;
    if (m[1] === 'objects') {
      if (pool === 'visible') {
        // Every movable object recorded in this call was seen; furniture in view may add to them.
        const seen = [...w.belief.objects.values()].filter((r) => seenThisCall(j, r.id)).length;
        const fixed = [...w.entities.values()].filter(
          (e) => e.fixed && sightOf(w, e.id, j.c.after.bodies.get(e.id)?.box) !== 'hidden',
        ).length;
        if (total < seen || total > seen + fixed)
          j.lie(`counted ${total} visible objects, but the robot sees between ${seen} and ${seen + fixed}`);
      } else {
        const lo = [...j.c.knownAfter].filter((id) => w.entities.has(id)).length;
        const hi = new Set([...j.c.knownAfter, ...j.c.knownBefore].filter((id) => w.entities.has(id))).size;
        if (total < Math.min(lo, hi) || total > hi) j.lie(`counted ${total} known objects, but the robot knows ${lo}`);
      }
    }
    if (m[1] === 'places' && total !== w.locations.size) j.lie(`counted ${total} places, but the scene has ${w.locations.size}`);
  }
}

export const NAME_RULES: readonly Rule[] = [
  [
    new RegExp(`no ${NOUN} with the id "([^"]*)"${WHERE}(?:\\. Did you mean (.+)\\?|${ELSEWHERE})`),
    (m, j) => {
      const pool = poolOf(m[3]);
      noSuch(j, m[1] as Noun, m[2]!, pool);
      if (m[4]) offered(j, m[4].split(' or '), pool);
    },
  ],
  [
    new RegExp(`no ${NOUN} called "([^"]*)"${WHERE}\\. Did you mean (.+)\\?`),
    (m, j) => {
      const pool = poolOf(m[3]);
      noSuch(j, m[1] as Noun, m[2]!, pool);
      offered(j, m[4]!.split(' or '), pool);
    },
  ],
  [
    new RegExp(`(?:no ${NOUN}|nothing) called "([^"]*)"${WHERE}${ELSEWHERE}(?:\\. (Visible|Known) (.+)\\.)?`),
    (m, j) => {
      const pool = poolOf(m[3]);
      noSuch(j, (m[1] ?? 'thing') as Noun, m[2]!, pool);
      if (m[5]) groups(j, m[5], m[4] === 'Visible' ? 'visible' : 'known');
    },
  ],
  [
    /"([^"]*)" matches several (objects|people|places|things): (.+)\. Did you mean one of those\?/,
    (m, j) => {
      const items = m[3]!.split(/, (?![^()]*\))/);
      if (items.length < 2) j.lie(`said "${m[1]}" matches several, but listed ${items.length}`);
      for (const i of items) candidate(j, i, 'known');
    },
  ],
  [/an empty name does not denote any (object|person|place|thing)/, () => {}],
];

/** Judges a failed result that is a name the robot could not resolve; false when the text is something else. */
export function readNameFailure(j: Judge, text: string): boolean {
  const m = STRANGERS.exec(text);
  if (m && NAME_RULES.some(([re]) => new RegExp(`^(?:${re.source})$`).test(m[1]!))) {
    strangers(j, m[2]!);
    return readOne(j, m[1]!, NAME_RULES);
  }
  for (const [re] of NAME_RULES) if (new RegExp(`^(?:${re.source})$`).test(text)) return readOne(j, text, NAME_RULES);
  return false;
}

/** A miss's note on the people in view the robot has not recognised (a name addresses none of them). */
const STRANGERS =
  /^(.*?)\.? A person the robot has not recognised is called by the handle it gave them, never by a name: (.+); recognize_humans names those it recognises\.$/;

/** Each listed handle is one the robot gave a person it has not recognised. */
function strangers(j: Judge, list: string): void {
  for (const item of list.split(/, (?![^()]*\))/)) {
    const h = /^(\S+) \(.+\)$/.exec(item)?.[1] ?? item;
    const p = [...j.c.world.belief.people.values()].find((x) => x.handle === h);
    if (!p) j.lie(`called ${h} a person it has not recognised, but it gave no one that handle`);
    else if (p.recognised) j.lie(`said it has not recognised ${h}, but it has`);
  }
}
