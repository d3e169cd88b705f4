// The robot's controllers: the motions the arm, base, fingers and doors follow,
// one physics step at a time. SimWorld steps them; skills set them.
import type { ArmMotion, BaseMotion, ScalarTrack } from '../body/motion';
import type { BodyState } from './types';

/** What one step of the controllers moved. */
export interface Advance {
  baseMoved: boolean;
  armMoved: boolean;
  /** Metres the base drove this step (for the battery). */
  driven: number;
}

export class Controllers {
  arm: ArmMotion | undefined;
  base: BaseMotion | undefined;
  gripper: ScalarTrack | undefined;
  readonly doors = new Map<string, ScalarTrack>();

  get armBusy(): boolean {
    return Boolean(this.arm && !this.arm.done);
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

  /** Moves the body one step along every active motion; doors through `setDoor`. */
  advance(body: BodyState, dt: number, setDoor: (id: string, value: number) => void): Advance {
    const out: Advance = { baseMoved: false, armMoved: false, driven: 0 };
    if (this.base && !this.base.done) {
      body.basePose = this.base.next(dt);
      out.driven = this.base.lastStepDistance;
      out.baseMoved = true;
    }
    if (this.arm && !this.arm.done) {
      body.q = this.arm.next(dt);
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
    this.base = undefined;
    this.gripper = undefined;
    this.doors.clear();
  }
}
