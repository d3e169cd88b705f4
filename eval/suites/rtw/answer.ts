// Checking an information answer value by value: names against the
// world with precision (an object or place named that the answer should not
// name loses — a list of every name is no answer), numbers within a tolerance
// with precision (every number given must be one of the gold values).
import { names } from '../raider/score';

/** Object ids and the like ("mug_2") carry digits that are no quantities. */
const ID = /\b[a-z][a-z0-9]*(?:_[a-z0-9]+)*_\d+\b/gi;

/** The quantities an answer gives, ids taken out. */
export function numbersIn(text: string): number[] {
  return [...text.replace(ID, ' ').matchAll(/-?\d+(?:\.\d+)?/g)].map((m) => Number(m[0]));
}

/** A tolerance for a gold quantity: 2 % of it, at least 0.01. */
export const tolOf = (v: number) => Math.max(0.01, Math.abs(v) * 0.02);

/** The text with every whole-word occurrence of these names taken out (a "1984" that names a book is no quantity). */
export function withoutNames(text: string, names: readonly string[]): string {
  let rest = text;
  for (const n of [...names].sort((a, b) => b.length - a.length))
    for (const f of new Set([n, n.replace(/_/g, ' ')]))
      if (f) rest = rest.replace(new RegExp(`(^|[^a-z0-9])${escape(f)}(?=$|[^a-z0-9])`, 'gi'), '$1 ');
  return rest;
}

/** Every gold value given (within its tolerance), and every number given is one of them. */
export function numbersMatch(text: string, values: readonly number[]): boolean {
  const got = numbersIn(text);
  const near = (x: number, v: number) => Math.abs(x - v) <= tolOf(v);
  return values.every((v) => got.some((x) => near(x, v))) && got.every((x) => values.some((v) => near(x, v)));
}

/**
 * The names a check wants: at least `atLeast` of `mentions` named; with `universe`
 * (every object and place of the world, each as the names it goes by: id and
 * display name), naming one that is neither wanted nor in `allow` (the question's
 * own subject) fails the check, by any of its names — a display name is checked
 * as an id is. A name two objects share counts for the wanted one.
 */
export function namesMatch(
  text: string,
  mentions: ReadonlyArray<readonly string[]>,
  atLeast: number,
  universe?: ReadonlyArray<string | readonly string[]>,
  allow: readonly string[] = [],
): boolean {
  if (mentions.filter((alts) => names(text, alts)).length < atLeast) return false;
  if (!universe) return true;
  const wanted = new Set([...mentions.flat(), ...allow].map((s) => s.toLowerCase()));
  // The wanted names taken out first, longest first: "blue mug" wanted does not name a "mug" beside it.
  const rest = withoutNames(text.toLowerCase(), [...wanted]);
  return universe.every((u) => {
    const forms = (typeof u === 'string' ? [u] : [...u]).map((s) => s.toLowerCase());
    return forms.some((f) => wanted.has(f)) || !names(rest, forms);
  });
}

function escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
