// Robot sources: where a Robot comes from. Each kind (the simulator today; an
// HTTP robot API and rosbridge next) is a factory with a zod-validated connection
// form, as Lichtblick's data-source factories are, so every host opens a robot
// the same way and bad connection settings get one line naming the field.
import { z } from 'zod';
import type { Robot } from './robot';

/** An open robot and how to let it go. Sources add their own handles (the simulator its SimControl). */
export interface OpenedRobot {
  readonly kind: string;
  readonly robot: Robot;
  close(): Promise<void>;
}

export interface RobotSourceFactory<Form extends z.ZodType = z.ZodType, Opened extends OpenedRobot = OpenedRobot> {
  readonly kind: string;
  readonly title: string;
  readonly description: string;
  /** The connection form: what a host asks for (scene and seed; URL and token…). */
  readonly form: Form;
  open(form: z.output<Form>, opts?: { signal?: AbortSignal }): Promise<Opened>;
}

/** Connection settings that do not validate, or a robot that cannot be reached. */
export class RobotSourceError extends Error {
  override name = 'RobotSourceError';
}

/** Shadow mode, for a real robot's source: the scene whose simulator runs beside it. */
export const ShadowForm = z
  .strictObject({
    scene: z.string().min(1).describe('the scene the simulator beside the robot runs'),
    seed: z
      .int()
      .min(0)
      .max(2 ** 31 - 1)
      .default(1),
    toleranceM: z.number().positive().max(10).default(0.05),
  })
  .describe('shadow mode: play each action in this scene first');
