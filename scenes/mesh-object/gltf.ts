// Triangles of a glTF 2.0 asset: a binary .glb (JSON and BIN chunks) or a .gltf
// (JSON whose buffers are data: URIs or files beside it). Only what a collision
// shape and a flat-shaded picture need is read: POSITION (FLOAT VEC3), indices
// (UNSIGNED_BYTE/SHORT/INT) of triangle primitives, and the node transforms of
// the default scene. Anything else that would change the shape (sparse
// accessors, compression extensions, strips) is refused by name.
import { MeshError } from '../urdf/mesh';
import { type Triangles, type Mat4, identity, mul, trs, transformInto } from './mesh-math';

/** Reads a buffer a .gltf names by a relative URI (the loader checks where it may read). */
export type BufferFiles = (uri: string) => Uint8Array;

const GLB_MAGIC = 0x46546c67;
const CHUNK_JSON = 0x4e4f534a;
const CHUNK_BIN = 0x004e4942;
const FLOAT = 5126;
const INDEX_SIZES: Record<number, number> = { 5121: 1, 5123: 2, 5125: 4 };

/** Deeper node nesting is refused rather than walked (no real asset comes near it). */
const MAX_NODE_DEPTH = 256;

type Json = Record<string, unknown>;

function obj(v: unknown, what: string): Json {
  if (!v || typeof v !== 'object' || Array.isArray(v)) throw new MeshError(`${what} is not an object`);
  return v as Json;
}

function arr(v: unknown, what: string): unknown[] {
  if (v === undefined) return [];
  if (!Array.isArray(v)) throw new MeshError(`${what} is not an array`);
  return v;
}

function int(v: unknown, what: string, dflt?: number): number {
  if (v === undefined && dflt !== undefined) return dflt;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 0) throw new MeshError(`${what} is not a non-negative integer`);
  return v;
}

function nums(v: unknown, n: number, what: string): number[] | undefined {
  if (v === undefined) return undefined;
  if (!Array.isArray(v) || v.length !== n || !v.every((x) => typeof x === 'number' && Number.isFinite(x)))
    throw new MeshError(`${what} is not ${n} finite numbers`);
  return v as number[];
}

function item(list: unknown[], i: number, what: string): Json {
  if (i >= list.length) throw new MeshError(`${what} ${i} does not exist (there are ${list.length})`);
  return obj(list[i], `${what} ${i}`);
}

function decodeDataUri(uri: string): Uint8Array {
  const m = /^data:[^,]*?;base64,(.*)$/s.exec(uri);
  if (!m) throw new MeshError('a data: URI buffer must be base64');
  let text: string;
  try {
    text = atob(m[1]!.replace(/\s+/g, ''));
  } catch {
    throw new MeshError('a data: URI buffer is not valid base64');
  }
  return Uint8Array.from(text, (c) => c.charCodeAt(0));
}

class Reader {
  private readonly buffers: Uint8Array[];
  private readonly accessors: unknown[];
  private readonly views: unknown[];
  constructor(
    private readonly json: Json,
    bin: Uint8Array | undefined,
    files: BufferFiles | undefined,
  ) {
    const required = arr(json['extensionsRequired'], 'extensionsRequired');
    if (required.length) throw new MeshError(`needs the extension ${String(required[0])}, which is not read; export without it`);
    this.buffers = arr(json['buffers'], 'buffers').map((b, i) => {
      const uri = obj(b, `buffer ${i}`)['uri'];
      if (uri === undefined) {
        if (!bin) throw new MeshError(`buffer ${i} has no uri and there is no BIN chunk`);
        return bin;
      }
      if (typeof uri !== 'string') throw new MeshError(`buffer ${i}: uri is not text`);
      if (uri.startsWith('data:')) return decodeDataUri(uri);
      if (!files) throw new MeshError(`buffer ${i} names the file "${uri}"; a .glb carries its buffer inside`);
      let name: string;
      try {
        name = decodeURIComponent(uri);
      } catch {
        throw new MeshError(`buffer ${i}: "${uri}" is not a valid URI`);
      }
      return files(name);
    });
    this.accessors = arr(json['accessors'], 'accessors');
    this.views = arr(json['bufferViews'], 'bufferViews');
  }

