// Turns zod issues into one readable line per problem, naming the field and the fix.
import { distance } from 'fastest-levenshtein';
import type { z } from 'zod';

export class SceneDataError extends Error {
  constructor(
    readonly source: string,
    readonly problems: string[],
  ) {
    super(problems.length === 1 ? `${source}: ${problems[0]}` : `${source} is not valid:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'SceneDataError';
  }
}

export function fieldPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const key of path) {
    if (typeof key === 'number') out += `[${key}]`;
    else out += out ? `.${String(key)}` : String(key);
  }
  return out || '(top level)';
}

export function describeIssues(error: z.ZodError): string[] {
  return error.issues.map((issue) => {
    const where = fieldPath(issue.path);
    if (issue.code === 'unrecognized_keys') {
      return `${where}: unknown field(s) ${issue.keys.map((k) => `"${k}"`).join(', ')}; remove them or check the spelling`;
    }
    if (issue.code === 'invalid_union' && 'note' in issue && issue.note === 'No matching discriminator') {
      return `${where}: ${issue.message}`;
    }
    return `${where}: ${issue.message}`;
  });
}

/** The closest few candidates to `word`, for "did you mean" hints. */
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

export function didYouMean(word: string, candidates: Iterable<string>): string {
  const near = closest(word, candidates);
  return near.length ? ` Did you mean ${near.map((n) => `"${n}"`).join(' or ')}?` : '';
}
