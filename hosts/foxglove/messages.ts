// A scene and its pose frames as Foxglove messages (JSON encoding, Foxglove's
// own JSON Schemas from @foxglove/schemas): FrameTransforms for every body,
// a SceneUpdate with each body's shapes, JointStates, CompressedImage and Log.
// Foxglove and Lichtblick are Z-up; the simulator is Y-up. The conversion is
// made once, as one transform "world" → "sim" (a quarter turn about X), and
// every body is a child of "sim" with the simulator's numbers as they are.
import { CompressedImage, FrameTransforms, JointStates, Log, SceneUpdate } from '@foxglove/schemas/jsonschema';
import type { SceneMeta, ShapePart } from '../../contract/schemas';
import { FLOATS_PER_POSE, poseOffset, readHeader } from '../../contract/frames';

export type Time = { sec: number; nsec: number };
type V3 = { x: number; y: number; z: number };
type Q = { x: number; y: number; z: number; w: number };

export const WORLD_FRAME = 'world';
export const SIM_FRAME = 'sim';
/** Y-up to Z-up: +90° about X, so the simulator's up (+Y) is Foxglove's up (+Z) and its left (-Z) is +Y. */
export const Y_UP_TO_Z_UP: Q = { x: Math.SQRT1_2, y: 0, z: 0, w: Math.SQRT1_2 };

export const SCHEMAS = {
  'foxglove.FrameTransforms': FrameTransforms,
  'foxglove.SceneUpdate': SceneUpdate,
  'foxglove.JointStates': JointStates,
  'foxglove.CompressedImage': CompressedImage,
  'foxglove.Log': Log,
} as const;

export const LOG = { DEBUG: 1, INFO: 2, WARNING: 3, ERROR: 4 } as const;

/**
 * Where one world sits in the view: frame ids get `prefix` ("arm/"), and its
 * "sim" frame is moved by `offset` (metres, Z-up), so several robots' worlds
 * show side by side in one 3D panel. One world: no prefix, no offset.
 */
export interface Space {
  prefix: string;
  offset: V3;
}

export const ONE_WORLD: Space = { prefix: '', offset: { x: 0, y: 0, z: 0 } };

export function timeOf(ns: bigint): Time {
  return { sec: Number(ns / 1_000_000_000n), nsec: Number(ns % 1_000_000_000n) };
}

function v3(t: readonly number[]): V3 {
  return { x: t[0] ?? 0, y: t[1] ?? 0, z: t[2] ?? 0 };
}

function q4(t: readonly number[]): Q {
  return { x: t[0] ?? 0, y: t[1] ?? 0, z: t[2] ?? 0, w: t[3] ?? 1 };
}

function qMul(a: Q, b: Q): Q {
  return {
    w: a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z,
    x: a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y,
    y: a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x,
    z: a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w,
  };
}

function rgba(hex: string, a = 1): { r: number; g: number; b: number; a: number } {
  const n = parseInt(hex.slice(1), 16);
  return { r: ((n >> 16) & 255) / 255, g: ((n >> 8) & 255) / 255, b: (n & 255) / 255, a };
}

/** Every body the scene draws: its frame id, its pose when it never moves, and its shapes. */
export interface Body {
  frame: string;
  /** Index in the pose frame, or null for a body that never moves. */
  stream: number | null;
  position: readonly number[];
  rotation: readonly number[];
  parts: readonly ShapePart[];
  label?: string;
}

export function bodiesOf(meta: SceneMeta): Body[] {
  const out: Body[] = [];
  for (const o of meta.objects) {
    if (o.hidden) continue;
    out.push({ frame: o.id, ...o.body, ...(o.fixed ? {} : { label: o.name }) });
    if (o.door) out.push({ frame: `${o.id}#door`, ...o.door });
  }
  for (const p of meta.people) out.push({ frame: p.id, ...p.body, label: p.name });
  for (const b of meta.robot.bodies) out.push({ frame: `robot#${b.part}`, ...b });
  return out;
}

/** A frame the pose stream does not carry (the camera), in the simulator's frame. */
export interface ExtraFrame {
  frame: string;
  position: V3;
  rotation: Q;
}

/** Transforms for every body at one frame (fixed bodies too, so any moment of a recording is complete). */
export function frameTransforms(
  bodies: readonly Body[],
  frame: Float32Array,
  t: Time,
  extra: readonly ExtraFrame[] = [],
  space: Space = ONE_WORLD,
): object {
  const sim = `${space.prefix}${SIM_FRAME}`;
  const transforms = [
    { timestamp: t, parent_frame_id: WORLD_FRAME, child_frame_id: sim, translation: space.offset, rotation: Y_UP_TO_Z_UP },
  ];
  for (const b of bodies) {
    let translation = v3(b.position);
    let rotation = q4(b.rotation);
    if (b.stream !== null && poseOffset(b.stream) + FLOATS_PER_POSE <= frame.length) {
      const o = poseOffset(b.stream);
      translation = { x: frame[o]!, y: frame[o + 1]!, z: frame[o + 2]! };
      rotation = { x: frame[o + 3]!, y: frame[o + 4]!, z: frame[o + 5]!, w: frame[o + 6]! };
    }
    transforms.push({ timestamp: t, parent_frame_id: sim, child_frame_id: `${space.prefix}${b.frame}`, translation, rotation });
  }
  for (const e of extra) {
    transforms.push({
      timestamp: t,
      parent_frame_id: sim,
      child_frame_id: `${space.prefix}${e.frame}`,
      translation: e.position,
      rotation: e.rotation,
    });
  }
  return { transforms };
}

