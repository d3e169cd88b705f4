// "Did you mean" hints, one copy for every layer: scene validation, tool names,
// CLI flags, world-model types.
import { distance } from 'fastest-levenshtein';

/** The closest few candidates to `word` (a small edit away), for "did you mean" hints. */
export function closest(word: string, candidates: Iterable<string>, max = 3): string[] {
  const scored: Array<[string, number]> = [];
  const w = word.toLowerCase();
  for (const c of new Set(candidates)) {
    const d = distance(w, c.toLowerCase());
    if (d <= Math.max(2, Math.floor(c.length / 3))) scored.push([c, d]);
  }
  scored.sort((a, b) => a[1] - b[1] || a[0].localeCompare(b[0]));
  return scored.slice(0, max).map(([c]) => c);
}

/** ` Did you mean "x" or "y"?` for the given suggestions, or nothing when there are none. */
export function didYouMeanOf(suggestions: readonly string[]): string {
  return suggestions.length ? ` Did you mean ${suggestions.map((n) => `"${n}"`).join(' or ')}?` : '';
}

/** ` Did you mean "x" or "y"?`, or nothing when no candidate is close. */
export function didYouMean(word: string, candidates: Iterable<string>): string {
  return didYouMeanOf(closest(word, candidates));
}
