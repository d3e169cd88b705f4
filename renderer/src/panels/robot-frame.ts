// The robot's base frame as the tools speak it (REP 103: x forward, y left,
// z up, metres from the base), for forms a person fills in: the same convention
// as agents/tools/frames.ts, computed from the base's drawn pose. The world is
// Y up with yaw about +Y; forward is (cos yaw, 0, -sin yaw).
import { poseOffset, readHeader } from '../../../contract/frames';
import type { SceneMeta } from '../../../contract/schemas';

export type V3 = [number, number, number];
export interface BasePose {
  position: V3;
  yawDeg: number;
}

function axes(yawDeg: number): { forward: V3; left: V3 } {
  const t = (yawDeg * Math.PI) / 180;
  return { forward: [Math.cos(t), 0, -Math.sin(t)], left: [-Math.sin(t), 0, -Math.cos(t)] };
}

const round3 = (x: number) => Math.round(x * 1000) / 1000 + 0;

/** A world point in the base frame, [x forward, y left, z up]. */
export function toBase(p: V3, base: BasePose): V3 {
  const d: V3 = [p[0] - base.position[0], p[1] - base.position[1], p[2] - base.position[2]];
  const { forward, left } = axes(base.yawDeg);
  const dot = (a: V3) => a[0] * d[0] + a[1] * d[1] + a[2] * d[2];
  return [round3(dot(forward)), round3(dot(left)), round3(d[1])];
}

/** A base-frame point [x forward, y left, z up] in the world. */
export function toWorld(p: V3, base: BasePose): V3 {
  const { forward, left } = axes(base.yawDeg);
  const b = base.position;
  return [b[0] + p[0] * forward[0] + p[1] * left[0], b[1] + p[2], b[2] + p[0] * forward[2] + p[1] * left[2]];
}

/** Yaw about +Y (degrees) of a quaternion (x, y, z, w). */
export function yawOf(x: number, y: number, z: number, w: number): number {
  return (Math.atan2(2 * (w * y + x * z), 1 - 2 * (x * x + y * y)) * 180) / Math.PI;
}

/** The robot base's pose in a pose frame of this scene (its static pose when the frame is missing or stale). */
export function basePoseIn(meta: SceneMeta, frame: Float32Array | undefined): BasePose | undefined {
  const base = meta.robot.bodies.find((b) => b.part === 'base') ?? meta.robot.bodies[0];
  if (!base) return undefined;
  let p: number[] = [...base.position];
  let q: number[] = [...base.rotation];
  if (base.stream !== null && frame && readHeader(frame).generation === meta.generation) {
    const o = poseOffset(base.stream);
    p = [frame[o]!, frame[o + 1]!, frame[o + 2]!];
    q = [frame[o + 3]!, frame[o + 4]!, frame[o + 5]!, frame[o + 6]!];
  }
  return { position: [p[0]!, p[1]!, p[2]!], yawDeg: yawOf(q[0]!, q[1]!, q[2]!, q[3]!) };
}
