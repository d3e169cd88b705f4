// Time-parameterised motions the controllers follow one physics step at a time.
// Quintic timing (zero velocity and acceleration at both ends) keeps held objects
// from being jerked out of the fingers by the trajectory itself.
import { type Pose, type Vec3, add, dist, qYaw, scale, sub, wrapAngle, yawOf } from '../math';
import type { JointValues } from './kinematics';

/** Quintic smoothstep: s(0)=0, s(1)=1, zero slope and curvature at both ends. */
export function smooth(t: number): number {
  const x = Math.min(1, Math.max(0, t));
  return x * x * x * (10 + x * (-15 + 6 * x));
}
/** Peak of ds/dt for the quintic, relative to a linear ramp. */
export const QUINTIC_PEAK = 1.875;

export interface ArmMotion {
  readonly done: boolean;
  /** Joint targets for the next step. */
  next(dt: number): JointValues;
}

export class JointMotion implements ArmMotion {
  private t = 0;
  readonly duration: number;

  constructor(
    private readonly from: JointValues,
    private readonly to: JointValues,
    maxJointSpeed: number,
    minDuration = 0.15,
  ) {
    let worst = 0;
    for (let i = 0; i < from.length; i++) worst = Math.max(worst, Math.abs(to[i]! - from[i]!));
    this.duration = Math.max(minDuration, (worst / maxJointSpeed) * QUINTIC_PEAK);
  }

  get done(): boolean {
    return this.t >= this.duration;
  }

  next(dt: number): JointValues {
    this.t = Math.min(this.duration, this.t + dt);
    const s = smooth(this.t / this.duration);
    const { from, to } = this;
    const out = new Array<number>(from.length);
    for (let i = 0; i < from.length; i++) out[i] = from[i]! + (to[i]! - from[i]!) * s;
    return out;
  }
}

/** Follows precomputed joint samples (a straight tool-path solved by IK each step). */
export class SampledMotion implements ArmMotion {
  private i = 0;
  constructor(private readonly samples: readonly JointValues[]) {}
  get done(): boolean {
    return this.i >= this.samples.length;
  }
  next(): JointValues {
    const q = this.samples[Math.min(this.i, this.samples.length - 1)]!;
    this.i++;
    return q;
  }
}

export interface BasePathPoint {
  position: Vec3;
  /** Final heading for the last point; intermediate points face the next one. */
  yaw?: number;
}

type Segment =
  | { kind: 'turn'; from: number; to: number; duration: number; at: Vec3 }
  | { kind: 'drive'; from: Vec3; to: Vec3; yaw: number; duration: number };

/** Differential-drive motion: turn toward the next point, drive, turn to the final heading. */
export class BaseMotion {
  private readonly segments: Segment[] = [];
  private seg = 0;
  private t = 0;
  /** Metres driven in the last step (for the battery). */
  lastStepDistance = 0;
  private lastPos: Vec3;

  constructor(start: Pose, path: BasePathPoint[], maxSpeed: number, maxYawRate: number, reverse = false) {
    let pos = start.p;
    let yaw = yawOf(start.q);
    this.lastPos = pos;
    const turn = (to: number): void => {
      const delta = wrapAngle(to - yaw);
      if (Math.abs(delta) > 1e-3) {
        this.segments.push({
          kind: 'turn',
          from: yaw,
          to: yaw + delta,
          duration: Math.max(0.2, (Math.abs(delta) / maxYawRate) * QUINTIC_PEAK),
          at: pos,
        });
      }
      yaw = yaw + delta;
    };
    for (const pt of path) {
      const d = dist(pos, pt.position);
      if (d > 1e-3) {
        const dir = sub(pt.position, pos);
        // Reversing (out of a dock) keeps the robot facing away from where it goes.
        turn(Math.atan2(-dir.z, dir.x) + (reverse ? Math.PI : 0));
        this.segments.push({
          kind: 'drive',
          from: pos,
          to: pt.position,
          yaw,
          duration: Math.max(0.3, (d / maxSpeed) * QUINTIC_PEAK),
        });
        pos = pt.position;
      }
      if (pt.yaw !== undefined) turn(pt.yaw);
    }
  }

  get done(): boolean {
    return this.seg >= this.segments.length;
  }

  next(dt: number): Pose {
    const s = this.segments[this.seg];
    if (!s) return this.pose(this.segments[this.segments.length - 1], 1);
    this.t = Math.min(s.duration, this.t + dt);
    const pose = this.pose(s, this.t / s.duration);
    if (this.t >= s.duration) {
      this.seg++;
      this.t = 0;
    }
    this.lastStepDistance = dist(pose.p, this.lastPos);
    this.lastPos = pose.p;
    return pose;
  }

  private pose(s: Segment | undefined, u: number): Pose {
    if (!s) return { p: this.lastPos, q: qYaw(0) };
    const k = smooth(u);
    if (s.kind === 'turn') return { p: s.at, q: qYaw(s.from + (s.to - s.from) * k) };
    return { p: add(s.from, scale(sub(s.to, s.from), k)), q: qYaw(s.yaw) };
  }
}

/** A scalar driven one step at a time (a door angle, the finger opening). */
export interface ScalarTrack {
  readonly done: boolean;
  next(dt: number): number;
}

/** Follows precomputed values, one per step (a door kept in step with the arm's samples). */
export class SampledScalar implements ScalarTrack {
  private i = 0;
  constructor(private readonly values: number[]) {}
  get done(): boolean {
    return this.i >= this.values.length;
  }
  next(): number {
    const v = this.values[Math.min(this.i, this.values.length - 1)]!;
    this.i++;
    return v;
  }
}

/** A scalar that eases from one value to another (door angles, finger opening). */
export class ScalarMotion implements ScalarTrack {
  private t = 0;
  readonly duration: number;
  constructor(
    readonly from: number,
    readonly to: number,
    speed: number,
    minDuration = 0.1,
  ) {
    this.duration = Math.max(minDuration, (Math.abs(to - from) / speed) * QUINTIC_PEAK);
  }
  get done(): boolean {
    return this.t >= this.duration;
  }
  next(dt: number): number {
    this.t = Math.min(this.duration, this.t + dt);
    return this.from + (this.to - this.from) * smooth(this.t / this.duration);
  }
}
