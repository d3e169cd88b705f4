// Scoring a RAIDER case (paper 001 §4): Det — the answer's category
// (ambiguity / unfeasibility / none) is the expected one; Expl — it is, and the
// explanation names the objects involved and the kind of problem (matched
// structurally, no judge); Grnd — for queries that need grounding, the right
// objects named or the ambiguity found, inside a verdict that holds (Expl); Recov_Plan — the recovery reached its
// goal in the physics (§4.3). Failure reasons as §4.2.3: GR, MC, WR, WF.
import type { FlowEvent } from '../../../agents/runtime/events';
import type { SimControl } from '../../../robot/sim/control';
import { type CallRecord, argOf, callsOf } from '../../core/events';
import { okCalls, receivedText } from '../../core/received';
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

/** What the model received in the case before its verdict: the facts an explanation may use. */
export interface Received {
  /** Successful tool results of the detection (not the recovery) and the inputs given besides the query. */
  text: string;
  /** The detection's successful calls. */
  calls: readonly CallRecord[];
  /** A whole-scene observation was given as input (RAIDER's LLMVisualObs): every visible object, its states, relations and the hand. */
  scene: boolean;
  /**
   * The camera picture was given as input (RAIDER's VQA baseline): everything in view as it looks, including
   * how far it is and what it is (its properties by common sense). Absent: no picture.
   */
  pictured?: boolean;
  /** The query: the object it names (an absent one, IU3) may be named back, which reveals nothing. */
  asked: string;
}

/** The perception a whole-scene observation stands in for (distances and properties are not in it). */
const SCENE_TOOLS = new Set(['object_detection', 'robot_holding', 'get_obj_state', 'check_obj_relationship']);
/** The arguments of the perception tools that name an object. */
const OBJECT_ARGS = new Set(['obj', 'target', 'object']);

/** The detection's evidence from a case's events: what was received before the recovery began. */
export function receivedOf(events: readonly FlowEvent[], instruction: string, visible: readonly string[]): Received {
  const detection = events.filter((e) => !e.stage.startsWith('recovery'));
  const inputs = receivedText(
    detection.filter((e) => e.type === 'history'),
    instruction,
  );
  // A camera picture given as input (RAIDER's VQA baseline) is a whole-scene observation too: what the camera shows.
  const pictured = detection.some((e) => e.type === 'history' && e.messages.some((m) => m.role === 'user' && m.images?.length));
  return {
    text: receivedText(detection, instruction),
    calls: okCalls(detection),
    asked: instruction,
    scene: pictured || (visible.length > 0 && visible.every((id) => names(inputs, [id]))),
    pictured,
  };
}

/**
 * Whether the check that decides the case (the last of the oracle's evidence: the
 * distance for out of reach, the properties for IU5, the hand for IU6, what is
 * visible for IA and IU3) was made on the case's object and succeeded, or a whole
 * scene observation gave its answer. Without it a verdict is a guess: the paper's
 * "missed checks" failure (§4.2.3).
 */
export function decisiveChecked(gold: RaiderGold, got: Received): boolean {
  const check = gold.evidence.at(-1);
  if (!check) return true;
  if (got.scene && SCENE_TOOLS.has(check.tool)) return true;
  // The paper's VQA answers every check from the image (Table 1 credits it on reach, IU1, and properties, IU5):
  // a picture answers a check about an object the camera sees.
  if (
    got.pictured &&
    Object.entries(check.args).every(([k, v]) => !OBJECT_ARGS.has(k) || typeof v !== 'string' || gold.visible.includes(v))
  )
    return true;
  return got.calls.some((c) => {
    if (c.name !== check.tool) return false;
    const args = (c.args ?? {}) as Record<string, unknown>;
    return Object.entries(check.args).every(([k, v]) => {
      if (!OBJECT_ARGS.has(k) || typeof v !== 'string') return true;
      const alts = v === gold.target ? gold.targetNames : [v];
      return typeof args[k] === 'string' && isName(args[k], alts);
    });
  });
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
  got: Received = { text: '', calls: [], scene: false, asked: '' },
): RaiderScore {
  const a = parseRaiderAnswer(finalText);
  const expected: Category = categoryOf(gold.issue);
  const det = a?.category === expected;
  const objects = a?.objects ?? [];
  const issueOk = a?.issue?.trim().toUpperCase() === gold.issue;
  const allowed = [...gold.mustName, gold.targetNames, ...(gold.issue === 'IA' ? gold.candidates.map((x) => [x]) : [])];
  const required = gold.mustName;
  const checked = decisiveChecked(gold, got);
  // Every object the answer names must have come from what the case's tools (or its observation) said, or be
  // the query's own words (naming back what was asked reveals nothing, and earns nothing by itself).
  // A picture shows what the hand holds too (the robot's own arm is left out of it, the held thing is not).
  const shown = (o: string) => got.pictured === true && gold.held !== null && isName(o, [gold.held]);
  const received = objects.every((o) => names(got.text, [o]) || names(got.asked, [o]) || shown(o));
  // Grounding names what the query means: only a tool's result can say which object that is, never the query's words.
  const heard = objects.every((o) => names(got.text, [o]) || shown(o));
  // Not present (IU3): nothing to ground, so naming it is optional; naming something else still loses.
  const atLeast = gold.issue === 'IU3' ? 0 : gold.nameAtLeast || required.length;
  const expl = det && issueOk && checked && received && objectsMatch(objects, required, atLeast, allowed);
  // Grounding is needed when the argument is not named specifically, or its name fits several objects.
  const needsGrounding = abstraction !== 'AS' || gold.issue === 'IA';
  // The query's objects as the answer grounds them (the paper's GR failure when wrong).
  const grounded = !needsGrounding
    ? null
    : !received
      ? false
      : gold.issue === 'IA'
        ? heard &&
          a?.category === 'ambiguity' &&
          objectsMatch(
            objects,
            gold.candidates.map((x) => [x]),
            Math.max(2, gold.nameAtLeast),
            gold.candidates.map((x) => [x]),
          )
        : gold.issue === 'IU3'
          ? a?.category === 'unfeasibility' && issueOk && checked && objects.every((o) => allowed.some((alts) => isName(o, alts)))
          : heard && gold.target !== null && objectsMatch(objects, [gold.targetNames], 1, allowed);
  // Grnd credits a grounding only inside a verdict that holds (Expl: the category, the issue code, the check that
  // decides it, the objects it concerns). The right object named in a wrong verdict is a false statement about it
  // ("out of reach" when the tools said it is near): a wrong answer, never partial credit.
  const grnd = grounded === null ? null : grounded && expl;
  let failureClass: RaiderScore['failureClass'] = null;
  if (!expl) {
    const warned = events.some((e) => e.type === 'warning' && (e.code === 'made_up_tool_name' || e.code === 'unsuccessful_tool_call'));
    if (!a || (warned && !det)) failureClass = 'WF';
    else if (grounded === false) failureClass = 'GR';
    else if (!checked) failureClass = 'MC';
    else failureClass = 'WR';
  }
  return {
    det,
    expl,
    grnd,
    // A verdict without the check that decides it is a guess: for κ it is no verdict.
    verdict: checked && a?.category !== undefined && a.category in VERDICT_CODE ? VERDICT_CODE[a.category]! : -1,
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
