// Scoring a RAIDER case (paper 001 §4): Det — the answer's category
// (ambiguity / unfeasibility / none) is the expected one; Expl — it is, and the
// explanation names the objects involved and the kind of problem (matched
// structurally, no judge); Grnd — for queries that need grounding, the right
// objects named or the ambiguity found; Recov_Plan — the recovery reached its
// goal in the physics (§4.3). Failure reasons as §4.2.3: GR, MC, WR, WF.
import type { FlowEvent } from '../../../agents/runtime/events';
import type { SimControl } from '../../../robot/sim/control';
import { argOf, callsOf } from '../../core/events';
import type { Category, RaiderGold, RecoveryGoal } from './gold';
import { categoryOf } from './gold';

export interface RaiderAnswer {
  category: string | undefined;
  explanation: string;
  /** Optional structured fields a workflow may add: the issue code and the objects it concerns. */
  issue?: string;
  objects?: string[];
}

/** Reads RAIDER's final answer, {"final_response": "...", "explanation": "..."}, wherever it sits in the text. */
export function parseRaiderAnswer(text: string | undefined): RaiderAnswer | undefined {
  if (!text) return undefined;
  const starts = [...text.matchAll(/\{/g)].map((m) => m.index);
  for (const s of starts) {
    for (let e = text.lastIndexOf('}'); e > s; e = text.lastIndexOf('}', e - 1)) {
      try {
        const v = JSON.parse(text.slice(s, e + 1)) as unknown;
        if (v && typeof v === 'object' && 'final_response' in v) {
          const o = v as Record<string, unknown>;
          return {
            category: typeof o['final_response'] === 'string' ? o['final_response'].trim().toLowerCase() : undefined,
            explanation: typeof o['explanation'] === 'string' ? o['explanation'] : '',
            // RAIDER's verdict names the issue type as "category" (IA, IU1…); "issue" is accepted too.
            ...(typeof (o['category'] ?? o['issue']) === 'string' ? { issue: String(o['category'] ?? o['issue']) } : {}),
            ...(Array.isArray(o['objects']) ? { objects: o['objects'].filter((x): x is string => typeof x === 'string') } : {}),
          };
        }
      } catch {
        // not this span
      }
    }
  }
  const m = /final_response["']?\s*[:=]\s*["']?(ambiguity|unfeasibility|none)/i.exec(text);
  return m ? { category: m[1]!.toLowerCase(), explanation: text } : undefined;
}

function escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Whether the text names an object by one of its names (whole words, any case; ids match with or without the underscore). */
export function names(text: string, alternatives: readonly string[]): boolean {
  const t = text.toLowerCase();
  return alternatives.some((n) => {
    const forms = [n.toLowerCase(), n.toLowerCase().replace(/_/g, ' ')];
    return forms.some((f) => f && new RegExp(`(^|[^a-z0-9])${escape(f)}($|[^a-z0-9])`).test(t));
  });
}

export interface RaiderScore {
  det: boolean;
  expl: boolean;
  grnd: boolean | null;
  /** The verdict's category as a code (none 0, ambiguity 1, unfeasibility 2; no answer −1) and the gold's, for κ. */
  verdict: number;
  verdictGold: number;
  failureClass: 'GR' | 'MC' | 'WR' | 'WF' | null;
  answer: RaiderAnswer | undefined;
}

const VERDICT_CODE: Record<string, number> = { none: 0, ambiguity: 1, unfeasibility: 2 };

/** One name of an object as the answer gives it, compared the same way as the gold's names (case, spaces and underscores alike). */
const norm = (s: string) =>
  s
    .trim()
    .toLowerCase()
    .replace(/[\s_]+/g, ' ');

/** Whether a structured object answer is one of an object's names. */
export function isName(answer: string, alternatives: readonly string[]): boolean {
  const a = norm(answer);
  return alternatives.some((n) => norm(n) === a);
}

/**
 * The structured answer's objects against the gold, with precision: every object
 * named must be one the gold allows (a second, false object loses), and enough of
 * the gold's objects must be named.
 */
function objectsMatch(
  named: readonly string[],
  required: ReadonlyArray<readonly string[]>,
  atLeast: number,
  allowed: ReadonlyArray<readonly string[]>,
): boolean {
  if (!named.every((o) => allowed.some((alts) => isName(o, alts)))) return false;
  const hit = required.filter((alts) => named.some((o) => isName(o, alts))).length;
  return hit >= atLeast;
}

/**
 * Scores the final answer. Det is the paper's: the verdict's category. Expl and Grnd
 * are decided by the structured answer only ({"category": issue code, "objects":
 * [ids]}) matched against the gold with precision; the free-text explanation is
 * never scored (the optional --judge reads it, apart).
 */
export function scoreAnswer(
  gold: RaiderGold,
  abstraction: string,
  finalText: string | undefined,
  events: readonly FlowEvent[],
): RaiderScore {
  const a = parseRaiderAnswer(finalText);
  const expected: Category = categoryOf(gold.issue);
  const det = a?.category === expected;
  const objects = a?.objects ?? [];
  const issueOk = a?.issue?.trim().toUpperCase() === gold.issue;
  const allowed = [...gold.mustName, gold.targetNames, ...(gold.issue === 'IA' ? gold.candidates.map((x) => [x]) : [])];
  const required = gold.mustName;
  // Not present (IU3): nothing to ground, so naming it is optional; naming something else still loses.
  const atLeast = gold.issue === 'IU3' ? 0 : gold.nameAtLeast || required.length;
  const expl = det && issueOk && objectsMatch(objects, required, atLeast, allowed);
  // Grounding is needed when the argument is not named specifically, or its name fits several objects.
  const needsGrounding = abstraction !== 'AS' || gold.issue === 'IA';
  const grnd = !needsGrounding
    ? null
    : gold.issue === 'IA'
      ? a?.category === 'ambiguity' &&
        objectsMatch(
          objects,
          gold.candidates.map((x) => [x]),
          Math.max(2, gold.nameAtLeast),
          gold.candidates.map((x) => [x]),
        )
      : gold.issue === 'IU3'
        ? a?.category === 'unfeasibility' && issueOk && objects.every((o) => allowed.some((alts) => isName(o, alts)))
        : gold.target !== null && objectsMatch(objects, [gold.targetNames], 1, allowed);
  let failureClass: RaiderScore['failureClass'] = null;
  if (!expl) {
    const warned = events.some((e) => e.type === 'warning' && (e.code === 'made_up_tool_name' || e.code === 'unsuccessful_tool_call'));
    const check = gold.evidence.at(-1);
    const calls = callsOf(events);
    const checked =
      !check ||
      calls.some(
        (c) =>
          c.name === check.tool &&
          (gold.target === null || Object.values((c.args ?? {}) as object).some((v) => typeof v === 'string' && names(v, [gold.target!]))),
      );
    if (!a || (warned && !det)) failureClass = 'WF';
    else if (grnd === false) failureClass = 'GR';
    else if (!checked) failureClass = 'MC';
    else failureClass = 'WR';
  }
  return {
    det,
    expl,
    grnd,
    verdict: a?.category !== undefined && a.category in VERDICT_CODE ? VERDICT_CODE[a.category]! : -1,
    verdictGold: VERDICT_CODE[expected]!,
    failureClass,
    answer: a,
  };
}

const PHYSICAL = new Set(['pick', 'place', 'open', 'close', 'turnon', 'turnoff', 'slice']);

/** Whether a recovery's events reached its goal in the world now. */
export function goalReached(goal: RecoveryGoal, control: SimControl, events: readonly FlowEvent[]): boolean {
  switch (goal.kind) {
    case 'holding':
      return control.holding() === goal.object;
    case 'placed': {
      const facts = new Set(control.facts());
      return facts.has(`in(${goal.object}, ${goal.dest})`) || facts.has(`on(${goal.object}, ${goal.dest})`);
    }
    case 'state': {
      const e = control.world.entities.get(goal.object);
      return Boolean(e) && (e!.states as Record<string, boolean>)[goal.state] === goal.value;
    }
    case 'explain': {
      const calls = callsOf(events);
      const said = calls.some((c) => c.ok && c.name === 'say' && (argOf(c, 'statement') ?? '').length > 0);
      const acted = calls.some((c) => c.ok && PHYSICAL.has(c.name));
      return said && !acted;
    }
  }
}
