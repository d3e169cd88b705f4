// The robot's controllers: the motions the arm, base, fingers and doors follow,
// one physics step at a time. SimWorld steps them; skills set them. The arm's
// joints never move faster than their rated speed (with a little headroom): a
// plan that asks for a jump (an IK branch switch, a roll flip) is followed at
// that speed instead, so a kinematic link can never fling what it touches.
import type { JointValues } from '../body/kinematics';
import type { ArmMotion, BaseMotion, ScalarTrack } from '../body/motion';
import type { BodyState } from './types';

/** What one step of the controllers moved. */
export interface Advance {
  baseMoved: boolean;
  armMoved: boolean;
  /** Metres the base drove this step (for the battery). */
  driven: number;
}

/** Headroom over the configured joint speed before the controller holds a joint back. */
export const JOINT_SPEED_HEADROOM = 1.5;

export class Controllers {
  private armTarget: JointValues | undefined;

  /** `jointSpeed`: the arm's rated joint speed, rad/s (Infinity without an arm). */
  constructor(private readonly jointSpeed: number) {}

  arm: ArmMotion | undefined;
  base: BaseMotion | undefined;
  gripper: ScalarTrack | undefined;
  readonly doors = new Map<string, ScalarTrack>();

  get armBusy(): boolean {
    return Boolean(this.arm && !this.arm.done) || this.armTarget !== undefined;
  }

  get baseBusy(): boolean {
    return Boolean(this.base && !this.base.done);
  }

  get gripperBusy(): boolean {
    return Boolean(this.gripper && !this.gripper.done);
  }

  doorBusy(id: string): boolean {
    const m = this.doors.get(id);
    return Boolean(m && !m.done);
  }

  get anyBusy(): boolean {
    return this.armBusy || this.baseBusy || this.gripperBusy || this.doors.size > 0;
  }

  /** What advance returns: one object, filled anew by every call (the step reads it at once). */
  private readonly moved: Advance = { baseMoved: false, armMoved: false, driven: 0 };

  /**
   * Moves the body one step along every active motion; doors through `setDoor`.
   * The result is overwritten by the next call: read it before stepping again.
   */
  advance(body: BodyState, dt: number, setDoor: (id: string, value: number) => void): Readonly<Advance> {
    const out = this.moved;
    out.baseMoved = false;
    out.armMoved = false;
    out.driven = 0;
    if (this.base && !this.base.done) {
      body.basePose = this.base.next(dt);
      out.driven = this.base.lastStepDistance;
      out.baseMoved = true;
    }
    if (this.arm && !this.arm.done) this.armTarget = this.arm.next(dt);
    if (this.armTarget && body.q) {
      // A new array each step: motions keep the joints they started from.
      const q = new Array<number>(body.q.length);
      if (stepToward(body.q, this.armTarget, this.jointSpeed * JOINT_SPEED_HEADROOM * dt, q)) this.armTarget = undefined;
      body.q = q;
      out.armMoved = true;
    }
    if (this.gripper && !this.gripper.done) {
      body.opening = this.gripper.next(dt);
      out.armMoved = true;
    }
    for (const [id, m] of this.doors) {
      setDoor(id, m.next(dt));
      if (m.done) this.doors.delete(id);
    }
    return out;
  }

  /** Stops every controller where it is (after an interrupt). */
  halt(): void {
    this.arm = undefined;
    this.armTarget = undefined;
    this.base = undefined;
    this.gripper = undefined;
    this.doors.clear();
  }
}

/** Moves each joint toward its target by at most `maxStep` radians, into `q`; true when every joint reached it. */
function stepToward(from: JointValues, to: JointValues, maxStep: number, q: number[]): boolean {
  let reached = true;
  for (let i = 0; i < from.length; i++) {
    const a = from[i]!;
    const d = to[i]! - a;
    if (Math.abs(d) <= maxStep) q[i] = to[i]!;
    else {
      reached = false;
      q[i] = a + Math.sign(d) * maxStep;
    }
  }
  return reached;
}
