// Mesh readers and the XML reader: generated meshes written as binary STL, ASCII
// STL and OBJ read back to the same points; generated element trees read back
// as written; arbitrary bytes and text end in MeshError / XmlError, nothing else.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fuzzRuns, fuzzSeed } from '../../test/fuzz/support/budget';
import { MeshError, isFlat, meshFormat, readMesh } from './mesh';
import { type XmlElement, XmlError, parseXml } from './xml';

const coord = fc.float({ min: -10, max: 10, noNaN: true, noDefaultInfinity: true }).map((v) => (v === 0 ? 0 : Math.fround(v))); // -0 prints as 0 in text formats
const triangles = fc.array(fc.array(coord, { minLength: 9, maxLength: 9 }), { minLength: 1, maxLength: 30 });

function binaryStl(tris: number[][]): Uint8Array {
  const buf = Buffer.alloc(84 + tris.length * 50);
  buf.writeUInt32LE(tris.length, 80);
  tris.forEach((t, k) => t.forEach((v, i) => buf.writeFloatLE(v, 84 + k * 50 + 12 + i * 4)));
  return buf;
}
const asciiStl = (tris: number[][]) =>
  `solid x\n${tris.map((t) => `facet normal 0 0 0\nouter loop\n${[0, 3, 6].map((i) => ` vertex ${t.slice(i, i + 3).join(' ')}\n`).join('')}endloop\nendfacet\n`).join('')}endsolid x\n`;
const obj = (tris: number[][]) =>
  `${tris.flatMap((t) => [0, 3, 6].map((i) => `v ${t.slice(i, i + 3).join(' ')}`)).join('\n')}\n${tris.map((_, k) => `f ${3 * k + 1} ${3 * k + 2} -${3 * (tris.length - k) - 2}`).join('\n')}\n`;

describe('meshes', () => {
  it('binary STL, ASCII STL and OBJ of the same triangles read to the same points', () => {
    fc.assert(
      fc.property(triangles, (tris) => {
        const flat = tris.flat();
        for (const [file, bytes] of [
          ['a.stl', binaryStl(tris)],
          ['a.STL', new TextEncoder().encode(asciiStl(tris))],
          ['a.obj', new TextEncoder().encode(obj(tris))],
        ] as const) {
          const m = readMesh(file, bytes);
          expect([...m.positions], file).toEqual(flat);
          expect(m.triangles, file).toBe(tris.length);
          // The triangles drawn are the ones written: each index names the corner it was written as.
          const corners = [...m.indices].flatMap((i) => [...m.positions.subarray(i * 3, i * 3 + 3)]);
          expect(corners, file).toEqual(flat);
        }
      }),
      { numRuns: fuzzRuns(100), seed: fuzzSeed(39) },
    );
  });

  it("an OBJ's polygons are fans of triangles over shared vertices, with v/vt/vn corners and negative indices", () => {
    const m = readMesh(
      'q.obj',
      new TextEncoder().encode('v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nv 0 0 1\nf 1/1/1 2/2/2 3/3/3 4/4/4\nf -5 -4 -1\n'),
    );
    expect([...m.indices]).toEqual([0, 1, 2, 0, 2, 3, 0, 1, 4]);
    expect(m.triangles).toBe(3);
  });

  it('arbitrary bytes are a MeshError or a mesh, never another exception', () => {
    fc.assert(
      fc.property(fc.constantFrom('x.stl', 'x.obj'), fc.uint8Array({ maxLength: 400 }), (file, bytes) => {
        try {
          readMesh(file, bytes);
        } catch (e) {
          expect(e).toBeInstanceOf(MeshError);
        }
      }),
      { numRuns: fuzzRuns(500), seed: fuzzSeed(39) },
    );
  });

  it('says what is wrong: DAE, other formats, a face naming a vertex that is not there, a flat mesh', () => {
    expect(meshFormat('package://p/m/Arm.DAE')).toBe('dae');
    expect(() => readMesh('a.dae', new Uint8Array())).toThrow(/COLLADA \(.dae\) is not supported/);
    expect(() => readMesh('a.ply', new Uint8Array())).toThrow(/STL or OBJ/);
    expect(() => readMesh('a.obj', new TextEncoder().encode('v 0 0 0\nf 1 2 3\n'))).toThrow(/line 2: face vertex "2"/);
    expect(() => readMesh('a.stl', new TextEncoder().encode('not a mesh'))).toThrow(/not an STL file/);
    expect(isFlat(readMesh('a.obj', new TextEncoder().encode('v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n')))).toBe(true);
  });
});

const name = fc.stringMatching(/^[a-z][a-z0-9_:]{0,6}$/);
const text = fc
  .string({ maxLength: 12 })
  .filter((s) => s.trim() !== '' && !/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ud800-\udfff\ufffe\uffff]/.test(s));
const escape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&quot;');
type Tree = { name: string; attrs: Record<string, string>; children: Array<Tree | string> };
const tree: fc.Arbitrary<Tree> = fc.letrec<{ t: Tree }>((tie) => ({
  t: fc.record({
    name,
    attrs: fc.dictionary(
      name,
      fc.string({ maxLength: 8 }).filter((s) => !/[\u0000-\u001f\ud800-\udfff]/.test(s)),
      { maxKeys: 3 },
    ),
    children: fc.array(fc.oneof({ maxDepth: 3 }, text, tie('t')), { maxLength: 3 }),
  }),
})).t;
const write = (t: Tree): string =>
  `<${t.name}${Object.entries(t.attrs)
    .map(([k, v]) => ` ${k}="${escape(v)}"`)
    .join('')}>${t.children.map((c) => (typeof c === 'string' ? escape(c) : write(c))).join('<!-- c -->')}</${t.name}>`;
const strip = (e: XmlElement): Tree => ({
  name: e.name,
  attrs: { ...e.attrs },
  children: e.children.map((c) => ('name' in c ? strip(c) : c.text)),
});
/** Texts a comment separates stay apart in the reader, as in the generated tree. */
const joined = (t: Tree): string => JSON.stringify(t);

describe('the XML reader', () => {
  it('reads generated documents back as written', () => {
    fc.assert(
      fc.property(tree, (t) => {
        expect(joined(strip(parseXml(`<?xml version="1.0"?>\n${write(t)}\n`)))).toBe(joined(t));
      }),
      { numRuns: fuzzRuns(200), seed: fuzzSeed(39) },
    );
  });

  it('arbitrary text and broken documents are an XmlError naming the line, never another exception', () => {
    const broken = fc.tuple(tree, fc.nat(), fc.nat({ max: 5 })).map(([t, at, n]) => {
      const s = write(t);
      const k = at % (s.length + 1);
      return s.slice(0, k) + s.slice(k + n);
    });
    fc.assert(
      fc.property(fc.oneof(fc.string({ maxLength: 60 }), broken), (s) => {
        try {
          parseXml(s);
        } catch (e) {
          expect(e).toBeInstanceOf(XmlError);
          expect((e as Error).message).toMatch(/^line \d+: /);
        }
      }),
      { numRuns: fuzzRuns(500), seed: fuzzSeed(39) },
    );
    expect(() => parseXml('<a>\n<b></a>')).toThrow('line 2: </a> closes <b> (line 2)');
    expect(() => parseXml('<a x="1" x="2"/>')).toThrow(/given twice/);
    expect(() => parseXml(`${'<a>'.repeat(300)}`)).toThrow(/nested more than 200 deep/);
  });
});
