// RAIDER's final response (paper 001 Fig. 4, step 4 "ISSUE"):
// {"final_response": "ambiguity" | "unfeasibility" | "none", "explanation": "…"},
// extended with optional fields an evaluation can score without a judge: the
// issue category of §4.1.1 (IA, IU1–IU6, IN) and the ids of the objects the
// query was grounded to (or that make it ambiguous).
import { z } from 'zod';

export const ISSUES = ['ambiguity', 'unfeasibility', 'none'] as const;
export type Issue = (typeof ISSUES)[number];

/** §4.1.1's issue types: ambiguity, six kinds of unfeasibility, no issue. */
export const CATEGORIES = {
  IA: 'ambiguity: two or more items match the query',
  IU1: 'target not within reach (too far)',
  IU2: 'target obstructed (blocked, something on or in it, path blocked)',
  IU3: 'target not present',
  IU4: 'target in the wrong state (e.g. already off, closed)',
  IU5: 'common sense: target with the wrong properties (e.g. not openable, too heavy)',
  IU6: 'robot issue (e.g. holding / not holding an object)',
  IN: 'no issue',
} as const;
export type Category = keyof typeof CATEGORIES;

export const VerdictSchema = z.object({
  final_response: z.enum(ISSUES),
  explanation: z.string().min(1),
  category: z.enum(Object.keys(CATEGORIES) as [Category, ...Category[]]).optional(),
  objects: z.array(z.string()).optional(),
});
export type Verdict = z.infer<typeof VerdictSchema>;

/** Warning 1's check for RAIDER: a reply that carries the final-response JSON. */
export function looksLikeVerdict(text: string): boolean {
  return /["']?final_response["']?\s*:/.test(text);
}

/** JSON objects in a text, outermost first ({…} with balanced braces outside strings). */
function jsonObjects(text: string): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length; i++) {
    if (text[i] !== '{') continue;
    let depth = 0;
    let inString = false;
    for (let j = i; j < text.length; j++) {
      const ch = text[j];
      if (inString) {
        if (ch === '\\') j++;
        else if (ch === '"') inString = false;
      } else if (ch === '"') inString = true;
      else if (ch === '{') depth++;
      else if (ch === '}' && --depth === 0) {
        out.push(text.slice(i, j + 1));
        i = j;
        break;
      }
    }
  }
  return out;
}

/** The last final-response JSON in a reply; a message naming the field when it is malformed. */
export function parseVerdict(text: string): { ok: true; verdict: Verdict } | { ok: false; message: string } {
  const candidates = jsonObjects(text).filter(looksLikeVerdict);
  const last = candidates.at(-1);
  if (!last) {
    return {
      ok: false,
      message: 'Your final answer must end with the JSON {"final_response": "ambiguity" | "unfeasibility" | "none", "explanation": "..."}.',
    };
  }
  let json: unknown;
  try {
    json = JSON.parse(last);
  } catch {
    return { ok: false, message: `Your final response is not valid JSON: ${last.slice(0, 120)}. Write it again as JSON.` };
  }
  const r = VerdictSchema.safeParse(json);
  if (r.success) return { ok: true, verdict: r.data };
  const issue = r.error.issues[0]!;
  const field = issue.path.join('.') || '(the object)';
  return {
    ok: false,
    message: `Your final response has a bad field ${field}: ${issue.message}. final_response is one of ambiguity, unfeasibility, none; category (optional) one of ${Object.keys(CATEGORIES).join(', ')}.`,
  };
}

/** The verdict as RAIDER prints it (the JSON line, optional fields included when present). */
export function verdictText(v: Verdict): string {
  return JSON.stringify(v);
}
