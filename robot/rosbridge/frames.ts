// Skillbridge's world frame (right-handed, Y up; yaw about +Y, positive turning
// left; yaw 0 faces +x, left is −z) and ROS's (REP 103: right-handed, x forward,
// y left, z up) differ by a quarter turn about x. The conversion happens once,
// here, for everything the rosbridge source sends or reads.
import type { Vec3Tuple } from '../robot';

export interface RosPoint {
  x: number;
  y: number;
  z: number;
}

/** Skillbridge (Y up) → ROS (Z up). */
export function toRos(p: Vec3Tuple): RosPoint {
  return { x: p[0], y: -p[2] + 0, z: p[1] };
}

/** ROS (Z up) → Skillbridge (Y up). */
export function fromRos(p: RosPoint): Vec3Tuple {
  return [p.x, p.z, -p.y + 0];
}

/** A yaw (degrees, about the up axis, positive left) is the same number in both frames; as a ROS quaternion. */
export function yawQuaternion(yawDeg: number): { x: number; y: number; z: number; w: number } {
  const h = (yawDeg * Math.PI) / 360;
  return { x: 0, y: 0, z: Math.sin(h), w: Math.cos(h) };
}

export function quaternionYawDeg(q: { x: number; y: number; z: number; w: number }): number {
  const siny = 2 * (q.w * q.z + q.x * q.y);
  const cosy = 1 - 2 * (q.y * q.y + q.z * q.z);
  return (Math.atan2(siny, cosy) * 180) / Math.PI;
}
