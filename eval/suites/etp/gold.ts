// ETP's gold answer per case: what the generator writes and the scorer reads.
import { z } from 'zod';
import { PlanStep } from '../../core/case';

export const EtpGold = z.object({
  task: z.enum(['need', 'selection', 'execution', 'chain']),
  /** The candidate tools the case offers (the workflow shows exactly these). */
  tools: z.array(z.string()),
  needTrue: z.boolean().nullable(),
  /** Selection: the right tool. Execution: the designated tool. */
  tool: z.string().nullable(),
  /** Execution: the arguments the designated tool is called with (the oracle's), and the next action its output calls for. */
  toolArgs: z.record(z.string(), z.unknown()).nullable(),
  next: z.object({ tool: z.string(), target: z.array(z.string()) }).nullable(),
  /** Chain: the minimal action tools, the ordering constraints, and the plan (the oracle's). */
  chainSet: z.array(z.string()),
  order: z.array(z.tuple([z.string(), z.string()])),
  plan: z.array(PlanStep),
  final: z.string(),
  /** Chain: the goal to reach in the world (a fact that must hold at the end). */
  goalFacts: z.array(z.string()),
});
export type EtpGold = z.infer<typeof EtpGold>;
