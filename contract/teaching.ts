// What the teacher's controls exchange with a host: the physics clock (pause,
// single steps), the world's seed and noise, the runs a session keeps (with
// recorded poses for replay in 3D), and exercise cards with their checks.
import { z } from 'zod';
import { RunOutcome } from './run-outcome';
import { ImportedTrace, RunEndReason, SceneMeta } from './schemas';

export { ExerciseScore, SimState } from './schemas';

// ------------------------------------------------------------------ physics clock and world settings

/** Perception and skill noise (sim/world NoiseOptions), bounded for a person's form. */
export const NoiseSettings = z
  .object({
    /** Standard deviation of reported distances, metres. */
    distanceSigma: z.number().min(0).max(0.5),
    /** Probability that a visible object is missed by detection. */
    detectionDropout: z.number().min(0).max(1),
    /** Probability that a manipulation skill fails on its own. */
    skillFailureRate: z.number().min(0).max(1),
  })
  .strict();
export type NoiseSettings = z.infer<typeof NoiseSettings>;

/** What the next load or reset builds the world with: the same seed and noise give the same world. */
export const WorldSettings = z.object({ seed: z.number().int().min(0).max(2_147_483_647), noise: NoiseSettings }).strict();
export type WorldSettings = z.infer<typeof WorldSettings>;

// ------------------------------------------------------------------ runs kept by a session

export const RunSummary = z.object({
  runId: z.string(),
  message: z.string(),
  workflow: z.string(),
  model: z.string(),
  scene: z.string().nullable(),
  /** ISO time the run started (host clock). */
  startedAt: z.string(),
  running: z.boolean(),
  /** How it ended; null while it runs. */
  reason: RunEndReason.nullable(),
  toolCalls: z.number().int(),
  durationMs: z.number(),
  /** Poses were recorded: it can be watched again in 3D. */
  poses: z.boolean(),
  /** How it ended as the app marks it (contract/run-outcome.ts), from its recorded events; absent while it runs or when not followed live. */
  outcome: RunOutcome.optional(),
});
export type RunSummary = z.infer<typeof RunSummary>;

/**
 * Pose frames recorded during a run, downsampled: each frame is the packed pose
 * frame the view draws (contract/frames.ts), its header carrying sim and wall
 * time. `frames` is the frames back to back as little-endian float32, base64.
 */
export const PoseRecordingInfo = z.object({
  /** The scene as it was drawn during the run (the live scene may have changed since). */
  meta: SceneMeta,
  hz: z.number(),
  frameLength: z.number().int().positive(),
  count: z.number().int().nonnegative(),
  frames: z.string(),
});
export type PoseRecordingInfo = z.infer<typeof PoseRecordingInfo>;

export const RunReplay = z.object({
  run: RunSummary,
  trace: ImportedTrace,
  poses: PoseRecordingInfo.nullable(),
  /** An evaluated case's replay: where its pictures are asked for (getCaseImage), not the session's runs. */
  evalCase: z.object({ runId: z.string(), caseId: z.string(), trial: z.number().int() }).optional(),
});
export type RunReplay = z.infer<typeof RunReplay>;

// ------------------------------------------------------------------ exercises

/** One checked goal: ✓ or ✗, in words, with what is missing (eval/goals). */
export interface GoalCheckInfo {
  ok: boolean;
  label: string;
  missing?: string | undefined;
  children?: GoalCheckInfo[] | undefined;
}
export const GoalCheckInfo: z.ZodType<GoalCheckInfo> = z.lazy(() =>
  z.object({ ok: z.boolean(), label: z.string(), missing: z.string().optional(), children: z.array(GoalCheckInfo).optional() }),
);

export const ExerciseInfo = z.object({
  id: z.string(),
  scene: z.string(),
  title: z.string(),
  task: z.string(),
  hint: z.string().nullable(),
  /** Where the card came from: Skillbridge's own, the host's folder (serve --exercises), or uploaded from a page. */
  source: z.enum(['builtin', 'folder', 'uploaded']),
});
export type ExerciseInfo = z.infer<typeof ExerciseInfo>;

export const ExerciseResult = z.object({
  id: z.string(),
  ok: z.boolean(),
  checks: GoalCheckInfo,
  /** Leaf goals that hold, of all leaf goals (a progress count for the overview). */
  passed: z.number().int(),
  total: z.number().int(),
});
export type ExerciseResult = z.infer<typeof ExerciseResult>;