  /** The bytes of an accessor: its view, offset, element size and stride, all inside the buffer. */
  private span(a: Json, i: number, elementBytes: number): { data: DataView; at: (k: number) => number } {
    if (a['sparse'] !== undefined) throw new MeshError(`accessor ${i} is sparse, which is not read`);
    const count = int(a['count'], `accessor ${i} count`);
    const view = item(this.views, int(a['bufferView'], `accessor ${i} bufferView`), 'bufferView');
    const buf = this.buffers[int(view['buffer'], 'bufferView buffer')];
    if (!buf) throw new MeshError(`accessor ${i}: its bufferView names a buffer that does not exist`);
    const viewOffset = int(view['byteOffset'], 'bufferView byteOffset', 0);
    const viewLength = int(view['byteLength'], 'bufferView byteLength');
    const stride = int(view['byteStride'], 'bufferView byteStride', elementBytes) || elementBytes;
    const offset = int(a['byteOffset'], `accessor ${i} byteOffset`, 0);
    const end = count === 0 ? offset : offset + (count - 1) * stride + elementBytes;
    if (viewOffset + viewLength > buf.byteLength || end > viewLength)
      throw new MeshError(`accessor ${i} reaches past the end of its buffer`);
    const data = new DataView(buf.buffer, buf.byteOffset + viewOffset, viewLength);
    return { data, at: (k) => offset + k * stride };
  }

  positions(i: number): Float32Array {
    const a = item(this.accessors, i, 'accessor');
    if (a['type'] !== 'VEC3' || a['componentType'] !== FLOAT) throw new MeshError(`accessor ${i}: POSITION must be FLOAT VEC3`);
    const count = int(a['count'], `accessor ${i} count`);
    const { data, at } = this.span(a, i, 12);
    const out = new Float32Array(count * 3);
    for (let k = 0; k < count; k++) for (let c = 0; c < 3; c++) out[k * 3 + c] = data.getFloat32(at(k) + c * 4, true);
    return out;
  }

  indices(i: number, vertices: number): Uint32Array {
    const a = item(this.accessors, i, 'accessor');
    const size = INDEX_SIZES[a['componentType'] as number];
    if (a['type'] !== 'SCALAR' || !size)
      throw new MeshError(`accessor ${i}: indices must be UNSIGNED_BYTE, UNSIGNED_SHORT or UNSIGNED_INT`);
    const count = int(a['count'], `accessor ${i} count`);
    const { data, at } = this.span(a, i, size);
    const out = new Uint32Array(count);
    for (let k = 0; k < count; k++) {
      const v = size === 1 ? data.getUint8(at(k)) : size === 2 ? data.getUint16(at(k), true) : data.getUint32(at(k), true);
      if (v >= vertices) throw new MeshError(`accessor ${i}: index ${v} is beyond the ${vertices} vertices`);
      out[k] = v;
    }
    return out;
  }

  /** Adds mesh `m`'s triangle primitives to `out`, transformed by `world`. */
  mesh(m: number, world: Mat4, out: Triangles): void {
    const mesh = item(arr(this.json['meshes'], 'meshes'), m, 'mesh');
    arr(mesh['primitives'], `mesh ${m} primitives`).forEach((raw, p) => {
      const prim = obj(raw, `mesh ${m} primitive ${p}`);
      const mode = int(prim['mode'], `mesh ${m} primitive ${p} mode`, 4);
      if (mode !== 4) throw new MeshError(`mesh ${m} primitive ${p} has mode ${mode}; only triangles (mode 4) are read`);
      const attrs = obj(prim['attributes'], `mesh ${m} primitive ${p} attributes`);
      const pos = this.positions(int(attrs['POSITION'], `mesh ${m} primitive ${p} POSITION`));
      const n = pos.length / 3;
      const idx =
        prim['indices'] === undefined
          ? Uint32Array.from({ length: n - (n % 3) }, (_, k) => k)
          : this.indices(int(prim['indices'], 'indices'), n);
      if (idx.length % 3) throw new MeshError(`mesh ${m} primitive ${p}: ${idx.length} indices is not whole triangles`);
      transformInto(out, pos, idx, world);
    });
  }
}

