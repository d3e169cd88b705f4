// Limits on what crosses the tool boundary, from a model or a page: arguments
// and results are capped in size, numbers must be finite and within a sane
// magnitude, nesting is bounded. The flow keeps clipped text in the history and
// the trace, so a 1 MB argument is neither run nor echoed whole.

/** Arguments of one call, as JSON text (characters). */
export const MAX_TOOL_ARGUMENT_CHARS = 16 * 1024;
/** The text of one tool result as the model reads it. */
export const MAX_TOOL_RESULT_CHARS = 32 * 1024;
/** Any number in arguments: metres, degrees, seconds or counts, none near this. */
export const MAX_ARGUMENT_MAGNITUDE = 1e9;
const MAX_DEPTH = 32;

const CUT = / … \[cut: (\d+) characters, over the limit of (\d+)\]$/;

/** Arguments text as the history and the trace keep it: over the limit, the start and a cut marker. */
export function clipArguments(text: string): string {
  if (text.length <= MAX_TOOL_ARGUMENT_CHARS) return text;
  return `${text.slice(0, 200)} … [cut: ${text.length} characters, over the limit of ${MAX_TOOL_ARGUMENT_CHARS}]`;
}

/** The size of arguments cut by clipArguments, if these were. */
export function cutArgumentsSize(text: string): number | undefined {
  const m = CUT.exec(text);
  return m ? Number(m[1]) : undefined;
}

/** A tool result's text for the model, cut to the limit with a note. */
export function clipResult(text: string): string {
  if (text.length <= MAX_TOOL_RESULT_CHARS) return text;
  return `${text.slice(0, MAX_TOOL_RESULT_CHARS)}\n… [the result was ${text.length} characters; the rest was cut at ${MAX_TOOL_RESULT_CHARS}]`;
}

/** Why parsed arguments cannot be used: a non-finite or huge number, or nesting too deep. Undefined when fine. */
export function argumentProblem(value: unknown): string | undefined {
  const visit = (v: unknown, path: string, depth: number): string | undefined => {
    if (depth > MAX_DEPTH) return `${path || '(arguments)'}: nested more than ${MAX_DEPTH} levels deep`;
    if (typeof v === 'number') {
      if (!Number.isFinite(v)) return `${path || '(arguments)'}: ${v} is not a finite number`;
      if (Math.abs(v) > MAX_ARGUMENT_MAGNITUDE)
        return `${path || '(arguments)'}: ${v} is out of range (at most ±${MAX_ARGUMENT_MAGNITUDE})`;
      return undefined;
    }
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) {
        const p = visit(v[i], `${path}[${i}]`, depth + 1);
        if (p) return p;
      }
    } else if (v && typeof v === 'object') {
      for (const [k, x] of Object.entries(v)) {
        const p = visit(x, path ? `${path}.${k}` : k, depth + 1);
        if (p) return p;
      }
    }
    return undefined;
  };
  return visit(value, '', 0);
}
