// The real robot behind `serve --robot`: opened on the first run, console call
// or read of its safety state (and again after a failed open), with the loaded
// scene as its shadow (each action predicted there first). Everything that acts
// in such a session acts here, through the safety chain; the shadow only predicts.
import { SafetyChain } from '../../agents/runtime/safety';
import { AppApiError } from '../../contract/api';
import type { RobotSafety } from '../../contract/robot-safety';
import type { Robot } from '../../robot/robot';
import { Shadow } from '../../robot/shadow/shadow';
import type { SimControl } from '../../robot/sim/control';
import type { SimRobot } from '../../robot/sim/sim-robot';
import { type AnyOpenedRobot, openRobot } from '../../robot/sources';
import type { RealRobotForm } from './app-options';

/** How long a read of the safety state waits for a robot that is still opening before it answers "connecting". */
const OPEN_WAIT_MS = 1500;

export class RealLink {
  private real: Promise<AnyOpenedRobot> | undefined;
  private opened: AnyOpenedRobot | undefined;
  private shadowOf: { world: object; shadow: Shadow; chain: SafetyChain } | undefined;

  constructor(private readonly form: RealRobotForm) {}

  private connect(): Promise<AnyOpenedRobot> {
    if (!this.real) {
      const { acceptNoEstop: _accept, ...form } = this.form;
      const p = openRobot({ ...form, shadow: undefined });
      this.real = p;
      p.then(
        (r) => {
          if (this.real === p) this.opened = r;
        },
        () => {
          if (this.real === p) this.real = undefined;
        },
      );
    }
    return this.real;
  }

  /** The real robot, and this scene's world as its shadow. */
  async open(world: { robot: SimRobot; control: SimControl }): Promise<{ robot: Robot; predictor: Shadow; acceptNoEstop: boolean }> {
    let real: AnyOpenedRobot;
    try {
      real = await this.connect();
    } catch (e) {
      throw new AppApiError('invalid_request', `the robot did not open: ${(e as Error).message}`);
    }
    if (this.shadowOf?.world !== world) {
      this.shadowOf?.chain.dispose();
      const shadow = new Shadow(real.robot, { robot: world.robot, control: world.control });
      const acceptNoEstop = this.form.acceptNoEstop === true;
      this.shadowOf = { world, shadow, chain: new SafetyChain(real.robot, { predictor: shadow, acceptNoEstop }) };
    }
    return { robot: real.robot, predictor: this.shadowOf.shadow, acceptNoEstop: this.form.acceptNoEstop === true };
  }

  /** The real robot and the safety chain the tool console's calls pass (the shadow as its predictor). */
  async console(world: { robot: SimRobot; control: SimControl }): Promise<{ robot: Robot; chain: SafetyChain }> {
    const { robot } = await this.open(world);
    return { robot, chain: this.shadowOf!.chain };
  }

  /** The real robot, opened if it is not yet. */
  async robot(): Promise<Robot> {
    try {
      return (await this.connect()).robot;
    } catch (e) {
      throw new AppApiError('invalid_request', `the robot did not open: ${(e as Error).message}`);
    }
  }

  /**
   * The robot's own e-stop, battery and link as it last reported them, with their
   * ages; never throws: a robot that is still opening, or did not open, has an
   * unknown e-stop and a link that is down.
   */
  async safety(): Promise<RobotSafety> {
    const where = { source: this.form.kind, url: this.form.url };
    const notOpen = (detail: string): RobotSafety => ({
      ...where,
      estop: { state: 'unknown', freshness: 'unknown', detail },
      maxAgeS: 0,
      link: 'down',
    });
    let real = this.opened;
    if (!real) {
      try {
        let timer: ReturnType<typeof setTimeout> | undefined;
        const waited = new Promise<undefined>((r) => (timer = setTimeout(() => r(undefined), OPEN_WAIT_MS)));
        real = await Promise.race([this.connect(), waited]).finally(() => clearTimeout(timer));
      } catch (e) {
        return notOpen(`the robot did not open: ${(e as Error).message}`);
      }
      if (!real) return notOpen('connecting to the robot');
    }
    const s = await real.robot.safety();
    // A robot's detail is its own text: kept to the length the contract allows.
    return { ...where, ...s, estop: { ...s.estop, ...(s.estop.detail ? { detail: s.estop.detail.slice(0, 1000) } : {}) } };
  }

  async close(): Promise<void> {
    this.shadowOf?.chain.dispose();
    this.shadowOf = undefined;
    const real = this.real;
    this.real = undefined;
    this.opened = undefined;
    await real?.then((r) => r.close()).catch(() => undefined);
  }
}
