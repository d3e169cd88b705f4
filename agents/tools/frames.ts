// Positions the way robotics people and models expect them: the robot's base
// frame in ROS's convention (REP 103: x forward, y left, z up, metres; yaw
// positive turning left). The Robot seam reports positions in its world frame
// (the scene's: metres, Y up, yaw about +Y positive turning left, forward
// (cos, 0, -sin)); tools convert exactly once, here, with the robot's current
// base pose, so "10 cm above the bowl" in a model's program means z + 0.1.
import type { Outcome, Robot, Vec3Tuple } from '../../robot/robot';

/** A point in the robot's base frame (REP 103). */
export interface BasePoint {
  x: number;
  y: number;
  z: number;
}

export interface BasePose {
  position: Vec3Tuple;
  yawDeg: number;
}

/** How every tool that speaks positions names its frame (in descriptions and results). */
export const BASE_FRAME = "robot base frame (REP 103): x forward, y left, z up, metres from the robot's base";

const round3 = (x: number) => Math.round(x * 1000) / 1000 + 0;

function axes(yawDeg: number): { forward: Vec3Tuple; left: Vec3Tuple } {
  const t = (yawDeg * Math.PI) / 180;
  return { forward: [Math.cos(t), 0, -Math.sin(t)], left: [-Math.sin(t), 0, -Math.cos(t)] };
}

/** A world point in the base frame. */
export function toBase(p: Vec3Tuple, base: BasePose): BasePoint {
  const d: Vec3Tuple = [p[0] - base.position[0], p[1] - base.position[1], p[2] - base.position[2]];
  const { forward, left } = axes(base.yawDeg);
  const dot = (a: Vec3Tuple) => a[0] * d[0] + a[1] * d[1] + a[2] * d[2];
  return { x: round3(dot(forward)), y: round3(dot(left)), z: round3(d[1]) };
}

/** A base-frame point in the world frame the seam takes. */
export function toWorld(p: BasePoint, base: BasePose): Vec3Tuple {
  const { forward, left } = axes(base.yawDeg);
  const b = base.position;
  return [b[0] + p.x * forward[0] + p.y * left[0], b[1] + p.z, b[2] + p.x * forward[2] + p.y * left[2]];
}

/** A world yaw (degrees) relative to the robot's heading: the yaw in the base frame, in (-180, 180]. */
export function yawToBase(yawDeg: number, base: BasePose): number {
  let y = (yawDeg - base.yawDeg) % 360;
  if (y > 180) y -= 360;
  if (y <= -180) y += 360;
  return Math.round(y * 10) / 10 + 0;
}

export async function basePose(robot: Robot): Promise<BasePose> {
  return robot.perception.basePose();
}

/** A world point a skill's summary names: "at (x, y, z)", "to (…)", "the pose (…)" (not "by (…)": a relative move). */
const TRIPLE = /(?<=\b(?:at|to|pose) )\((-?\d+(?:\.\d+)?), (-?\d+(?:\.\d+)?), (-?\d+(?:\.\d+)?)\)/g;

/** `{"x":0.33,"y":-0.17,"z":0}` for a model to read. */
export function showPoint(p: BasePoint): string {
  return JSON.stringify(p);
}

/**
 * An arm skill's outcome with its world coordinates restated in the base frame: the
 * summary's "(x, y, z)" triples and a `position` in its data. Skills report what the
 * robot did in its own terms; this keeps the model in one frame.
 */
export function outcomeInBaseFrame(o: Outcome, base: BasePose): Outcome {
  const summary = o.summary.replace(TRIPLE, (_m, x: string, y: string, z: string) => {
    const b = toBase([Number(x), Number(y), Number(z)], base);
    return `(x ${b.x}, y ${b.y}, z ${b.z})`;
  });
  const pos = o.data?.['position'];
  const data =
    Array.isArray(pos) && pos.length === 3 && pos.every((v) => typeof v === 'number')
      ? { ...o.data, position: toBase(pos as Vec3Tuple, base), frame: 'base' }
      : o.data;
  return { ...o, summary, ...(data ? { data } : {}) };
}
