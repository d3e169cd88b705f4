// The mesh readers of object types (GLB, glTF, STL binary and ASCII, OBJ),
// from generated meshes: a valid mesh written in each format reads back as the
// same triangles (the same corners in the same order), and any bytes at all,
// random or a valid file with bytes changed, either read or throw MeshError,
// never another error.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readTriangles, type Triangles } from '../../scenes/mesh-object/triangles';
import { MeshError } from '../../scenes/urdf/mesh';
import { asciiStl, binaryStl, glb, gltfInline, gltfParts, obj } from '../fixtures/meshes/encode';
import type { TestMesh } from '../fixtures/meshes/shapes';
import { fuzzRuns, fuzzSeed } from './support/budget';

const coord = fc.float({ noNaN: true, noDefaultInfinity: true, min: -1000, max: 1000 }).map((v) => v + 0);

const mesh: fc.Arbitrary<TestMesh> = fc.integer({ min: 3, max: 30 }).chain((n) =>
  fc.record({
    positions: fc.array(coord, { minLength: n * 3, maxLength: n * 3 }),
    indices: fc.array(fc.tuple(fc.nat(n - 1), fc.nat(n - 1), fc.nat(n - 1)), { minLength: 1, maxLength: 40 }).map((t) => t.flat()),
  }),
);

/** The corners of every triangle, in order: what a mesh is, whatever its vertex numbering. */
function corners(t: Triangles | TestMesh): number[] {
  return t.indices.flatMap((i) => [0, 1, 2].map((k) => t.positions[i * 3 + k]! + 0));
}

const WRITERS: Array<[string, (m: TestMesh) => Uint8Array]> = [
  ['m.glb', (m) => glb(m)],
  ['m.gltf', (m) => new TextEncoder().encode(gltfInline(m))],
  ['m.stl', (m) => binaryStl(m)],
  ['m.stl', (m) => new TextEncoder().encode(asciiStl(m))],
  ['m.obj', (m) => new TextEncoder().encode(obj(m))],
];

function readsOrMeshError(file: string, bytes: Uint8Array): void {
  try {
    readTriangles(file, bytes, () => {
      throw new MeshError('no buffer files here');
    });
  } catch (e) {
    if (!(e instanceof MeshError)) throw e;
  }
}

describe('mesh object readers', () => {
  it('a generated mesh written as GLB, glTF, binary STL, ASCII STL and OBJ reads back as the same triangles', () => {
    fc.assert(
      fc.property(mesh, (m) => {
        for (const [file, write] of WRITERS) expect(corners(readTriangles(file, write(m)))).toEqual(corners(m));
      }),
      { numRuns: fuzzRuns(60), seed: fuzzSeed(4711) },
    );
  });

  it('random bytes, and valid files with bytes changed, read or throw MeshError only', () => {
    const ext = fc.constantFrom('x.glb', 'x.gltf', 'x.stl', 'x.obj', 'x.ply');
    fc.assert(
      fc.property(ext, fc.uint8Array({ maxLength: 600 }), (file, bytes) => readsOrMeshError(file, bytes)),
      { numRuns: fuzzRuns(300), seed: fuzzSeed(4712) },
    );
    const edits = fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })), { minLength: 1, maxLength: 8 });
    fc.assert(
      fc.property(mesh, fc.nat(WRITERS.length - 1), edits, (m, w, changes) => {
        const [file, write] = WRITERS[w]!;
        const bytes = write(m);
        for (const [at, v] of changes) bytes[at % bytes.length] = v;
        readsOrMeshError(file, bytes);
      }),
      { numRuns: fuzzRuns(300), seed: fuzzSeed(4713) },
    );
  });

  it('a valid glTF with one field replaced by any JSON value reads or throws MeshError only', () => {
    /** Every [object, key] pair in a JSON tree: the places a field can be replaced. */
    const slots = (v: unknown, out: Array<[Record<string, unknown> | unknown[], string | number]> = []) => {
      if (v && typeof v === 'object')
        for (const [k, x] of Object.entries(v)) {
          out.push([v as Record<string, unknown>, Array.isArray(v) ? Number(k) : k]);
          slots(x, out);
        }
      return out;
    };
    const odd = fc.oneof(
      fc.jsonValue({ maxDepth: 2 }),
      fc.constantFrom(-1, 0, 1, 2, 3, 4, 5, 4294967295, 1e300, 0.5, 5121, 5123, 5125, 5126, 'VEC3', 'SCALAR', 'MAT4', null),
    );
    fc.assert(
      fc.property(mesh, fc.nat(), odd, fc.boolean(), (m, pick, value, binary) => {
        const { json, bin } = gltfParts(m, { translation: [0, 0, 0] });
        const all = slots(json);
        const [holder, key] = all[pick % all.length]!;
        (holder as Record<string | number, unknown>)[key] = value;
        if (binary) {
          readsOrMeshError('x.glb', glbOf(json, bin));
        } else {
          const buffers = json['buffers'];
          if (Array.isArray(buffers) && buffers[0] && typeof buffers[0] === 'object' && !('uri' in buffers[0]))
            (buffers[0] as Record<string, unknown>)['uri'] = `data:;base64,${Buffer.from(bin).toString('base64')}`;
          readsOrMeshError('x.gltf', new TextEncoder().encode(JSON.stringify(json)));
        }
      }),
      { numRuns: fuzzRuns(400), seed: fuzzSeed(4714) },
    );
  });
});

/** A GLB of this JSON and BIN chunk. */
function glbOf(json: unknown, bin: Uint8Array): Uint8Array {
  const j = new TextEncoder().encode(JSON.stringify(json).padEnd(Math.ceil(JSON.stringify(json).length / 4) * 4, ' '));
  const b = new Uint8Array(Math.ceil(bin.byteLength / 4) * 4);
  b.set(bin);
  const out = new Uint8Array(28 + j.byteLength + b.byteLength);
  const v = new DataView(out.buffer);
  v.setUint32(0, 0x46546c67, true);
  v.setUint32(4, 2, true);
  v.setUint32(8, out.byteLength, true);
  v.setUint32(12, j.byteLength, true);
  v.setUint32(16, 0x4e4f534a, true);
  out.set(j, 20);
  v.setUint32(20 + j.byteLength, b.byteLength, true);
  v.setUint32(24 + j.byteLength, 0x004e4942, true);
  out.set(b, 28 + j.byteLength);
  return out;
}
