// The real robot behind `serve --robot`: opened on the first run (and again after
// a failed open), with the loaded scene as its shadow (each action predicted there first).
import { AppApiError } from '../../contract/api';
import type { Robot } from '../../robot/robot';
import { Shadow } from '../../robot/shadow/shadow';
import type { SimControl } from '../../robot/sim/control';
import type { SimRobot } from '../../robot/sim/sim-robot';
import { type AnyOpenedRobot, openRobot } from '../../robot/sources';
import type { RealRobotForm } from './app-options';

export class RealLink {
  private real: Promise<AnyOpenedRobot> | undefined;
  private shadowOf: { world: object; shadow: Shadow } | undefined;

  constructor(private readonly form: RealRobotForm) {}

  /** The real robot, and this scene's world as its shadow. */
  async open(world: { robot: SimRobot; control: SimControl }): Promise<{ robot: Robot; predictor: Shadow; acceptNoEstop: boolean }> {
    const { acceptNoEstop, ...form } = this.form;
    this.real ??= openRobot({ ...form, shadow: undefined });
    let real: AnyOpenedRobot;
    try {
      real = await this.real;
    } catch (e) {
      this.real = undefined;
      throw new AppApiError('invalid_request', `the robot did not open: ${(e as Error).message}`);
    }
    if (this.shadowOf?.world !== world)
      this.shadowOf = { world, shadow: new Shadow(real.robot, { robot: world.robot, control: world.control }) };
    return { robot: real.robot, predictor: this.shadowOf.shadow, acceptNoEstop: acceptNoEstop === true };
  }

  async close(): Promise<void> {
    const real = this.real;
    this.real = undefined;
    await real?.then((r) => r.close()).catch(() => undefined);
  }
}
