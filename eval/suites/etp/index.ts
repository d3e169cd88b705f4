// The ETP suite (EmbodiedToolBench, paper 004 §3.2): tool-need recognition,
// tool selection among four candidates, tool execution (a valid invocation of
// the designated tool, then the next action that its output calls for) and
// tool-chain composition (the minimal tool set in dependency order), on the
// kitchen and the tabletops. Gold answers come from the world: the right tool
// for what is asked, the next action from the tool's real output, and chains
// played in the physics before they are kept.
import { etpReport } from '../../report/specs/etp';
import { type CallRecord, callsOf } from '../../core/events';
import { receivedText, worldVocabulary } from '../../core/received';
import type { CaseOutcome, Scored, Suite } from '../../core/suite';
import { planPolicy } from '../../reference/policies';
import { isName, names as mentions } from '../raider/score';
import { namesMatch, numbersIn, numbersMatch, tolOf, withoutNames } from '../rtw/answer';
import type { EtpNext } from './gold';
import { generateEtp } from './generate';
import { EtpGold } from './gold';
import { ETP_CANDIDATES, candidatesWorkflow } from './workflow';

export { EtpGold } from './gold';

const ACTIONS = new Set(['pick', 'place', 'move_to', 'open', 'close', 'turnon', 'turnoff', 'slice', 'ask', 'say']);

function targetOf(c: CallRecord): string | undefined {
  if (typeof c.args !== 'object' || c.args === null) return undefined;
  const a = c.args as Record<string, unknown>;
  const v = a['object'] ?? a['location'] ?? a['target'] ?? a['obj'] ?? a['statement'];
  return typeof v === 'string' ? v : undefined;
}

const succeeded = (c: CallRecord) => c.ok && c.status === 'ok';

/** Whether a call's arguments are the gold's: an argument naming an object is one of its names exactly, any other equal. */
export function argsMatch(args: unknown, want: Record<string, unknown>, objectNames: Record<string, string[]>): boolean {
  const a = (typeof args === 'object' && args !== null ? args : {}) as Record<string, unknown>;
  return Object.entries(want).every(([k, v]) => {
    const names = objectNames[k];
    if (names) return typeof a[k] === 'string' && isName(a[k], names);
    return JSON.stringify(a[k]) === JSON.stringify(v);
  });
}

function vocabulary(o: CaseOutcome): string[][] {
  return worldVocabulary(o.control, o.robot.info.places);
}

/**
 * The next action against the gold: the right tool, successful, its argument one
 * of the target's names exactly (not a list of ids that contains one), its effect
 * in the world; a statement gives the entities and quantities asked, with nothing
 * else of the world.
 */
function actionMatches(c: CallRecord, next: EtpNext, o: CaseOutcome, world: string[][]): boolean {
  if (c.name !== next.tool || !succeeded(c)) return false;
  if (next.said) {
    const text = targetOf(c) ?? '';
    const { names, values, allow } = next.said;
    // Only what a tool of this case revealed counts: a value or id guessed, or copied from elsewhere, is not the output read.
    const at = o.events.findIndex((e) => e.type === 'tool_start' && e.id === c.id);
    const got = receivedText(o.events.slice(0, at < 0 ? undefined : at), '');
    const received =
      names.every((alts) => mentions(got, alts)) && values.every((v) => numbersIn(got).some((x) => Math.abs(x - v) <= tolOf(v)));
    return (
      received &&
      namesMatch(text, names, names.length, world, allow) &&
      numbersMatch(withoutNames(text, [...allow, ...names.flat()]), values)
    );
  }
  const arg = targetOf(c);
  if (!next.target.length || arg === undefined || !isName(arg, next.target)) return false;
  const e = next.effect;
  if (!e) return true;
  switch (e.kind) {
    case 'holding':
      return o.control.holding() === e.object;
    case 'at':
      return o.control.world.body.at === e.place;
    case 'state':
      return (o.control.world.entities.get(e.object)?.states as Record<string, boolean> | undefined)?.[e.state] === e.value;
  }
}

