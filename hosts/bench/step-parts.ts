// The parts a full simulation step is broken into (step-breakdown.ts measures
// them; jobs.ts validates them; the CLI prints them), in the order printed.
export const STEP_PARTS = ['physics', 'guard', 'controllers', 'robotLinks', 'grasp', 'processes', 'poseStream', 'rest'] as const;
export type StepPart = (typeof STEP_PARTS)[number];

/** Receives the milliseconds one part of a step took. */
export type PartClock = (part: StepPart, ms: number) => void;

/** Column headings for the parts. */
export const PART_LABELS: Record<StepPart, string> = {
  physics: 'physics',
  guard: 'guard',
  controllers: 'controllers',
  robotLinks: 'robot links',
  grasp: 'grasp',
  processes: 'processes',
  poseStream: 'pose stream',
  rest: 'rest',
};
