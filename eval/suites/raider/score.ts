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
  failureClass: 'GR' | 'MC' | 'WR' | 'WF' | null;
  answer: RaiderAnswer | undefined;
}

export function scoreAnswer(
  gold: RaiderGold,
  abstraction: string,
  finalText: string | undefined,
  events: readonly FlowEvent[],
): RaiderScore {
  const a = parseRaiderAnswer(finalText);
  const expected: Category = categoryOf(gold.issue);
  const det = a?.category === expected;
  const text = a ? `${a.explanation} ${(a.objects ?? []).join(' ')}` : '';
  const named = gold.mustName.filter((alts) => names(text, alts)).length;
  const enoughNames = gold.nameAtLeast ? named >= gold.nameAtLeast : named === gold.mustName.length;
  const t = text.toLowerCase();
  const kind = !gold.keywords.length || gold.keywords.some((k) => t.includes(k)) || a?.issue?.toUpperCase() === gold.issue;
  const expl = det && (gold.issue === 'IN' || (enoughNames && kind));
  // Grounding is needed when the argument is not named specifically, or its name fits several objects.
  const needsGrounding = abstraction !== 'AS' || gold.issue === 'IA';
  const grnd = !needsGrounding
    ? null
    : gold.issue === 'IA'
      ? a?.category === 'ambiguity'
      : gold.issue === 'IU3'
        ? a?.category === 'unfeasibility'
        : gold.target !== null && names(text, gold.targetNames);
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
  return { det, expl, grnd, failureClass, answer: a };
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
