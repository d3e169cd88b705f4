// ALRM (paper 002 §III): a task planner agent (ReAct) hands each subtask to a
// task executor agent and reads its report as the observation. The executor
// runs the eight robot API actions either as tools (Tool-as-Policy, alrm/tap)
// or as a program it writes, run in the QuickJS sandbox with every API call
// traced (Code-as-Policy, alrm/cap). A failed program goes back to the executor
// with the sandbox's readable error; the planner reads the execution log.
import { z } from 'zod';
import type { Robot } from '../../../robot/robot';
import type { SandboxLimits } from '../../sandbox';
import { childStage } from '../../runtime/events';
import type { Workflow, WorkflowRun } from '../../runtime/workflow';
import { ALRM } from '../../tools/sets/alrm';
import { type Tool, defineTool } from '../../tools/tool';
import { apiDocs, programTool, writeAndRun } from '../kit/program';
import { capExecutorPrompt, plannerPrompt, tapExecutorPrompt } from './prompts';

export type AlrmMode = 'tap' | 'cap';

/** What the CaP program gets back from the information actions (the actions return their report). */
export const ALRM_RETURNS: Readonly<Record<string, string>> = {
  get_objects: 'string[]',
  get_reference_names: 'string[]',
  get_pose: '{ position: { x: number; y: number; z: number } }',
  compute_grasp: '{ position: { x: number; y: number; z: number }; tilt_deg: number }',
};

const EXECUTOR = 'executor';
const EXECUTOR_DESCRIPTION =
  'The task executor: runs one subtask on the robot (e.g. "Pick up lemon_1 and place it in bowl_1.") and reports what happened.';

/** Planner and executor flows are multi-step agents, not RAIDER's 20 s check. */
const PLANNER_LIMITS = { timeLimitMs: 300_000, maxIterations: 20 };
const EXECUTOR_LIMITS = { timeLimitMs: 120_000, maxIterations: 12 };

/** Code-as-Policy: the executor writes one program per subtask; failures go back to it, then the log goes to the planner. */
function capExecutor(ctx: WorkflowRun, robot: Robot, limits: Partial<SandboxLimits> | undefined): Tool {
  const spec = {
    tools: ALRM.filter((t) => t.card.requires.every((c) => robot.has(c))),
    returns: ALRM_RETURNS,
    ...(limits ? { limits } : {}),
  };
  const program = programTool(spec);
  const system = capExecutorPrompt(robot, apiDocs(spec));
  return defineTool({
    name: EXECUTOR,
    description: EXECUTOR_DESCRIPTION,
    category: 'action',
    params: z.strictObject({ task: z.string().min(1).describe('one subtask, in plain words') }),
    card: {
      outputs: 'the execution log: each API call with its result, and how the program ended',
      whenToUse: EXECUTOR_DESCRIPTION,
      dimension: 'execution',
      tags: ['agent', 'delegate', 'code'],
    },
    execute: async ({ task }, tctx) => {
      const r = await writeAndRun(ctx, {
        stage: childStage(tctx.stage ?? '', EXECUTOR),
        system,
        input: task,
        program,
        signal: tctx.signal,
        limits: EXECUTOR_LIMITS,
      });
      const head = r.ok ? 'The program ran to the end.' : `The subtask was not completed after ${r.programs.length} program(s).`;
      return { ok: r.ok, content: `${head}\n${r.report}`, data: { programs: r.programs.length, reason: r.reason } };
    },
  });
}

export interface AlrmOptions {
  /** The sandbox's limits for CaP programs (default: the sandbox's, 20 s and 32 MiB). */
  programLimits?: Partial<SandboxLimits>;
}

export function alrmWorkflow(mode: AlrmMode, opts: AlrmOptions = {}): Workflow {
  return {
    id: `alrm/${mode}`,
    title:
      mode === 'tap'
        ? 'Planner and executor, actions as tool calls (ALRM Tool-as-Policy)'
        : 'Planner and executor, actions as a program in a sandbox (ALRM Code-as-Policy)',
    description:
      mode === 'tap'
        ? 'A ReAct planner hands each subtask to an executor that calls the eight robot API actions as tools, one per step.'
        : 'A ReAct planner hands each subtask to an executor that writes one JavaScript program against the robot API, run in the QuickJS sandbox with each call traced.',
    stages: ['planner', 'planner/executor'],
    systemPrompt: (robot) => plannerPrompt(robot),
    run: async (ctx) => {
      const { robot } = ctx;
      const executor =
        mode === 'tap'
          ? ctx.agentTool({
              name: EXECUTOR,
              description: EXECUTOR_DESCRIPTION,
              stage: EXECUTOR,
              system: tapExecutorPrompt(robot),
              tools: ALRM.filter((t) => t.card.requires.every((c) => robot.has(c))),
              limits: EXECUTOR_LIMITS,
            })
          : capExecutor(ctx, robot, opts.programLimits);
      const r = await ctx.flow({
        stage: 'planner',
        memory: true,
        system: ctx.promptOverride ?? plannerPrompt(robot),
        tools: [executor],
        limits: PLANNER_LIMITS,
      });
      return { reason: r.reason, final: r.final, ...(r.error ? { error: r.error } : {}) };
    },
  };
}
