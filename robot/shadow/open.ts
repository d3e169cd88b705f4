// Opens shadow mode's simulator for a real robot: the scene the user prototyped
// in, run headless (predictions step as fast as they can), beside the robot.
import type { z } from 'zod';
import { openSim } from '../sim/open';
import type { Robot } from '../robot';
import type { ShadowForm } from '../source';
import { Shadow } from './shadow';

export async function openShadow(real: Robot, form: z.output<typeof ShadowForm>): Promise<Shadow> {
  const sim = await openSim(form.scene, { seed: form.seed });
  return new Shadow(real, sim, { toleranceM: form.toleranceM });
}
