// Triangle lists and the small matrix algebra the mesh readers share: glTF node
// transforms, joining primitives, welding STL's repeated vertices.
import { MeshError } from '../urdf/mesh';

export interface Triangles {
  /** x, y, z per vertex. */
  positions: number[];
  /** Three vertex indices per triangle. */
  indices: number[];
}

/** Column-major 4×4 matrix, as glTF writes it. */
export type Mat4 = number[];

/** Most vertices a mesh object may have: what one drawn mesh may carry (contract/schemas.ts MESH_MAX_VERTICES). */
export const MESH_OBJECT_MAX_VERTICES = 65_536;

export function identity(): Mat4 {
  return [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1];
}

export function mul(a: Mat4, b: Mat4): Mat4 {
  const out = new Array<number>(16).fill(0);
  for (let c = 0; c < 4; c++) for (let r = 0; r < 4; r++) for (let k = 0; k < 4; k++) out[c * 4 + r]! += a[k * 4 + r]! * b[c * 4 + k]!;
  return out;
}

/** Translation, rotation (quaternion x, y, z, w) and scale as one matrix (glTF's T·R·S). */
export function trs(t = [0, 0, 0], q = [0, 0, 0, 1], s = [1, 1, 1]): Mat4 {
  const [x, y, z, w] = q as [number, number, number, number];
  const r = [
    1 - 2 * (y * y + z * z),
    2 * (x * y + z * w),
    2 * (x * z - y * w),
    2 * (x * y - z * w),
    1 - 2 * (x * x + z * z),
    2 * (y * z + x * w),
    2 * (x * z + y * w),
    2 * (y * z - x * w),
    1 - 2 * (x * x + y * y),
  ];
  return [
    r[0]! * s[0]!,
    r[1]! * s[0]!,
    r[2]! * s[0]!,
    0,
    r[3]! * s[1]!,
    r[4]! * s[1]!,
    r[5]! * s[1]!,
    0,
    r[6]! * s[2]!,
    r[7]! * s[2]!,
    r[8]! * s[2]!,
    0,
    t[0]!,
    t[1]!,
    t[2]!,
    1,
  ];
}

/** Appends triangles to `out`, their positions moved by `m`. */
export function transformInto(out: Triangles, pos: ArrayLike<number>, idx: ArrayLike<number>, m: Mat4): void {
  const base = out.positions.length / 3;
  if (base + pos.length / 3 > MESH_OBJECT_MAX_VERTICES * 4)
    throw new MeshError(`more than ${MESH_OBJECT_MAX_VERTICES * 4} vertices are not read`);
  for (let i = 0; i < pos.length; i += 3) {
    const [x, y, z] = [pos[i]!, pos[i + 1]!, pos[i + 2]!];
    for (let r = 0; r < 3; r++) out.positions.push(m[r]! * x + m[4 + r]! * y + m[8 + r]! * z + m[12 + r]!);
  }
  for (let i = 0; i < idx.length; i++) out.indices.push(base + idx[i]!);
}

/** Vertices at the same place become one (STL repeats each vertex per facet). */
export function weld(t: Triangles): Triangles {
  const ids = new Map<string, number>();
  const remap: number[] = [];
  const positions: number[] = [];
  for (let i = 0; i < t.positions.length; i += 3) {
    const key = `${t.positions[i]},${t.positions[i + 1]},${t.positions[i + 2]}`;
    let id = ids.get(key);
    if (id === undefined) {
      id = positions.length / 3;
      ids.set(key, id);
      positions.push(t.positions[i]!, t.positions[i + 1]!, t.positions[i + 2]!);
    }
    remap.push(id);
  }
  return { positions, indices: t.indices.map((i) => remap[i]!) };
}
