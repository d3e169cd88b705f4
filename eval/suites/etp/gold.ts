// ETP's gold answer per case: what the generator writes and the scorer reads.
import { z } from 'zod';
import { PlanStep } from '../../core/case';

/** What the next action must have done to the world: credit needs the effect, not the words. */
export const EtpEffect = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('holding'), object: z.string() }),
  z.object({ kind: z.literal('state'), object: z.string(), state: z.string(), value: z.boolean() }),
  z.object({ kind: z.literal('at'), place: z.string() }),
]);
export type EtpEffect = z.infer<typeof EtpEffect>;

/**
 * The action the designated tool's real output calls for. Its argument must name
 * `target` exactly (one of the names the entity goes by, not a list that contains
 * one); an action on the world must have had `effect`; a statement (say) must give
 * `said` — these entities by one of their names and these quantities (2 %), and no
 * other object, place or number of the world. A target or statement that only the
 * tool's output reveals is what makes the case test the output, not the words.
 */
export const EtpNext = z.object({
  tool: z.string(),
  target: z.array(z.string()),
  effect: EtpEffect.nullable(),
  said: z.object({ names: z.array(z.array(z.string())), values: z.array(z.number()), allow: z.array(z.string()) }).nullable(),
});
export type EtpNext = z.infer<typeof EtpNext>;

export const EtpGold = z.object({
  task: z.enum(['need', 'selection', 'execution', 'chain']),
  /** The candidate tools the case offers (the workflow shows exactly these). */
  tools: z.array(z.string()),
  needTrue: z.boolean().nullable(),
  /** Selection: the right tool. Execution: the designated tool. */
  tool: z.string().nullable(),
  /** Execution: the arguments the designated tool is called with (the oracle's), and the next action its output calls for. */
  toolArgs: z.record(z.string(), z.unknown()).nullable(),
  /** For each argument of `toolArgs` that names an object: the names it goes by (any one, exactly, is that argument). */
  argNames: z.record(z.string(), z.array(z.string())).default({}),
  next: EtpNext.nullable(),
  /** Chain: the minimal action tools, the ordering constraints, and the plan (the oracle's). */
  chainSet: z.array(z.string()),
  order: z.array(z.tuple([z.string(), z.string()])),
  plan: z.array(PlanStep),
  final: z.string(),
  /** Chain: the goal to reach in the world (a fact that must hold at the end). */
  goalFacts: z.array(z.string()),
  /**
   * An image case's answer without tools: the names the object it asks about goes by; the answer
   * must give one of them, exactly, as {"object": name}. Empty: the answer is not scored.
   */
  answerNames: z.array(z.string()).default([]),
  /**
   * A two-picture sample: the robot's own steps between its two pictures (the workflow plays them, untimed
   * and unscored, before the request); the gold is the world after them. Empty: one picture.
   */
  between: z.array(PlanStep).default([]),
});
export type EtpGold = z.infer<typeof EtpGold>;
