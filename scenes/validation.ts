// Turns zod issues into one readable line per problem, naming the field and the fix.
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

export { closest, didYouMean } from '../base/did-you-mean';
