// Expands compound part shapes (open boxes, bowls) into the primitives that the
// simulator makes colliders of and the renderer draws. One place, so physics and
// picture agree.
import type { MeshCollision } from './mesh-object/part';
import type { Part } from './schema';

export type Vec3T = [number, number, number];

export type Primitive =
  | { shape: 'box'; size: Vec3T }
  | { shape: 'sphere'; radius: number }
  | { shape: 'cylinder'; radius: number; height: number }
  | { shape: 'capsule'; radius: number; height: number }
  | MeshPrimitive;

/** Triangles in the part frame; the physics makes a hull or a convex decomposition of them. */
export interface MeshPrimitive {
  shape: 'mesh';
  positions: number[];
  indices: number[];
  collision: MeshCollision;
  maxParts: number;
  /** The field and file it came from, for messages. */
  origin: string;
}

export interface PrimitivePart {
  /** Name of the source part ("" when unnamed); shared by every primitive it expands into. */
  name: string;
  geometry: Primitive;
  position: Vec3T;
  /** XYZ Euler angles in degrees. */
  rotation: Vec3T;
  color: string | undefined;
  collider: boolean;
  visual: boolean;
  /** Explicit mass of this primitive, if the data gave one for its part. */
  mass: number | undefined;
}

function rotateY(v: Vec3T, deg: number): Vec3T {
  const a = (deg * Math.PI) / 180;
  const c = Math.cos(a);
  const s = Math.sin(a);
  return [v[0] * c + v[2] * s, v[1], -v[0] * s + v[2] * c];
}

/** Expands one data part; compound shapes become several primitives in the part's frame. */
export function expandPart(part: Part): PrimitivePart[] {
  const base = {
    name: part.name ?? '',
    color: part.color,
    collider: part.collider ?? true,
    visual: part.visual ?? true,
  };
  const at: Vec3T = part.position ? [...part.position] : [0, 0, 0];
  const rot: Vec3T = part.rotation ? [...part.rotation] : [0, 0, 0];
  switch (part.shape) {
    case 'box':
      return [{ ...base, geometry: { shape: 'box', size: [...part.size] }, position: at, rotation: rot, mass: part.mass }];
    case 'sphere':
      return [{ ...base, geometry: { shape: 'sphere', radius: part.radius }, position: at, rotation: rot, mass: part.mass }];
    case 'cylinder':
    case 'capsule':
      return [
        {
          ...base,
          geometry: { shape: part.shape, radius: part.radius, height: part.height },
          position: at,
          rotation: rot,
          mass: part.mass,
        },
      ];
    case 'mesh': {
      const { positions, indices, collision, maxParts, origin } = part;
      return [
        {
          ...base,
          geometry: { shape: 'mesh', positions, indices, collision, maxParts, origin },
          position: at,
          rotation: rot,
          mass: part.mass,
        },
      ];
    }
    case 'open_box': {
      const [sx, sy, sz] = part.size;
      const w = part.wall;
      const pieces: Array<[Vec3T, Vec3T]> = [
        [
          [sx, w, sz],
          [0, -sy / 2 + w / 2, 0],
        ],
        [
          [w, sy, sz],
          [-sx / 2 + w / 2, 0, 0],
        ],
        [
          [w, sy, sz],
          [sx / 2 - w / 2, 0, 0],
        ],
        [
          [sx - 2 * w, sy, w],
          [0, 0, -sz / 2 + w / 2],
        ],
        [
          [sx - 2 * w, sy, w],
          [0, 0, sz / 2 - w / 2],
        ],
      ];
      const massEach = part.mass === undefined ? undefined : part.mass / pieces.length;
      return pieces.map(([size, offset]) => ({
        ...base,
        geometry: { shape: 'box', size },
        position: add(at, rotateEuler(offset, rot)),
        rotation: rot,
        mass: massEach,
      }));
    }
    case 'bowl': {
      const { radius: r, height: h, wall: w, segments: n } = part;
      const out: PrimitivePart[] = [];
      const massEach = part.mass === undefined ? undefined : part.mass / (n + 1);
      out.push({
        ...base,
        geometry: { shape: 'cylinder', radius: r - w, height: w },
        position: add(at, rotateEuler([0, -h / 2 + w / 2, 0], rot)),
        rotation: rot,
        mass: massEach,
      });
      // Wall segments are tangent boxes around the rim; their width closes the polygon.
      const segWidth = 2 * (r - w / 2) * Math.tan(Math.PI / n) + 0.002;
      for (let i = 0; i < n; i++) {
        const yaw = (360 * i) / n;
        const offset = rotateY([r - w / 2, 0, 0], yaw);
        out.push({
          ...base,
          geometry: { shape: 'box', size: [w, h, segWidth] },
          position: add(at, rotateEuler(offset, rot)),
          rotation: [rot[0], rot[1] + yaw, rot[2]],
          mass: massEach,
        });
      }
      return out;
    }
  }
}

