// Helpers shared by the tool sets: fuzzy name resolution that answers a model in
// words, and uniform rendering of action outcomes.
import type { NameKind, Outcome, ResolveOptions, Robot } from '../../robot/robot';
import type { ToolResult } from './tool';

export class ToolInputError extends Error {}

/** Resolves a name the model used to an id, or throws a message it can act on. */
export async function resolveName(
  robot: Robot,
  name: string,
  kinds: NameKind[] = ['object'],
  pool: ResolveOptions['pool'] = 'all',
): Promise<string> {
  const r = await robot.perception.resolve(name, { kinds, pool });
  if (!r.ok) throw new ToolInputError(r.message);
  return r.id;
}

export function outcomeResult(o: Outcome): ToolResult {
  const incidents = o.incidents?.length ? ` Also: ${o.incidents.join('; ')}.` : '';
  const text = o.ok ? `Success: ${o.summary}.${incidents}` : `Failed (${o.code}): ${o.summary}.${incidents}`;
  return { ok: o.ok, content: text, data: o };
}

export function ok(content: string, data?: unknown): ToolResult {
  return { ok: true, content, ...(data === undefined ? {} : { data }) };
}

export function fail(content: string, data?: unknown): ToolResult {
  return { ok: false, content, ...(data === undefined ? {} : { data }) };
}

/** Runs a tool body, turning name-resolution errors into failed tool results. */
export async function guarded(body: () => Promise<ToolResult> | ToolResult): Promise<ToolResult> {
  try {
    return await body();
  } catch (e) {
    if (e instanceof ToolInputError) return fail(e.message);
    throw e;
  }
}

export function list(items: readonly string[], empty = 'none'): string {
  return items.length ? items.join(', ') : empty;
}

export function metres(x: number): string {
  return `${x.toFixed(2)} m`;
}