function nodeMatrix(n: Json, i: number): Mat4 {
  const m = nums(n['matrix'], 16, `node ${i} matrix`);
  if (m) return m as Mat4;
  return trs(
    nums(n['translation'], 3, `node ${i} translation`),
    nums(n['rotation'], 4, `node ${i} rotation`),
    nums(n['scale'], 3, `node ${i} scale`),
  );
}

function readJson(json: Json, bin: Uint8Array | undefined, files: BufferFiles | undefined): Triangles {
  const asset = obj(json['asset'], 'asset');
  if (typeof asset['version'] !== 'string' || !asset['version'].startsWith('2.')) throw new MeshError('not glTF 2.0 (asset.version)');
  const r = new Reader(json, bin, files);
  const out: Triangles = { positions: [], indices: [] };
  const nodes = arr(json['nodes'], 'nodes');
  const scenes = arr(json['scenes'], 'scenes');
  if (!nodes.length) {
    arr(json['meshes'], 'meshes').forEach((_, m) => r.mesh(m, identity(), out));
    return out;
  }
  let roots: number[];
  if (scenes.length) {
    const s = item(scenes, int(json['scene'], 'scene', 0), 'scene');
    roots = arr(s['nodes'], 'scene nodes').map((v) => int(v, 'scene node'));
  } else {
    const children = new Set(nodes.flatMap((n, i) => arr(obj(n, `node ${i}`)['children'], `node ${i} children`)));
    roots = nodes.map((_, i) => i).filter((i) => !children.has(i));
  }
  const visiting = new Set<number>();
  const walk = (i: number, parent: Mat4): void => {
    if (visiting.has(i)) throw new MeshError(`node ${i} is its own ancestor`);
    if (visiting.size >= MAX_NODE_DEPTH) throw new MeshError(`nodes are nested more than ${MAX_NODE_DEPTH} deep`);
    visiting.add(i);
    const n = item(nodes, i, 'node');
    const world = mul(parent, nodeMatrix(n, i));
    if (n['mesh'] !== undefined) r.mesh(int(n['mesh'], `node ${i} mesh`), world, out);
    for (const c of arr(n['children'], `node ${i} children`)) walk(int(c, `node ${i} child`), world);
    visiting.delete(i);
  };
  for (const root of roots) walk(root, identity());
  return out;
}

function parseJsonText(bytes: Uint8Array): Json {
  let v: unknown;
  try {
    v = JSON.parse(new TextDecoder().decode(bytes));
  } catch (e) {
    throw new MeshError(`its JSON is not valid: ${(e as Error).message}`);
  }
  return obj(v, 'the glTF JSON');
}

/** A binary glTF: header, a JSON chunk, then an optional BIN chunk. */
export function readGlb(bytes: Uint8Array): Triangles {
  if (bytes.byteLength < 20) throw new MeshError('not a GLB file: shorter than its header');
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (view.getUint32(0, true) !== GLB_MAGIC) throw new MeshError('not a GLB file: it does not start with "glTF"');
  if (view.getUint32(4, true) !== 2) throw new MeshError(`GLB version ${view.getUint32(4, true)}; only version 2 is read`);
  const length = Math.min(view.getUint32(8, true), bytes.byteLength);
  let json: Json | undefined;
  let bin: Uint8Array | undefined;
  for (let at = 12; at + 8 <= length;) {
    const size = view.getUint32(at, true);
    const type = view.getUint32(at + 4, true);
    if (at + 8 + size > length) throw new MeshError('a GLB chunk reaches past the end of the file');
    const data = bytes.subarray(at + 8, at + 8 + size);
    if (type === CHUNK_JSON && !json) json = parseJsonText(data);
    else if (type === CHUNK_BIN && !bin) bin = data;
    at += 8 + size + ((4 - (size % 4)) % 4);
  }
  if (!json) throw new MeshError('a GLB file without its JSON chunk');
  return readJson(json, bin, undefined);
}

/** A .gltf JSON file; `files` reads the buffers it names beside it. */
export function readGltf(bytes: Uint8Array, files?: BufferFiles): Triangles {
  return readJson(parseJsonText(bytes), undefined, files);
}
