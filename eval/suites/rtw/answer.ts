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

/** Every gold value given (within its tolerance), and every number given is one of them. */
export function numbersMatch(text: string, values: readonly number[]): boolean {
  const got = numbersIn(text);
  const near = (x: number, v: number) => Math.abs(x - v) <= tolOf(v);
  return values.every((v) => got.some((x) => near(x, v))) && got.every((x) => values.some((v) => near(x, v)));
}

/**
 * The names a check wants: at least `atLeast` of `mentions` named; with `universe`
 * (every object and place of the world), naming one that is neither wanted nor in
 * `allow` (the question's own subject) fails the check.
 */
export function namesMatch(
  text: string,
  mentions: ReadonlyArray<readonly string[]>,
  atLeast: number,
  universe?: readonly string[],
  allow: readonly string[] = [],
): boolean {
  if (mentions.filter((alts) => names(text, alts)).length < atLeast) return false;
  if (!universe) return true;
  const wanted = new Set([...mentions.flat(), ...allow].map((s) => s.toLowerCase()));
  return universe.every((u) => wanted.has(u.toLowerCase()) || !names(text, [u]));
}
