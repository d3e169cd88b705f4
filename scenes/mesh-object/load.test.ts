// Mesh types in a scene file: each is read relative to the scene file, turned,
// scaled and centred; every bad mesh is one line naming the field and the file.
import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { binaryStl, glb, gltfParts, obj } from '../../test/fixtures/meshes/encode';
import { lShape } from '../../test/fixtures/meshes/shapes';
import { loadScene } from '../load';
import { SceneDataError } from '../validation';

function sceneWith(files: Record<string, Uint8Array | string>, type: Record<string, unknown>): string {
  const dir = mkdtempSync(join(tmpdir(), 'sb-meshtypes-'));
  for (const [name, data] of Object.entries(files)) {
    mkdirSync(join(dir, name, '..'), { recursive: true });
    writeFileSync(join(dir, name), data);
  }
  const scene = {
    id: 'test/mesh-types',
    title: 'mesh types',
    description: 'a mesh type',
    robot: { config: 'tabletop_arm', pose: { position: [-0.05, 0.75, 0], yaw: 0 } },
    types: [{ type: 'thing', name: 'thing', category: 'toy', mass: 0.1, properties: { pickable: true }, ...type }],
    objects: [{ id: 'thing_1', type: 'thing', position: [0.3, 0.8, 0] }],
    toolSet: 'alrm',
  };
  const file = join(dir, 'scene.json');
  writeFileSync(file, JSON.stringify(scene));
  return file;
}

async function problems(file: string): Promise<string[]> {
  const e = await loadScene(file).catch((x: unknown) => x);
  if (!(e instanceof SceneDataError)) throw new Error(`expected a SceneDataError, got ${String(e)}`);
  return e.problems;
}

const L = lShape(0.05);

describe('mesh types of a scene file', () => {
  it('a GLB mesh, scaled and with its node transform, becomes an object part centred on its bounding box', async () => {
    const file = sceneWith({ 'parts/l.glb': glb(L, { translation: [5, 5, 5], scale: [2, 2, 2] }) }, { mesh: 'parts/l.glb', scale: 0.5 });
    const s = await loadScene(file);
    const part = s.objects[0]!.parts[0]!;
    expect(part.shape).toBe('mesh');
    if (part.shape !== 'mesh') return;
    const xs = part.positions.filter((_, i) => i % 3 === 0);
    expect(Math.min(...xs)).toBeCloseTo(-0.025, 6);
    expect(Math.max(...xs)).toBeCloseTo(0.025, 6);
    expect(part.indices.length).toBe(L.indices.length);
  });

  it('rotation turns a Z-up file upright', async () => {
    const file = sceneWith(
      { 'l.obj': obj({ positions: L.positions.map((v, i) => (i % 3 === 2 ? v * 4 : v)), indices: L.indices }) },
      { mesh: 'l.obj', rotation: [-90, 0, 0] },
    );
    const part = (await loadScene(file)).objects[0]!.parts[0]!;
    if (part.shape !== 'mesh') throw new Error('not a mesh');
    const ys = part.positions.filter((_, i) => i % 3 === 1);
    expect(Math.max(...ys) - Math.min(...ys)).toBeCloseTo(0.2, 5);
  });

  it.each([
    ['a missing file', {}, { mesh: 'gone.stl' }, /^types\[0\]\.mesh \(gone\.stl\): no such file$/],
    [
      'an unknown format',
      { 'm.ply': 'ply' },
      { mesh: 'm.ply' },
      /^types\[0\]\.mesh \(m\.ply\): not a mesh format this reads: give a \.glb, \.gltf, \.stl or \.obj file$/,
    ],
    [
      'a non-finite vertex',
      { 'm.obj': 'v 0 0 0\nv 1 0 0\nv 0 nan 1\nf 1 2 3\n' },
      { mesh: 'm.obj' },
      /^types\[0\]\.mesh \(m\.obj\): vertex 2 is not finite/,
    ],
    [
      'a flat mesh',
      { 'm.obj': 'v 0 0 0\nv 1 0 0\nv 0 1 0\nv 1 1 0\nf 1 2 3\nf 2 4 3\n' },
      { mesh: 'm.obj' },
      /^types\[0\]\.mesh \(m\.obj\): it has zero volume/,
    ],
    [
      'a path outside the folder',
      {},
      { mesh: '../elsewhere.stl' },
      /^types\[0\]\.mesh \(\.\.\/elsewhere\.stl\): .* lies outside the scene file's folder$/,
    ],
    ['an absolute path', {}, { mesh: '/etc/passwd' }, /^types\[0\]\.mesh \(\/etc\/passwd\): .* must be a path relative to the scene file$/],
    ['an empty mesh', { 'm.obj': '# nothing\n' }, { mesh: 'm.obj' }, /^types\[0\]\.mesh \(m\.obj\): the file has no vertices$/],
  ])('%s is one line naming the field and the file', async (_what, files, type, message) => {
    expect(await problems(sceneWith(files, type))).toEqual([expect.stringMatching(message)]);
  });

  it('too many vertices is refused with the limit', async () => {
    const n = 70_000;
    const positions = Array.from({ length: n }, (_, k) => [k / n, (k % 7) / 7, (k % 11) / 11]).flat();
    const file = sceneWith(
      { 'm.stl': binaryStl({ positions, indices: Array.from({ length: n - (n % 3) }, (_, i) => i) }) },
      { mesh: 'm.stl' },
    );
    expect(await problems(file)).toEqual([expect.stringMatching(/^types\[0\]\.mesh \(m\.stl\): \d+ vertices; at most 65536/)]);
  });

  it('a .gltf reads its buffer file beside it, but not one outside the folder', async () => {
    const { json, bin } = gltfParts(L);
    (json['buffers'] as Array<Record<string, unknown>>)[0]!['uri'] = 'l.bin';
    const ok = sceneWith({ 'l.gltf': JSON.stringify(json), 'l.bin': bin }, { mesh: 'l.gltf' });
    expect((await loadScene(ok)).objects[0]!.parts[0]!.shape).toBe('mesh');
    (json['buffers'] as Array<Record<string, unknown>>)[0]!['uri'] = '../../l.bin';
    const out = sceneWith({ 'l.gltf': JSON.stringify(json) }, { mesh: 'l.gltf' });
    expect(await problems(out)).toEqual([expect.stringMatching(/^types\[0\]\.mesh \(l\.gltf\): .* lies outside the scene file's folder$/)]);
  });

  it('a mesh type may not shadow a catalogue type, and a field error names its field', async () => {
    expect(await problems(sceneWith({ 'l.glb': glb(L) }, { mesh: 'l.glb', type: 'lemon' }))).toEqual(
      expect.arrayContaining([expect.stringMatching(/^types\[0\]\.type: "lemon" is a catalogue type already/)]),
    );
    expect(await problems(sceneWith({ 'l.glb': glb(L) }, { mesh: 'l.glb', collision: 'exact' }))).toEqual([
      expect.stringMatching(/^types\[0\]\.collision/),
    ]);
  });
});
