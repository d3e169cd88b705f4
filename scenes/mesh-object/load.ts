// Object types a scene file makes from mesh files (Node only: reads files). A
// mesh is named relative to the scene file and must lie in its folder or below
// (the scene file is what the host allowed; its folder is what it brings along).
// The triangles are turned, scaled and centred on their bounding box, so the
// object's origin is the middle of the mesh; every problem names the field and
// the file.
import path from 'node:path';
import { UserFileError, readUserBytesSync } from '../../base/user-file';
import type { MeshType, ObjectType, Scene } from '../schema';
import { rotateEuler, type Vec3T } from '../shapes';
import { MeshError } from '../urdf/mesh';
import { MESH_OBJECT_MAX_VERTICES, type Triangles } from './mesh-math';
import type { MeshPart } from './part';
import { readTriangles } from './triangles';

/** Largest mesh file read. */
export const MESH_FILE_MAX_BYTES = 64 * 1024 * 1024;

/** A path inside `folder`, or a sentence saying why not. */
function inside(folder: string, ref: string): string {
  if (path.isAbsolute(ref) || /^[a-z][a-z0-9+.-]*:/i.test(ref)) throw new MeshError(`"${ref}" must be a path relative to the scene file`);
  const full = path.resolve(folder, ref);
  const rel = path.relative(folder, full);
  if (rel.startsWith('..') || path.isAbsolute(rel)) throw new MeshError(`"${ref}" lies outside the scene file's folder`);
  return full;
}

function readBytes(file: string): Uint8Array {
  try {
    return readUserBytesSync(file, { maxBytes: MESH_FILE_MAX_BYTES });
  } catch (e) {
    if (e instanceof UserFileError) throw new MeshError(e.reason);
    throw e;
  }
}

/** Whether every point lies on one plane (or line): such a mesh encloses nothing. */
function flat(p: readonly number[]): boolean {
  const n = p.length / 3;
  const at = (i: number): Vec3T => [p[i * 3]!, p[i * 3 + 1]!, p[i * 3 + 2]!];
  const sub = (a: Vec3T, b: Vec3T): Vec3T => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
  const cross = (a: Vec3T, b: Vec3T): Vec3T => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
  const len = (a: Vec3T): number => Math.hypot(...a);
  const o = at(0);
  let span = 0;
  for (let i = 1; i < n; i++) span = Math.max(span, len(sub(at(i), o)));
  if (span === 0) return true;
  const eps = 1e-9 * span;
  let far = 0;
  for (let i = 1; i < n; i++) if (len(sub(at(i), o)) > len(sub(at(far), o))) far = i;
  const u = sub(at(far), o);
  let normal: Vec3T | undefined;
  for (let i = 1; i < n && !normal; i++) {
    const c = cross(u, sub(at(i), o));
    if (len(c) > eps * span) normal = c;
  }
  if (!normal) return true;
  const nl = len(normal);
  for (let i = 1; i < n; i++) {
    const d = sub(at(i), o);
    if (Math.abs(d[0] * normal[0] + d[1] * normal[1] + d[2] * normal[2]) / nl > eps) return false;
  }
  return true;
}

/** Checks the triangles and moves them into the body frame. */
export function shapeTriangles(t: Triangles, scale: number | readonly [number, number, number], rotation: Vec3T | undefined): Triangles {
  const n = t.positions.length / 3;
  if (n === 0 || t.indices.length === 0) throw new MeshError('it has no triangles');
  if (n > MESH_OBJECT_MAX_VERTICES) throw new MeshError(`${n} vertices; at most ${MESH_OBJECT_MAX_VERTICES} (simplify the mesh)`);
  if (t.indices.length > MESH_OBJECT_MAX_VERTICES * 6)
    throw new MeshError(`${t.indices.length / 3} triangles; at most ${MESH_OBJECT_MAX_VERTICES * 2} (simplify the mesh)`);
  for (const i of t.indices) if (!(i >= 0 && i < n)) throw new MeshError(`a triangle names vertex ${i}, beyond the ${n} vertices`);
  const s = typeof scale === 'number' ? [scale, scale, scale] : scale;
  const out: number[] = new Array<number>(t.positions.length);
  const min = [Infinity, Infinity, Infinity];
  const max = [-Infinity, -Infinity, -Infinity];
  for (let i = 0; i < n; i++) {
    const raw: Vec3T = [t.positions[i * 3]!, t.positions[i * 3 + 1]!, t.positions[i * 3 + 2]!];
    if (!raw.every(Number.isFinite)) throw new MeshError(`vertex ${i} is not finite (${raw.join(', ')})`);
    const r = rotation ? rotateEuler(raw, rotation) : raw;
    for (let k = 0; k < 3; k++) {
      const v = r[k]! * s[k]!;
      out[i * 3 + k] = v;
      min[k] = Math.min(min[k]!, v);
      max[k] = Math.max(max[k]!, v);
    }
  }
  if (flat(out)) throw new MeshError('it has zero volume: every vertex lies on one plane');
  const c = [0, 1, 2].map((k) => (min[k]! + max[k]!) / 2);
  for (let i = 0; i < out.length; i++) out[i] = out[i]! - c[i % 3]!;
  return { positions: out, indices: [...t.indices] };
}

function meshObjectType(m: MeshType, field: string, folder: string): ObjectType {
  const file = inside(folder, m.mesh);
  const dir = path.dirname(file);
  const raw = readTriangles(file, readBytes(file), (uri) => readBytes(inside(dir, uri)));
  const t = shapeTriangles(raw, m.scale, m.rotation);
  const part: MeshPart = {
    shape: 'mesh',
    positions: t.positions,
    indices: t.indices,
    collision: m.collision,
    maxParts: m.maxParts,
    origin: `${field} (${m.mesh})`,
  };
  const { mesh: _mesh, scale: _scale, rotation: _rotation, collision: _collision, maxParts: _maxParts, ...rest } = m;
  return { ...rest, parts: [part] };
}

/** The scene's mesh types as object types, or a SceneDataError-ready list of problems. */
export function loadMeshTypes(scene: Scene, sceneFile: string): { types: Map<string, ObjectType>; problems: string[] } {
  const folder = path.dirname(path.resolve(sceneFile));
  const types = new Map<string, ObjectType>();
  const problems: string[] = [];
  scene.types.forEach((m, i) => {
    const field = `types[${i}].mesh`;
    try {
      types.set(m.type, meshObjectType(m, field, folder));
    } catch (e) {
      if (!(e instanceof MeshError)) throw e;
      problems.push(`${field} (${m.mesh}): ${e.message}`);
    }
  });
  return { types, problems };
}