// Foxglove's cylinders stand on their Z axis; the simulator's on Y.
const Z_TO_Y: Q = { x: -Math.SQRT1_2, y: 0, z: 0, w: Math.SQRT1_2 };

function primitives(parts: readonly ShapePart[]): Record<'cubes' | 'spheres' | 'cylinders' | 'triangles', object[]> {
  const cubes: object[] = [];
  const spheres: object[] = [];
  const cylinders: object[] = [];
  const triangles: object[] = [];
  for (const p of parts) {
    const pose = { position: v3(p.position), orientation: q4(p.rotation) };
    const color = rgba(p.color);
    const g = p.geometry;
    if (g.shape === 'mesh') {
      // A described robot's link as its triangles (Foxglove's TriangleListPrimitive).
      const points = [];
      for (let i = 0; i < g.positions.length; i += 3) points.push({ x: g.positions[i]!, y: g.positions[i + 1]!, z: g.positions[i + 2]! });
      triangles.push({ pose, points, color, colors: [], indices: g.indices });
    } else if (g.shape === 'box') cubes.push({ pose, size: v3(g.size), color });
    else if (g.shape === 'sphere') spheres.push({ pose, size: { x: 2 * g.radius, y: 2 * g.radius, z: 2 * g.radius }, color });
    else {
      const d = 2 * g.radius;
      cylinders.push({
        pose: { position: pose.position, orientation: qMul(pose.orientation, Z_TO_Y) },
        size: { x: d, y: d, z: g.height },
        bottom_scale: 1,
        top_scale: 1,
        color,
      });
      if (g.shape === 'capsule') {
        // Two caps along the part's Y axis.
        for (const s of [-1, 1]) {
          const up = rotate(pose.orientation, { x: 0, y: (s * g.height) / 2, z: 0 });
          const at = { x: pose.position.x + up.x, y: pose.position.y + up.y, z: pose.position.z + up.z };
          spheres.push({ pose: { position: at, orientation: pose.orientation }, size: { x: d, y: d, z: d }, color });
        }
      }
    }
  }
  return { cubes, spheres, cylinders, triangles };
}

function rotate(q: Q, v: V3): V3 {
  const r = qMul(qMul(q, { x: v.x, y: v.y, z: v.z, w: 0 }), { x: -q.x, y: -q.y, z: -q.z, w: q.w });
  return { x: r.x, y: r.y, z: r.z };
}

/** One entity per body, drawn in its own frame (so it moves with its transform), plus the floor. */
export function sceneUpdate(meta: SceneMeta, bodies: readonly Body[], t: Time, space: Space = ONE_WORLD, replace = false): object {
  const lifetime = { sec: 0, nsec: 0 };
  const empty = { arrows: [], lines: [], triangles: [], texts: [], models: [], cubes: [], spheres: [], cylinders: [] };
  const entities = bodies.map((b) => ({
    ...empty,
    timestamp: t,
    frame_id: `${space.prefix}${b.frame}`,
    id: `${space.prefix}${b.frame}`,
    lifetime,
    frame_locked: true,
    metadata: [],
    ...primitives(b.parts),
    texts: b.label
      ? [
          {
            pose: { position: { x: 0, y: 0.12, z: 0 }, orientation: { x: 0, y: 0, z: 0, w: 1 } },
            billboard: true,
            font_size: 12,
            scale_invariant: true,
            color: rgba('#ffffff'),
            text: b.label,
          },
        ]
      : [],
  }));
  const [w, d] = meta.floor.size;
  entities.push({
    ...empty,
    timestamp: t,
    frame_id: `${space.prefix}${SIM_FRAME}`,
    id: `${space.prefix}floor`,
    lifetime,
    frame_locked: true,
    metadata: [],
    cubes: [
      {
        pose: { position: { x: 0, y: -0.005, z: 0 }, orientation: { x: 0, y: 0, z: 0, w: 1 } },
        size: { x: w, y: 0.01, z: d },
        color: rgba(meta.floor.color),
      },
    ],
    spheres: [],
    cylinders: [],
    texts: [],
  });
  // A new scene (a reset, another scene) first clears the old entities.
  return { deletions: replace ? [{ timestamp: t, type: 1, id: '' }] : [], entities };
}

/** The arm's joints (radians) and the gripper opening (metres), when the robot has an arm. */
export function jointStates(meta: SceneMeta, frame: Float32Array, t: Time): object | undefined {
  const names = meta.robot.jointNames;
  if (!names.length) return undefined;
  const o = poseOffset(meta.stream.length);
  return { timestamp: t, joints: names.map((name, i) => ({ name, position: frame[o + i] ?? 0 })) };
}

export function compressedImage(pngBase64: string, t: Time, space: Space = ONE_WORLD): object {
  return { timestamp: t, frame_id: `${space.prefix}robot#camera`, data: pngBase64, format: 'png' };
}

export function logMessage(level: number, name: string, message: string, t: Time): object {
  return { timestamp: t, level, message, name, file: '', line: 0 };
}

/** Sim time of a frame (seconds). */
export function frameTime(frame: Float32Array): number {
  return readHeader(frame).simTime;
}
