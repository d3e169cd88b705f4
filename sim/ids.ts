// Ids in the order String.prototype.localeCompare puts them (the order facts and
// perception results have always been listed in), without ICU for plain ids: the
// first localeCompare of a process loads ICU's collator, ~10 ms of a one-shot
// `skillbridge call`. Plain ids are lower-case ASCII letters, digits and
// underscores; the root collation orders those character by character with "_"
// before the digits and the digits before the letters, and a prefix first. Any
// other pair goes to localeCompare itself (ids.test.ts holds the two to each other).

/** A character's place among "_", 0–9, a–z; -1 for any other. */
function rank(c: number): number {
  if (c >= 97 && c <= 122) return c - 86;
  if (c >= 48 && c <= 57) return c - 47;
  return c === 95 ? 0 : -1;
}

function plain(s: string): boolean {
  for (let i = 0; i < s.length; i++) if (rank(s.charCodeAt(i)) < 0) return false;
  return true;
}

/** Negative, zero or positive as a.localeCompare(b) is, for sorting ids. */
export function compareIds(a: string, b: string): number {
  if (!plain(a) || !plain(b)) return a.localeCompare(b);
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = rank(a.charCodeAt(i));
    const y = rank(b.charCodeAt(i));
    if (x !== y) return x < y ? -1 : 1;
  }
  return a.length === b.length ? 0 : a.length < b.length ? -1 : 1;
}
