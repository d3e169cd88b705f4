// The DFKI agentic control workflow (paper 003 §3, Fig. 2): a router sends chit-chat
// to a chatbot and tasks to the planner and executor, whose prompt is built from the
// robot and scene (§4) and whose tools are reflect, act, the semantic snapshot and
// check_events (§5). A goal-completion critic reads the execution log after each
// round and answers achieved / continue / stop; continue sends the planner back to
// work, up to a round limit. While the planner runs, critical events preempt the
// running skill (./preemption.ts).
import type { Model } from '../../models/model';
import type { Robot } from '../../../robot/robot';
import type { FlowLimits, FlowResult } from '../../runtime/flow';
import type { Workflow, WorkflowOutcome, WorkflowRun } from '../../runtime/workflow';
import { chatbotTools, dfkiTools } from '../../tools/sets/dfki';
import { ANSWER_RULES, robotContext } from '../prompt';
import { CRITIC_PROMPT, type Verdict, criticInput, executionLog, parseVerdict } from './critic';
import { watchForPreemption } from './preemption';
import { DEFAULT_FAILURE_MEMORY, plannerPromptSections, readPromptFacts, renderPrompt } from './prompt';
import { route } from './router';

export type DfkiStage = 'router' | 'chatbot' | 'planner' | 'critic';
export const DFKI_STAGES: readonly DfkiStage[] = ['router', 'chatbot', 'planner', 'critic'];

export interface DfkiOptions {
  /** Table 1 gives each agent its own model; default: the conversation's model for all. */
  models?: Partial<Record<DfkiStage, Model>>;
  /** Planner rounds the critic may ask for (the first included). */
  maxRounds?: number;
  plannerLimits?: Partial<FlowLimits>;
  /** Ingredient (viii); default: the failure patterns of §6. */
  failureMemory?: readonly string[];
  /** Route every request to the planner (no router call), as an ablation. */
  skipRouter?: boolean;
}

/** A long mission is many actions: the planner gets more turns and time than a single loop's defaults. */
const PLANNER_LIMITS: Partial<FlowLimits> = { maxIterations: 60, timeLimitMs: 600_000 };

function chatbotPrompt(robot: Robot): string {
  return [
    robotContext(robot),
    'You are its chatbot: you answer questions and make conversation. You do not act: if someone asks the robot to do something, say that you pass instructions to the robot’s planner and that they can simply ask for it.',
    ANSWER_RULES,
  ].join('\n\n');
}

/** Where this turn's messages start in the planner's history: at its request (which may have absorbed an unanswered one). */
function turnStart(r: FlowResult, input: string): number {
  for (let i = r.messages.length - 1; i >= 0; i--) {
    const m = r.messages[i]!;
    if (m.role === 'user' && typeof m.content === 'string' && m.content.endsWith(input)) return i;
  }
  return 0;
}

export async function dfkiWorkflow(robot: Robot, opts: DfkiOptions = {}): Promise<Workflow> {
  const facts = await readPromptFacts(robot);
  const plannerPrompt = renderPrompt(plannerPromptSections(robot, facts, opts.failureMemory ?? DEFAULT_FAILURE_MEMORY));
  const maxRounds = opts.maxRounds ?? 3;
  const model = (ctx: WorkflowRun, s: DfkiStage): Model => opts.models?.[s] ?? ctx.model;

  const critic = async (ctx: WorkflowRun, log: string, round: number): Promise<Verdict | { failed: FlowResult }> => {
    const r = await ctx.flow({
      stage: 'critic',
      model: model(ctx, 'critic'),
      system: CRITIC_PROMPT,
      input: criticInput(ctx.userText, log),
      tools: [],
      limits: { maxIterations: 2 },
    });
    if (r.reason !== 'final') return { failed: r };
    const v = parseVerdict(r.final ?? '');
    // An answer that says nothing readable cannot justify more rounds: treat it as a stop and say so.
    const verdict = v ?? { verdict: 'stop' as const, reason: `the critic's answer could not be read: ${(r.final ?? '').slice(0, 200)}` };
    ctx.note(
      `round ${round}: ${verdict.verdict}${verdict.cause ? ` (${verdict.cause})` : ''} — ${verdict.reason}`,
      { round, ...verdict },
      'critic',
    );
    return verdict;
  };

  const planner = async (ctx: WorkflowRun): Promise<WorkflowOutcome> => {
    const tools = dfkiTools(ctx.robot);
    const unwatch = watchForPreemption(ctx.robot, ctx, 'planner');
    try {
      let input = ctx.userText;
      let from: number | undefined;
      let last: FlowResult | undefined;
      for (let round = 1; round <= maxRounds; round++) {
        const r = await ctx.flow({
          stage: 'planner',
          model: model(ctx, 'planner'),
          memory: true,
          system: ctx.promptOverride ?? plannerPrompt,
          input,
          tools,
          limits: { ...PLANNER_LIMITS, ...opts.plannerLimits },
        });
        last = r;
        if (r.reason !== 'final') return { reason: r.reason, final: r.final, ...(r.error ? { error: r.error } : {}) };
        from ??= turnStart(r, input);
        const v = await critic(ctx, executionLog(r.messages, from), round);
        if ('failed' in v) {
          // Without a critic the planner's answer stands; the trace says why it was not checked.
          ctx.note(
            `critic unavailable (${v.failed.reason}${v.failed.error ? `: ${v.failed.error.message}` : ''}); the planner's answer stands`,
            undefined,
            'critic',
          );
          return v.failed.reason === 'stopped' ? { reason: 'stopped', final: r.final } : { reason: 'final', final: r.final };
        }
        if (v.verdict !== 'continue') return { reason: 'final', final: r.final };
        input = `The goal-completion critic says the request is not done yet: ${v.reason}\nContinue: act (not only describe) until it is done, or until it clearly cannot be done.`;
      }
      ctx.note(`round limit reached (${maxRounds}): the critic still asks to continue`, { maxRounds }, 'critic');
      return { reason: 'max_iterations', final: last?.final };
    } finally {
      unwatch();
    }
  };

  return {
    id: 'dfki',
    title: 'Plan, act and check the result (router, planner–executor, critic)',
    description:
      'A router sends questions to a chatbot and tasks to a planner that reflects, reads the state, acts one step at a time and checks events; a critic reads the log and sends it back to work until the goal is reached or blocked. Critical events interrupt a running skill.',
    stages: DFKI_STAGES,
    systemPrompt: () => plannerPrompt,
    run: async (ctx) => {
      if (!opts.skipRouter) {
        const r = await route(model(ctx, 'router'), ctx.robot.info.name, ctx.userText, ctx.signal).catch((e: unknown) => e);
        if (r instanceof Error) {
          if (ctx.signal.aborted) return { reason: 'stopped', final: undefined };
          ctx.note(`router failed: ${r.message}`, undefined, 'router');
          return { reason: 'model_error', final: undefined, error: { message: r.message } };
        }
        const routed = r as Awaited<ReturnType<typeof route>>;
        ctx.note(`route: ${routed.route}`, { route: routed.route, ...(routed.usage ? { usage: routed.usage } : {}) }, 'router');
        if (routed.route === 'chat') {
          const c = await ctx.flow({
            stage: 'chatbot',
            model: model(ctx, 'chatbot'),
            memory: true,
            system: chatbotPrompt(ctx.robot),
            tools: chatbotTools(ctx.robot),
          });
          return { reason: c.reason, final: c.final, ...(c.error ? { error: c.error } : {}) };
        }
      }
      return planner(ctx);
    },
  };
}