/** The registry's own tools (the etp workflow): finding and describing a tool is not using one. */
const META: ReadonlySet<string> = new Set(['discover_tools', 'describe_tool']);

/**
 * The calls as tool use: a tool called through invoke_tool counts as a call of that
 * tool with its arguments; discovering and describing are left out, except that they
 * show a need for tools (kept as the first entry when nothing else was called).
 */
function toolUse(calls: CallRecord[], meta: ReadonlySet<string>): CallRecord[] {
  const used = calls.flatMap((c): CallRecord[] => {
    if (meta.has(c.name)) return [];
    if (c.name !== 'invoke_tool') return [c];
    const a = (c.args ?? {}) as { name?: unknown; args?: unknown };
    return typeof a.name === 'string' ? [{ ...c, name: a.name, args: a.args }] : [];
  });
  return used.length || !calls.length ? used : [calls[0]!];
}

/** Whether the answer gives one object, as {"object": name}, and it is one of `names` exactly. */
export function answeredObject(text: string | undefined, names: readonly string[]): boolean {
  const m = /\{[^{}]*\}/.exec(text ?? '');
  if (!m) return false;
  try {
    const v = JSON.parse(m[0]) as unknown;
    const o = typeof v === 'object' && v !== null ? (v as Record<string, unknown>)['object'] : undefined;
    return typeof o === 'string' && isName(o, names);
  } catch {
    return false;
  }
}

/** The order of first use of each tool. */
function firstUse(seq: readonly string[]): Map<string, number> {
  const m = new Map<string, number>();
  seq.forEach((t, i) => {
    if (!m.has(t)) m.set(t, i);
  });
  return m;
}

