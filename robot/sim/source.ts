// The simulator as a robot source: a scene (built-in id or a scene file), a
// seed, and optional sensor and skill noise.
import { z } from 'zod';
import type { OpenedRobot, RobotSourceFactory } from '../source';
import type { SimControl } from './control';
import { openSim } from './open';
import type { SimRobot } from './sim-robot';

export const SimForm = z.strictObject({
  kind: z.literal('sim'),
  scene: z.string().min(1).describe('a scene id such as "tabletop/fruits", or a scene file'),
  seed: z
    .number()
    .int()
    .min(0)
    .max(2 ** 31 - 1)
    .default(1),
  noise: z
    .strictObject({
      distanceSigma: z.number().min(0).max(1).optional(),
      detectionDropout: z.number().min(0).max(1).optional(),
      skillFailureRate: z.number().min(0).max(1).optional(),
    })
    .optional(),
});
export type SimForm = z.infer<typeof SimForm>;

export interface OpenedSimRobot extends OpenedRobot {
  readonly kind: 'sim';
  readonly robot: SimRobot;
  readonly sim: SimControl;
}

export const simSource: RobotSourceFactory<typeof SimForm, OpenedSimRobot> = {
  kind: 'sim',
  title: 'Simulator',
  description: 'A Rapier physics world built from a scene, with a simulated robot.',
  form: SimForm,
  async open(form) {
    const { robot, control } = await openSim(form.scene, { seed: form.seed, ...(form.noise ? { noise: form.noise } : {}) });
    return {
      kind: 'sim',
      robot,
      sim: control,
      close: async () => control.dispose(),
    };
  },
};