function add(a: Vec3T, b: Vec3T): Vec3T {
  return [a[0] + b[0], a[1] + b[1], a[2] + b[2]];
}

/** Rotates v by XYZ Euler degrees (intrinsic X then Y then Z, matching quaternion order in the sim). */
export function rotateEuler(v: Vec3T, deg: Vec3T): Vec3T {
  const [rx, ry, rz] = deg.map((d) => (d * Math.PI) / 180) as Vec3T;
  let [x, y, z] = v;
  // Z
  [x, y] = [x * Math.cos(rz) - y * Math.sin(rz), x * Math.sin(rz) + y * Math.cos(rz)];
  // Y
  [x, z] = [x * Math.cos(ry) + z * Math.sin(ry), -x * Math.sin(ry) + z * Math.cos(ry)];
  // X
  [y, z] = [y * Math.cos(rx) - z * Math.sin(rx), y * Math.sin(rx) + z * Math.cos(rx)];
  return [x, y, z];
}

export function expandParts(parts: readonly Part[]): PrimitivePart[] {
  return parts.flatMap(expandPart);
}

/** Volume used to share a body's mass between its primitives. */
export function primitiveVolume(p: Primitive): number {
  switch (p.shape) {
    case 'box':
      return p.size[0] * p.size[1] * p.size[2];
    case 'sphere':
      return (4 / 3) * Math.PI * p.radius ** 3;
    case 'cylinder':
      return Math.PI * p.radius ** 2 * p.height;
    case 'capsule':
      return Math.PI * p.radius ** 2 * p.height + (4 / 3) * Math.PI * p.radius ** 3;
    case 'mesh':
      return meshVolume(p);
  }
}

/** Enclosed volume of a closed mesh (divergence theorem); an open one's bounding box volume instead. */
export function meshVolume(m: Pick<MeshPrimitive, 'positions' | 'indices'>): number {
  const P = m.positions;
  let v = 0;
  for (let t = 0; t + 2 < m.indices.length; t += 3) {
    const [a, b, c] = [m.indices[t]! * 3, m.indices[t + 1]! * 3, m.indices[t + 2]! * 3];
    v +=
      P[a]! * (P[b + 1]! * P[c + 2]! - P[b + 2]! * P[c + 1]!) -
      P[a + 1]! * (P[b]! * P[c + 2]! - P[b + 2]! * P[c]!) +
      P[a + 2]! * (P[b]! * P[c + 1]! - P[b + 1]! * P[c]!);
  }
  if (Math.abs(v / 6) > 0) return Math.abs(v / 6);
  const h = meshHalfExtents(m.positions);
  return 8 * h[0] * h[1] * h[2];
}

/** Half extents about the part origin (the larger side when the mesh is not centred). */
function meshHalfExtents(positions: readonly number[]): Vec3T {
  const h: Vec3T = [0, 0, 0];
  for (let i = 0; i < positions.length; i++) h[i % 3] = Math.max(h[i % 3]!, Math.abs(positions[i]!));
  return h;
}

/** Half extents of a primitive's axis-aligned box in its own frame. */
export function primitiveHalfExtents(p: Primitive): Vec3T {
  switch (p.shape) {
    case 'box':
      return [p.size[0] / 2, p.size[1] / 2, p.size[2] / 2];
    case 'sphere':
      return [p.radius, p.radius, p.radius];
    case 'cylinder':
      return [p.radius, p.height / 2, p.radius];
    case 'capsule':
      return [p.radius, p.height / 2 + p.radius, p.radius];
    case 'mesh':
      return meshHalfExtents(p.positions);
  }
}
