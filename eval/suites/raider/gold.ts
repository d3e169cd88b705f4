// What a RAIDER case knows (paper 001 §4.1): the action and its grounded target,
// the expected issue and answer category, what a correct explanation must name,
// the checks that reveal the issue (the oracle's tool calls), and the recovery
// (§3.5, Fig. 7) with the goal it must reach in the physics. All computed by the
// generator from the world.
import { z } from 'zod';
import { PlanStep } from '../../core/case';

export const ISSUES = ['IA', 'IN', 'IU1', 'IU2', 'IU3', 'IU4', 'IU5', 'IU6'] as const;
export type Issue = (typeof ISSUES)[number];
export const ACTIONS = ['pick', 'place', 'open', 'close', 'turnon', 'turnoff', 'slice'] as const;
export type RaiderAction = (typeof ACTIONS)[number];
export type Category = 'ambiguity' | 'unfeasibility' | 'none';

export function categoryOf(issue: Issue): Category {
  return issue === 'IA' ? 'ambiguity' : issue === 'IN' ? 'none' : 'unfeasibility';
}

/** The state a recovery must reach, checked on the final world. */
export const RecoveryGoal = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('holding'), object: z.string() }),
  z.object({ kind: z.literal('placed'), object: z.string(), dest: z.string() }),
  z.object({ kind: z.literal('state'), object: z.string(), state: z.string(), value: z.boolean() }),
  /** Nothing can or need be done: the robot says why and changes nothing (IU4 already done, IU5 impossible). */
  z.object({ kind: z.literal('explain') }),
]);
export type RecoveryGoal = z.infer<typeof RecoveryGoal>;

export const RaiderGold = z.object({
  action: z.enum(ACTIONS),
  /** The object the query grounds to (null: ambiguous, or not present). */
  target: z.string().nullable(),
  /** The names the target goes by (id, display name, type name, aliases): grounding is naming one of them. */
  targetNames: z.array(z.string()),
  /** Visible objects matching the query's argument. */
  candidates: z.array(z.string()),
  /** Every object the robot sees where the case starts (a whole-scene observation names them all). */
  visible: z.array(z.string()).default([]),
  issue: z.enum(ISSUES),
  /** The failure code the dry run of the action returned (null: it succeeded, or it was not run). */
  code: z.string().nullable(),
  /** The held object when the case starts. */
  held: z.string().nullable(),
  /** Objects a correct explanation must name: each entry lists the names one object goes by. */
  mustName: z.array(z.array(z.string())),
  /** How many of the candidates an ambiguity explanation must name. */
  nameAtLeast: z.number().int().min(0),
  /** Words of which a correct explanation uses one (the kind of problem). */
  keywords: z.array(z.string()),
  /** The oracle's checks, and its answer. */
  evidence: z.array(PlanStep),
  explanation: z.string(),
  /** The recovery plan (Fig. 7 actions) and the goal it must reach. */
  recovery: z.array(PlanStep),
  goal: RecoveryGoal,
});
export type RaiderGold = z.infer<typeof RaiderGold>;

/** Failure codes of the robot's skills, by the issue type they reveal (§4.1.1). */
export const ISSUE_OF_CODE: Record<string, Issue> = {
  out_of_reach: 'IU1',
  blocked: 'IU2',
  receptacle_full: 'IU2',
  already_done: 'IU4',
  not_pickable: 'IU5',
  not_openable: 'IU5',
  not_toggleable: 'IU5',
  not_sliceable: 'IU5',
  too_heavy: 'IU5',
  too_big: 'IU5',
  hand_full: 'IU6',
  hand_empty: 'IU6',
  needs_tool: 'IU6',
};

/** Words that name each kind of problem in an explanation (matched as whole-word prefixes). */
export const ISSUE_WORDS: Record<Issue, string[]> = {
  IA: ['ambig', 'multiple', 'several', 'two', 'more than one', 'which', 'both', 'unclear'],
  IN: [],
  IU1: ['reach', 'far', 'distance', 'away', 'beyond', 'too far'],
  IU2: ['block', 'obstruct', 'on top', 'inside', 'in the way', 'occupied', 'full', 'contains', 'covered', 'in it', 'already has', 'door'],
  IU3: [
    'not present',
    'not visible',
    'not see',
    "can't see",
    'cannot see',
    'not found',
    'no ',
    'absent',
    'not in sight',
    'missing',
    'not detect',
    'isn',
  ],
  IU4: ['already'],
  IU5: [
    'cannot be',
    "can't be",
    'not pickable',
    'not openable',
    'not toggleable',
    'not sliceable',
    'too heavy',
    'too big',
    'fixed',
    'not possible',
    'impossible',
    'property',
    'properties',
    'unable',
    'not designed',
  ],
  IU6: ['holding', 'hold', 'hand', 'gripper', 'knife', 'empty', 'not carrying'],
};

export const GoldSteps = z.array(PlanStep);
