// The RAIDER suite (paper 001 §4): issue detection and explanation over the
// taxonomy (IA, IU1–IU6, IN) × query type (QS, QU) × abstraction (AS, AN, AR,
// AC) on the kitchen, and recovery (§4.3): for a correctly explained issue, a
// recovery turn with the Fig. 7 actions runs in the physics and must reach the
// action's goal. Workflows with their own recovery stage are scored on it.
import { raiderReport } from '../../report/specs/raider';
import { RAIDER_IDS } from '../../../agents/workflows/raider/workflow';
import type { Policy } from '../../core/suite';
import { callsOf } from '../../core/events';
import type { CaseOf, Suite } from '../../core/suite';
import { freshFlow, lastUserText, offered, planCode, planPolicy } from '../../reference/policies';
import { generateRaider } from './generate';
import { ISSUE_WORDS, RaiderGold, categoryOf } from './gold';
import { goalReached, receivedOf, scoreAnswer } from './score';

const RECOVERY_TOOLS = ['move_to', 'pick', 'place', 'ask', 'say'];

/** The recovery request of Fig. 7: the query, the issue, its explanation and what the robot holds. */
export function recoveryPrompt(c: CaseOf<RaiderGold>, category: string, explanation: string): string {
  return [
    'A robot encountered an issue before executing an action. Determine the corrective actions needed to achieve the query action, and carry them out with your tools, one call at a time.',
    "Note: there is always a free table 'free_table' to move to and place objects momentarily or that are not needed for the instruction.",
    `The robot is at ${c.labels['place'] ?? 'the query location'}, the query location.`,
    'The robot has a single arm and cannot perform actions while holding an object, except for placing the held object or slicing if holding a knife.',
    'If the action cannot or need not be done, say why instead.',
    `query: ${c.instruction}, issue: ${category}, explanation: ${explanation}, robot holding: ${c.gold.held ?? 'none'}`,
  ].join('\n');
}

function finalJson(g: RaiderGold): string {
  return JSON.stringify({
    final_response: categoryOf(g.issue),
    explanation: g.explanation,
    category: g.issue,
    objects: [...new Set([...(g.target ? [g.target] : []), ...g.mustName.map((alts) => alts[0]!)])],
  });
}

const NONE = JSON.stringify({ final_response: 'none', explanation: 'No issue: the step can be carried out now.', category: 'IN' });

/**
 * The oracle, whatever the workflow: asked about the case's instruction, the
 * checks that reveal the issue (those the workflow offers) and the verdict;
 * offered the recovery actions as tools, the recovery plan call by call; asked
 * to write the recovery as code (raider), the plan as a program; asked to check
 * one step of that plan (raider's per-step re-check), "none".
 */
function raiderOracle(c: CaseOf<RaiderGold>): Policy {
  const offeredEvidence = (req: Parameters<Policy['next']>[0]) => c.gold.evidence.filter((s) => offered(req, s.tool));
  let detect: Policy | undefined;
  const recover = planPolicy({ steps: c.gold.recovery, final: 'Recovery done.' });
  return {
    next(req, ctx) {
      if (RECOVERY_TOOLS.every((t) => offered(req, t))) return recover.next(req, ctx);
      const system = req.messages[0]?.role === 'system' ? req.messages[0].content : '';
      if (!req.tools?.length && /write the corrective actions|plan in code/i.test(system)) return { content: planCode(c.gold.recovery) };
      const input = lastUserText(req);
      if (freshFlow(req) && !input.includes(c.instruction) && !/verdict|final_response|json/i.test(input)) {
        // A step of the recovery plan, checked again before it runs.
        return { content: NONE };
      }
      detect ??= planPolicy({ steps: offeredEvidence(req), final: finalJson(c.gold) });
      return detect.next(req, ctx);
    },
  };
}

