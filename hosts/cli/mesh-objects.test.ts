// Mesh objects through the command line: a scene file places a block read
// from an OBJ file and a bowl from a GLB file (test/fixtures/meshes), the
// robot picks the block and puts it into the bowl; a scene whose mesh is
// missing is one line and exit 2.
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from './main';

const FIXTURES = join(import.meta.dirname, '../../test/fixtures/meshes');

async function cli(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await main(argv, { out: (t) => (out += `${t}\n`), err: (t) => (err += `${t}\n`) });
  return { code, out, err };
}

describe('mesh objects on the command line', () => {
  it('call places mesh objects from a scene file; pick and place work on them', async () => {
    const script = join(mkdtempSync(join(tmpdir(), 'sb-meshcli-')), 's.json');
    writeFileSync(
      script,
      JSON.stringify([
        { tool: 'pick', args: { object_name: 'block_1' } },
        { tool: 'place', args: { target: 'bowl_1' } },
      ]),
    );
    const r = await cli('call', '--scene', join(FIXTURES, 'mesh-scene.json'), '--script', script, '--json');
    const body = JSON.parse(r.out) as { results: { tool: string; ok: boolean; result?: string }[]; facts: string[] };
    expect(body.results.map((x) => x.ok)).toEqual([true, true]);
    expect(body.results[0]!.result).toMatch(/picked up block_1 \(L block\)/);
    expect(body.facts).toEqual(expect.arrayContaining(['in(block_1, bowl_1)', 'on(bowl_1, table_1)']));
    expect(r.code).toBe(0);
  }, 60_000);

  it('a scene file whose mesh is missing: one line naming the field and the file, exit 2', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sb-meshcli-'));
    cpSync(join(FIXTURES, 'block.obj'), join(dir, 'block.obj'));
    writeFileSync(join(dir, 'scene.json'), readFileSync(join(FIXTURES, 'mesh-scene.json'), 'utf8'));
    const r = await cli('call', '--scene', join(dir, 'scene.json'), 'pick', '{"object_name":"block_1"}');
    expect(r.code).toBe(2);
    expect(r.err.trim().split('\n')).toEqual([expect.stringMatching(/types\[0\]\.mesh \(bowl\.glb\): no such file/)]);
  });
});
