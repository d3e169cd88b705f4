// A group's scene from above for the teacher's overview: the footprint of every
// object, robot part and person at the latest pose frame the session streamed.
// A few hundred bytes per group, polled with the session list: the teacher's
// page draws each on a small 2D canvas instead of running a 3D view per group.
import { poseOffset, readHeader } from '../../contract/frames';
import type { BodyMeta, GroupGlance, SceneMeta } from '../../contract/schemas';

type Shape = GroupGlance['shapes'][number];

/** Rotation about +Y of a quaternion [x, y, z, w] (the sim's frame, Y up). */
export function yawOf(q: readonly number[]): number {
  const [x = 0, y = 0, z = 0, w = 1] = q;
  return Math.atan2(2 * (w * y + x * z), 1 - 2 * (x * x + y * y));
}

/** Where a body is now: its pose in the frame when it streams and the frame is this scene's, else where it was loaded. */
function poseOf(body: BodyMeta, frame: Float32Array | null): { x: number; z: number; yaw: number } {
  if (frame && body.stream !== null) {
    const o = poseOffset(body.stream);
    if (o + 6 < frame.length) {
      return { x: frame[o]!, z: frame[o + 2]!, yaw: yawOf([frame[o + 3]!, frame[o + 4]!, frame[o + 5]!, frame[o + 6]!]) };
    }
  }
  return { x: body.position[0], z: body.position[2], yaw: yawOf(body.rotation) };
}

/** The glance of a scene at a pose frame (a frame of another generation is ignored: its indices may differ). */
export function glanceOf(meta: SceneMeta, latest: Float32Array | null): GroupGlance {
  const frame = latest && readHeader(latest).generation === meta.generation ? latest : null;
  const shapes: Shape[] = [];
  const round = (n: number) => Math.round(n * 1000) / 1000;
  const add = (k: Shape['k'], body: BodyMeta, w: number, d: number, color: string) => {
    const p = poseOf(body, frame);
    shapes.push({ k, x: round(p.x), z: round(p.z), w: round(w), d: round(d), yaw: round(p.yaw), color });
  };
  // Largest first, so a table does not hide what stands on it.
  const objects = meta.objects.filter((o) => !o.hidden).sort((a, b) => b.size[0] * b.size[2] - a.size[0] * a.size[2]);
  for (const o of objects.slice(0, 300)) add('object', o.body, o.size[0], o.size[2], o.color);
  for (const p of meta.people) add('person', p.body, 0.45, 0.45, '#d9825b');
  for (const b of meta.robot.bodies) {
    if (b.part === 'base') add('robot', b, meta.robot.baseSize[0], meta.robot.baseSize[2], meta.robot.baseColor);
    else add('robot', b, 0.06, 0.06, meta.robot.armColor);
  }
  return {
    floor: meta.floor.size,
    floorColor: meta.floor.color,
    shapes: shapes.slice(0, 400),
    simTime: frame ? round(readHeader(frame).simTime) : null,
  };
}