export const raiderSuite: Suite<RaiderGold> = {
  id: 'raider',
  title: 'RAIDER: issue detection, explanation and recovery',
  paper: '001 §4',
  report: raiderReport,
  defaultWorkflow: 'raider',
  workflows: ['raider', 'flat', ...RAIDER_IDS.filter((w) => w !== 'raider')],
  // RAIDER, its prompt ablations and its baselines (§4), over the perception tool set.
  protocol: {
    workflows: [...RAIDER_IDS],
    toolSets: ['raider-household'],
  },
  gold: RaiderGold,
  generate: (ctx) => generateRaider(ctx),
  async afterTurn(ctx) {
    const { case: c } = ctx;
    const s = scoreAnswer(
      c.gold,
      c.labels['abstraction'] ?? 'AS',
      ctx.turn.final,
      ctx.events,
      receivedOf(ctx.events, c.instruction, c.gold.visible),
    );
    ctx.extra['score'] = s;
    // A workflow that recovered on its own (a recovery stage, or actions taken) is scored on what it did.
    const acted = callsOf(ctx.events).some((x) => RECOVERY_TOOLS.slice(1, 3).includes(x.name) || /recover/.test(x.stage));
    if (acted) {
      ctx.extra['recovered'] = 'workflow';
      return;
    }
    // §4.3: recovery is evaluated on the cases whose issue was detected and explained.
    if (!s.expl || !s.answer) return;
    const from = ctx.events.length;
    await ctx.sendFresh({
      workflow: 'flat',
      toolSet: 'raider-recovery',
      stage: 'recovery',
      message: recoveryPrompt(c, s.answer.category ?? '', s.answer.explanation),
    });
    ctx.extra['recovered'] = 'turn';
    ctx.extra['recoveryFrom'] = from;
  },
  score(c, o) {
    const how = o.extra['recovered'];
    const from = typeof o.extra['recoveryFrom'] === 'number' ? o.extra['recoveryFrom'] : 0;
    // The verdict is judged on what was received before any recovery turn.
    const detection = how === 'turn' ? o.events.slice(0, from) : o.events;
    const s = scoreAnswer(
      c.gold,
      c.labels['abstraction'] ?? 'AS',
      o.turn.final,
      o.events,
      receivedOf(detection, c.instruction, c.gold.visible),
    );
    // A recovery counts only from a correct structured explanation and only when its goal holds in the world.
    const recov = how === undefined ? null : s.expl && goalReached(c.gold.goal, o.control, o.events.slice(from));
    return {
      metrics: { grnd: s.grnd, det: s.det, expl: s.expl, recov_plan: recov, verdict: s.verdict, verdict_gold: s.verdictGold },
      success: s.expl,
      failureClass: s.failureClass,
    };
  },
  // Paper 001 §4.2 judged explanations with an LLM against the ground truth; here the
  // structural Expl is the score, and this judge (the user's own model) is reported apart.
  judge: {
    metric: 'expl_judge',
    prompt: (c, o) => ({
      system: "You grade a robot's explanation of an issue with an instruction against the ground truth. Answer with one word: yes or no.",
      user: [
        `Instruction: ${c.instruction}`,
        `Ground truth: ${categoryOf(c.gold.issue)} (${c.gold.issue}). ${c.gold.explanation}`,
        `The robot's answer: ${o.turn.final?.trim() || '(no answer)'}`,
        'Does the answer identify the same issue (or correctly find none) and the objects involved?',
      ].join('\n'),
    }),
  },
  oracle: (c) => raiderOracle(c),
  trivialAnswer: () => JSON.stringify({ final_response: 'none', explanation: 'No issue.' }),
  // The headline is κ over the verdicts: a constant answer scores 0 whatever the mix of issue types.
  floors: [
    { floor: 'noop', maxScore: 0.1 },
    { floor: 'none', maxScore: 0.1 },
    { floor: 'random', maxScore: 0.2 },
  ],
  adversary: {
    claim: () => JSON.stringify({ final_response: 'none', explanation: 'Done: the action was carried out.', category: 'IN', objects: [] }),
    // Six of the eight issue types are unfeasibility.
    constant: () => JSON.stringify({ final_response: 'unfeasibility', explanation: 'The action is not feasible.', category: 'IU2' }),
    stuff: (_c, names) =>
      JSON.stringify({
        final_response: 'unfeasibility',
        explanation: `${[...new Set(Object.values(ISSUE_WORDS).flat())].join(', ')}: ${names.join(', ')}`,
        category: 'IU2',
        objects: [...names],
      }),
  },
  variant: (wf) => {
    const v: Record<string, string> = {
      // The whole method (detection with QGEN_GRND's prompt, then the recovery), as the paper's tables name it.
      raider: 'RAIDER',
      'raider/qgen-grnd': 'QGEN_GRND',
      'raider/basic': 'BASIC',
      'raider/qgen': 'QGEN',
      'raider/grnd': 'GRND',
      'raider/precond': 'Precond',
      'raider/full-scene': 'LLMVisualObs',
      'raider/vqa': 'VQA',
    };
    return v[wf] ?? null;
  },
};
