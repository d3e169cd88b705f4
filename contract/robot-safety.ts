// What a page knows of a real robot's own safety readings (serve --robot): the
// e-stop and battery as last read, each with its age and whether it is fresh,
// stale or unknown, and the link. A page draws "stale (12.4 s old)" or "unknown"
// from these, never an old value as if it were current.
import { z } from 'zod';

export const Freshness = z.enum(['fresh', 'stale', 'unknown']);
export type Freshness = z.infer<typeof Freshness>;

const AgeS = z.number().nonnegative().max(1e9);

export const RobotSafety = z.object({
  /** The robot source: 'http' or 'rosbridge'. */
  source: z.string().min(1).max(40),
  /** Where the robot is (its URL; never a token). */
  url: z.string().max(2000),
  estop: z.object({
    /** 'unknown': nothing read yet, unreadable, or (rosbridge) too old to trust; 'not_reported': the robot declares it has none. */
    state: z.enum(['released', 'pressed', 'unknown', 'not_reported']),
    ageS: AgeS.optional(),
    freshness: Freshness,
    detail: z.string().max(1000).optional(),
  }),
  /** Absent when the robot reports no battery. */
  battery: z
    .object({
      /** As the robot reported it (a page clamps it to 0–100 to draw). */
      percent: z.number().optional(),
      ageS: AgeS.optional(),
      freshness: Freshness,
    })
    .optional(),
  /** The robot's stated maximum age of a reading, seconds (older is stale). */
  maxAgeS: z.number().nonnegative(),
  link: z.enum(['up', 'reconnecting', 'down']),
});
export type RobotSafety = z.infer<typeof RobotSafety>;
