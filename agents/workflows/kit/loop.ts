// loopWorkflow: the single-loop workflows of paper 000 (TORO, MAYA, AIMM) and the
// flat tool-set loop, each a page long. One flow per turn, under one stage,
// keeping its history across turns; what varies is the prompt, the tools of
// each iteration, the limits, an optional classify step and Warning 1's check.
import type { Robot } from '../../../robot/robot';
import type { ClassifyResult, FlowLimits, ToolChoice } from '../../runtime/flow';
import type { ChatMessage, Model } from '../../models/model';
import type { Workflow, WorkflowContext } from '../../runtime/workflow';
import type { Tool } from '../../tools/tool';

export interface ClassifyRequest {
  model: Model;
  robot: Robot;
  /** The conversation including the new user message. */
  messages: readonly ChatMessage[];
  userText: string;
  signal: AbortSignal;
}

export interface LoopSpec {
  id: string;
  title: string;
  description: string;
  /** The flow's stage name in the trace (default "agent"). */
  stage?: string;
  systemPrompt(robot: Robot): string;
  tools(ctx: WorkflowContext): readonly Tool[] | Promise<readonly Tool[]>;
  limits?: Partial<FlowLimits>;
  toolChoice?(ctx: WorkflowContext): ToolChoice | undefined;
  /** A step before the loop whose label (`ctx.route`) picks a branch of a tool hierarchy (MAYA, AIMM). */
  classify?(req: ClassifyRequest): Promise<ClassifyResult>;
  /** Warning 1's check for this workflow (e.g. RAIDER's `final_response` JSON). */
  looksFinal?(text: string): boolean;
}

export function loopWorkflow(spec: LoopSpec): Workflow {
  const stage = spec.stage ?? 'agent';
  return {
    id: spec.id,
    title: spec.title,
    description: spec.description,
    stages: [stage],
    systemPrompt: (robot) => spec.systemPrompt(robot),
    run: async (ctx) => {
      const { robot } = ctx;
      const classify = spec.classify?.bind(spec);
      const toolChoice = spec.toolChoice?.bind(spec);
      const looksFinal = spec.looksFinal?.bind(spec);
      const r = await ctx.flow({
        stage,
        memory: true,
        system: ctx.promptOverride ?? spec.systemPrompt(robot),
        tools: (_iteration, view) => spec.tools({ ...view, robot }),
        ...(spec.limits ? { limits: spec.limits } : {}),
        ...(toolChoice ? { toolChoice: (view) => toolChoice({ ...view, robot }) } : {}),
        ...(looksFinal ? { looksFinal } : {}),
        ...(classify
          ? { classify: (req) => classify({ model: ctx.model, robot, userText: ctx.userText, messages: req.messages, signal: req.signal }) }
          : {}),
      });
      return { reason: r.reason, final: r.final, ...(r.error ? { error: r.error } : {}) };
    },
  };
}
