// The mesh readers of object types (GLB, glTF, STL binary and ASCII, OBJ),
// from generated meshes: a valid mesh written in each format reads back as the
// same triangles (the same corners in the same order), and any bytes at all,
// random or a valid file with bytes changed, either read or throw MeshError,
// never another error.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readTriangles, type Triangles } from '../../scenes/mesh-object/triangles';
import { MeshError } from '../../scenes/urdf/mesh';
import { asciiStl, binaryStl, glb, gltfInline, obj } from '../fixtures/meshes/encode';
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
});