/** The scorer; `meta`: calls that are not tool use; `own`: the workflow's own calls (a case's picture), left out. */
export function scoreEtp(meta: ReadonlySet<string>, own: (c: CallRecord) => boolean = () => false): Suite<EtpGold>['score'] {
  return (c, o): Scored => {
    const g = c.gold;
    const calls = toolUse(
      callsOf(o.events).filter((x) => !own(x)),
      meta,
    );
    switch (g.task) {
      case 'need': {
        const pred = calls.length > 0;
        // An image case also asks which object the picture shows: the needed tool called first on it, or an answer naming it.
        const first = calls[0];
        const which = pred
          ? g.tool === null ||
            (first !== undefined && first.name === g.tool && succeeded(first) && argsMatch(first.args, g.toolArgs ?? {}, g.argNames))
          : !g.answerNames.length || answeredObject(o.turn.final, g.answerNames);
        const ok = pred === g.needTrue && which;
        return {
          metrics: { need_pred: pred, need_true: g.needTrue, need_correct: ok },
          success: ok,
          failureClass: ok ? null : pred === g.needTrue ? 'wrong-objects' : pred ? 'wrong-selection' : 'missed',
        };
      }
      case 'selection': {
        // The right tool, on the right object, and it worked: a tool named on the wrong object is not the selection asked for.
        const first = calls[0];
        const ok = first !== undefined && first.name === g.tool && succeeded(first) && argsMatch(first.args, g.toolArgs ?? {}, g.argNames);
        return { metrics: { csr: ok }, success: ok, failureClass: ok ? null : first ? 'wrong-selection' : 'missed' };
      }
      case 'execution': {
        const i = calls.findIndex((x) => x.name === g.tool);
        const inv = calls[i];
        // Stage 1: the designated tool first, called as the case needs it (its arguments, not only its name) and successful.
        const valid = i === 0 && inv !== undefined && succeeded(inv) && argsMatch(inv.args, g.toolArgs ?? {}, g.argNames);
        const nxt = i >= 0 ? calls[i + 1] : undefined;
        // Acting outside what was asked voids both stages: any action besides one call of the tool the output calls
        // for (a pick when a statement was asked, a second action), whatever its status (an attempt is an act).
        const acted = calls.filter((x, k) => k !== i && ACTIONS.has(x.name));
        const outside = acted.length > 1 || acted.some((x) => x.name !== g.next?.tool);
        const amr = Boolean(nxt && g.next && !outside && actionMatches(nxt, g.next, o, vocabulary(o)));
        // ISR is the query the model constructs (paper 004 §3.2, Stage 1): a tool without parameters has none to
        // construct, so its invocation tests nothing and is not scored (null); TUSR still needs it.
        const constructs = Object.keys(g.toolArgs ?? {}).length > 0;
        const isr = constructs ? valid && !outside : null;
        const tusr = valid && amr;
        return {
          metrics: { isr, amr, tusr },
          success: tusr,
          failureClass: tusr ? null : !inv ? 'missed' : !valid ? 'invalid' : nxt ? 'ignored-output' : 'missed',
        };
      }
      case 'chain': {
        const seq = calls.filter((x) => ACTIONS.has(x.name)).map((x) => x.name);
        const pred = new Set(seq);
        const gold = new Set(g.chainSet);
        const inter = [...pred].filter((t) => gold.has(t)).length;
        const acc = pred.size === gold.size && inter === gold.size;
        const precision = pred.size ? inter / pred.size : 0;
        const recall = gold.size ? inter / gold.size : 0;
        const f1 = pred.size + gold.size ? (2 * inter) / (pred.size + gold.size) : 0;
        const pos = firstUse(seq);
        const ocr = g.order.length
          ? g.order.filter(([a, b]) => pos.has(a) && pos.has(b) && pos.get(a)! < pos.get(b)!).length / g.order.length
          : null;
        const facts = new Set(o.control.facts());
        const goal = g.goalFacts.every((f) => facts.has(f));
        // A chain is decided by the world: the right tool names on the wrong objects reach no goal and score nothing.
        return {
          metrics: {
            chain_acc: acc && goal,
            chain_precision: precision,
            chain_recall: recall,
            chain_f1: f1,
            ocr: ocr === null ? null : goal ? ocr : 0,
            chain_goal: goal,
          },
          success: goal,
          failureClass: goal ? null : recall < 1 ? 'missed' : acc ? 'wrong-objects' : 'wrong-selection',
        };
      }
    }
  };
}

export const etpSuite: Suite<EtpGold> = {
  id: 'etp',
  title: 'EmbodiedToolBench: need, selection, execution, chains',
  paper: '004 §3.2',
  report: etpReport,
  defaultWorkflow: ETP_CANDIDATES,
  workflows: [ETP_CANDIDATES, 'etp'],
  // ETP's candidate-set loop and its discovery workflow over the tool registry.
  protocol: { workflows: [ETP_CANDIDATES, 'etp'], toolSets: [] },
  ownWorkflows: { [ETP_CANDIDATES]: (c, robot) => candidatesWorkflow(robot, c.gold.tools) },
  gold: EtpGold,
  generate: (ctx) => generateEtp(ctx),
  score: scoreEtp(META),
  oracle(c) {
    const g = c.gold;
    switch (g.task) {
      case 'need':
        return planPolicy({ steps: g.plan, final: g.final });
      case 'selection':
        return planPolicy({ steps: [{ tool: g.tool!, args: g.toolArgs ?? {} }], final: g.final });
      case 'execution':
        return planPolicy({ steps: g.plan, final: g.final });
      case 'chain':
        return planPolicy({ steps: g.plan, final: g.final });
    }
  },
  trivialAnswer: () => 'Done.',
  floors: [
    // Answering without tools is right on the need cases that need none (one in eight of all cases).
    { floor: 'noop', maxScore: 0.2 },
    { floor: 'none', maxScore: 0.2 },
    { floor: 'random', maxScore: 0.35 },
  ],
  variant: (wf) => (wf === 'etp' ? 'ETP registry' : null),
};
