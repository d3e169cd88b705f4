import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadScene } from './load';
import { builtinScene, listScenes } from './registry';
import { SCHEMA_FILES, schemaPath, schemaText } from './tools/export-schema';
import { SceneDataError } from './validation';

function tempFile(name: string, text: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'skillbridge-scene-'));
  const p = join(dir, name);
  writeFileSync(p, text);
  return p;
}

async function loadError(p: string): Promise<string> {
  try {
    await loadScene(p);
  } catch (e) {
    expect(e).toBeInstanceOf(SceneDataError);
    return (e as Error).message;
  }
  throw new Error('expected the scene to be rejected');
}

describe('scenes', () => {
  it('lists every built-in scene the issues name, and each resolves', () => {
    const ids = listScenes().map((s) => s.id);
    for (const id of [
      'tabletop/fruits',
      'tabletop/utensils',
      'tabletop/boxes',
      'tabletop/workshop',
      'kitchen',
      'kitchen/assistive',
      'farm',
    ]) {
      expect(ids).toContain(id);
      expect(builtinScene(id).scene.id).toBe(id);
    }
  });

  it('the committed JSON Schemas match the zod schemas (run `npm run scene-schema` after changing them)', () => {
    for (const s of SCHEMA_FILES) expect(readFileSync(schemaPath(s.file), 'utf8')).toBe(schemaText(s.schema, s.title));
  });

  it('loads a scene from a file and names the field and the fix when it is wrong', async () => {
    const good = JSON.parse(readFileSync(join(import.meta.dirname, 'data/tabletop/fruits.json'), 'utf8')) as Record<string, unknown>;
    delete good['$schema'];
    const ok = await loadScene(tempFile('ok.json', JSON.stringify({ ...good, id: 'mine/fruits' })));
    expect(ok.scene.id).toBe('mine/fruits');

    const objects = (good['objects'] as Record<string, unknown>[]).map((o, i) => (i === 1 ? { ...o, type: 'lemmon' } : o));
    const badType = await loadError(tempFile('t.json', JSON.stringify({ ...good, objects })));
    expect(badType).toMatch(/lemmon/);
    expect(badType).toMatch(/did you mean "lemon"/i);

    const extra = await loadError(tempFile('x.json', JSON.stringify({ ...good, colour: 'red' })));
    expect(extra).toMatch(/unknown field\(s\) "colour"/);

    const badPos = (good['objects'] as Record<string, unknown>[]).map((o, i) => (i === 1 ? { ...o, position: [1, 2] } : o));
    expect(await loadError(tempFile('p.json', JSON.stringify({ ...good, objects: badPos })))).toMatch(/objects\[1\]\.position/);

    expect(await loadError(tempFile('j.json', '{ "id": '))).toMatch(/not valid JSON/);
    expect(await loadError('/nonexistent/scene.json')).toMatch(/no such file/);
    expect(await loadError('tabletop/fruit')).toMatch(/did you mean "tabletop\/fruits"/i);
  });
});
