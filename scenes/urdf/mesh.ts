// Mesh files of robot descriptions as vertex arrays and triangles: STL (binary
// and ASCII) and OBJ (vertices and faces, polygons as fans; its materials and
// normals are not read: the app shades each face flat). Collision shapes are the
// convex hull of the points, which Rapier computes itself
// (ColliderDesc.convexHull); the app draws the triangles. A file that is neither
// is a MeshError saying what it is instead.

export interface MeshData {
  format: 'stl-binary' | 'stl-ascii' | 'obj';
  /** x, y, z of each vertex, in the file's units (URDF: metres, before the <mesh scale>). */
  positions: Float32Array;
  /** Three vertex indices per triangle (an STL's vertices are its triangles' corners in order). */
  indices: Uint32Array;
  triangles: number;
  min: [number, number, number];
  max: [number, number, number];
}

export class MeshError extends Error {
  override name = 'MeshError';
}

/** More vertices than a collision hull of a robot part needs: refused (the hull is built from them all). */
export const MAX_MESH_VERTICES = 3_000_000;

export type MeshFormat = 'stl' | 'obj' | 'dae' | 'other';

/** The format a mesh's file name says (case-insensitive extension). */
export function meshFormat(file: string): MeshFormat {
  const ext = /\.([A-Za-z0-9]+)$/.exec(file)?.[1]?.toLowerCase();
  return ext === 'stl' || ext === 'obj' || ext === 'dae' ? ext : 'other';
}

function finish(format: MeshData['format'], positions: Float32Array, indices: Uint32Array): MeshData {
  const triangles = indices.length / 3;
  if (positions.length === 0) throw new MeshError('the file has no vertices');
  const min: [number, number, number] = [Infinity, Infinity, Infinity];
  const max: [number, number, number] = [-Infinity, -Infinity, -Infinity];
  for (let i = 0; i < positions.length; i++) {
    const v = positions[i]!;
    if (!Number.isFinite(v)) throw new MeshError(`vertex ${Math.floor(i / 3)} is not finite`);
    const k = i % 3;
    if (v < min[k]!) min[k] = v;
    if (v > max[k]!) max[k] = v;
  }
  return { format, positions, indices, triangles, min, max };
}

/** 0, 1, 2, … : the indices of `n` triangles whose corners are listed in order. */
function corners(n: number): Uint32Array {
  const out = new Uint32Array(n * 3);
  for (let i = 0; i < out.length; i++) out[i] = i;
  return out;
}

function readBinaryStl(buf: Uint8Array): MeshData {
  const view = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
  const n = view.getUint32(80, true);
  if (n * 3 > MAX_MESH_VERTICES) throw new MeshError(`${n} triangles: more than ${MAX_MESH_VERTICES / 3} are not read`);
  const positions = new Float32Array(n * 9);
  for (let t = 0; t < n; t++) {
    const at = 84 + t * 50 + 12; // past the normal
    for (let k = 0; k < 9; k++) positions[t * 9 + k] = view.getFloat32(at + k * 4, true);
  }
  return finish('stl-binary', positions, corners(n));
}

function readAsciiStl(text: string): MeshData {
  const out: number[] = [];
  const vertex = /^\s*vertex\s+(\S+)\s+(\S+)\s+(\S+)/gm;
  for (let m = vertex.exec(text); m; m = vertex.exec(text)) {
    out.push(Number(m[1]), Number(m[2]), Number(m[3]));
    if (out.length > MAX_MESH_VERTICES * 3) throw new MeshError(`more than ${MAX_MESH_VERTICES} vertices are not read`);
  }
  if (out.length % 9 !== 0) throw new MeshError('a facet does not have three vertices');
  return finish('stl-ascii', Float32Array.from(out), corners(out.length / 9));
}

/** Reads an STL file, binary or ASCII (an ASCII one starts with "solid" and has facets; a binary one has its size). */
export function readStl(buf: Uint8Array): MeshData {
  if (buf.byteLength >= 84) {
    const n = new DataView(buf.buffer, buf.byteOffset, buf.byteLength).getUint32(80, true);
    if (84 + n * 50 === buf.byteLength) return readBinaryStl(buf);
  }
  const head = new TextDecoder().decode(buf.subarray(0, Math.min(buf.byteLength, 512)));
  if (/^\s*solid\b/.test(head)) return readAsciiStl(new TextDecoder().decode(buf));
  throw new MeshError(
    buf.byteLength >= 84
      ? `not an STL file: a binary STL of ${new DataView(buf.buffer, buf.byteOffset).getUint32(80, true)} triangles has ${84 + new DataView(buf.buffer, buf.byteOffset).getUint32(80, true) * 50} bytes, this one ${buf.byteLength}`
      : 'not an STL file: too short for a binary STL and no "solid" header',
  );
}

/** Reads an OBJ file's vertices (`v x y z`) and faces as triangles (`f a b c d` is two, a fan from `a`). */
export function readObj(text: string): MeshData {
  const out: number[] = [];
  const faces: number[] = [];
  let line = 0;
  for (const raw of text.split('\n')) {
    line++;
    const words = raw.trim().split(/\s+/);
    if (words[0] === 'v') {
      if (words.length < 4) throw new MeshError(`line ${line}: a vertex needs x y z`);
      out.push(Number(words[1]), Number(words[2]), Number(words[3]));
      if (out.length > MAX_MESH_VERTICES * 3) throw new MeshError(`more than ${MAX_MESH_VERTICES} vertices are not read`);
    } else if (words[0] === 'f') {
      if (words.length < 4) throw new MeshError(`line ${line}: a face needs three vertices`);
      const vertices = out.length / 3;
      const corner = words.slice(1).map((w) => {
        const i = parseInt(w, 10);
        if (!Number.isInteger(i) || i === 0 || (i > 0 ? i > vertices : -i > vertices))
          throw new MeshError(`line ${line}: face vertex "${w}" is not one of the ${vertices} vertices before it`);
        // OBJ counts from 1; a negative index counts back from the last vertex read.
        return i > 0 ? i - 1 : vertices + i;
      });
      for (let k = 1; k + 1 < corner.length; k++) faces.push(corner[0]!, corner[k]!, corner[k + 1]!);
    }
  }
  return finish('obj', Float32Array.from(out), Uint32Array.from(faces));
}

/** The mesh in `bytes`, read as its file name's format says. */
export function readMesh(file: string, bytes: Uint8Array): MeshData {
  const f = meshFormat(file);
  if (f === 'stl') return readStl(bytes);
  if (f === 'obj') return readObj(new TextDecoder().decode(bytes));
  throw new MeshError(f === 'dae' ? 'COLLADA (.dae) is not supported' : 'not a mesh format this reads (STL or OBJ)');
}

/** Whether the points span no volume (all on one plane along an axis): no convex hull can be made of them. */
export function isFlat(m: MeshData): boolean {
  const size = m.max.map((v, k) => v - m.min[k]!);
  return Math.min(...size) <= 1e-9 * Math.max(1e-9, ...size);
}
