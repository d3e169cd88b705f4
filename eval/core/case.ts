// An evaluation case as plain, serialisable data: it crosses to worker threads
// and is cached on disk, so it is a zod schema. The case says which world it
// starts in (a scene, edits to its data, robot actions run before the snapshot),
// what the person says, how the simulated person answers questions, and the
// suite's gold (expected answer, goal, reference plan), computed from the world
// when the case was generated, never typed by hand.
import { z } from 'zod';

const Vec3 = z.tuple([z.number(), z.number(), z.number()]);

/** A change to the scene's data before the world is built (a scene variant). */
export const SceneEdit = z.discriminatedUnion('kind', [
  /** An exogenous event at a simulated time (DFKI's e-stop, a person speaking, battery). */
  z.object({
    kind: z.literal('event'),
    at: z.number().min(0),
    event: z.discriminatedUnion('type', [
      z.object({ type: z.literal('estop_pressed') }),
      z.object({ type: z.literal('estop_released') }),
      z.object({ type: z.literal('person_said'), person: z.string().optional(), text: z.string() }),
      z.object({ type: z.literal('object_moved'), object: z.string(), to: Vec3, by: z.string().optional() }),
      z.object({ type: z.literal('set_battery'), percent: z.number().min(0).max(100) }),
    ]),
  }),
  /** Takes an object out of the scene. */
  z.object({ kind: z.literal('remove'), object: z.string() }),
  /** Puts an object on or in another, at a position (world frame; y is ignored when resting on something). */
  z.object({
    kind: z.literal('place'),
    object: z.string(),
    position: Vec3,
    on: z.string().optional(),
    in: z.string().optional(),
  }),
  /** Sets an object's initial state (open, on, dirty…). */
  z.object({ kind: z.literal('state'), object: z.string(), state: z.record(z.string(), z.boolean()) }),
  /** Where the robot starts (a named place), its battery and how fast it drains. */
  z.object({
    kind: z.literal('robot'),
    at: z.string().optional(),
    battery: z.number().min(0).max(100).optional(),
    drainScale: z.number().positive().optional(),
    docked: z.boolean().optional(),
  }),
]);
export type SceneEdit = z.infer<typeof SceneEdit>;

/** A robot action run on the built world before it is snapshotted (stand at a place, hold an object, open a door). */
export const SetupStep = z.discriminatedUnion('do', [
  z.object({ do: z.literal('navigate'), place: z.string() }),
  z.object({ do: z.literal('pick'), object: z.string() }),
  z.object({ do: z.literal('open'), object: z.string() }),
  z.object({ do: z.literal('close'), object: z.string() }),
  z.object({ do: z.literal('switch'), object: z.string(), on: z.boolean() }),
  z.object({ do: z.literal('perceive') }),
  z.object({ do: z.literal('undock') }),
]);
export type SetupStep = z.infer<typeof SetupStep>;

/** The world a case starts in; cases with the same key share one built world and its snapshot. */
export const WorldSpec = z.object({
  /** Equal specs have equal keys (the pool builds one world per key). */
  key: z.string().min(1),
  scene: z.string().min(1),
  edits: z.array(SceneEdit).default([]),
  setup: z.array(SetupStep).default([]),
});
export type WorldSpec = z.infer<typeof WorldSpec>;

/** How the simulated person answers a question: the first rule whose words all appear in it, else `fallback`. */
export const Answers = z.object({
  rules: z.array(z.object({ match: z.array(z.string()), answer: z.string() })).default([]),
  fallback: z.string().optional(),
});
export type Answers = z.infer<typeof Answers>;

/** One step of a reference plan: a tool and its arguments, as a model would call it. */
export const PlanStep = z.object({ tool: z.string().min(1), args: z.record(z.string(), z.unknown()).default({}) });
export type PlanStep = z.infer<typeof PlanStep>;

export const EvalCase = z.object({
  id: z.string().min(1),
  suite: z.string().min(1),
  world: WorldSpec,
  /** What the person says (the turn's message). */
  instruction: z.string().min(1),
  /** Taxonomy labels for the report's breakdowns. */
  labels: z.record(z.string(), z.string()),
  /** The tool set for workflows that take one (flat). */
  toolSet: z.string().optional(),
  answers: Answers.optional(),
  /** Bounds of the case's turn (a long mission needs more model turns than a question). */
  limits: z.object({ maxIterations: z.number().int().positive().optional(), timeLimitS: z.number().positive().optional() }).optional(),
  /** The suite's gold: validated by the suite's own schema. */
  gold: z.unknown(),
});
export type EvalCase = z.infer<typeof EvalCase>;

/** The simulated person's answer to a question, from the case's rules. */
export function answerFor(answers: Answers | undefined, question: string): string | undefined {
  if (!answers) return undefined;
  const q = question.toLowerCase();
  for (const r of answers.rules) if (r.match.every((w) => q.includes(w.toLowerCase()))) return r.answer;
  return answers.fallback;
}
