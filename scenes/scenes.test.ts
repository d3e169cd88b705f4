import { mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadScene } from './load';
import { builtinCatalogue, builtinScene, listScenes, resolveSceneData } from './registry';
import { parseCatalogue } from './resolve';
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
  it('lists the built-in scenes the suites and workflows need, and each resolves', () => {
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

  it('validates every built-in object type, also those no scene uses (a command validates only the types it looks up)', () => {
    const cat = builtinCatalogue();
    const looked = cat.get('lemon');
    expect(looked?.name).toBe('lemon');
    expect(cat.get('no_such_type')).toBeUndefined();
    const all = new Map(cat.entries());
    expect(all.size).toBe(cat.size);
    expect([...all.keys()].sort()).toEqual([...cat.keys()].sort());
    for (const file of readdirSync(join(import.meta.dirname, 'catalogue'))) {
      const types = (JSON.parse(readFileSync(join(import.meta.dirname, 'catalogue', file), 'utf8')) as { types: unknown[] }).types;
      for (const [k, v] of parseCatalogue(types, file)) expect(all.get(k)).toEqual(v);
    }
    expect(all.get('lemon')).toEqual(looked);
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

describe('scene validation: everything a scene refers to is checked at load', () => {
  const base = (): Record<string, unknown> => {
    const s = JSON.parse(readFileSync(join(import.meta.dirname, 'data/tabletop/fruits.json'), 'utf8')) as Record<string, unknown>;
    delete s['$schema'];
    return { ...s, id: 'mine/fruits' };
  };
  const objects = (s: Record<string, unknown>) => s['objects'] as Array<Record<string, unknown>>;

  it('rejects an object_moved event naming an unknown or a fixed object', async () => {
    const unknown = { ...base(), events: [{ at: 1, event: { type: 'object_moved', object: 'lemonn_1', to: [0.3, 0.8, 0] } }] };
    expect(await loadError(tempFile('e1.json', JSON.stringify(unknown)))).toMatch(
      /events\[0\]\.event\.object: no object "lemonn_1".*did you mean "lemon_1"/i,
    );
    const fixed = { ...base(), events: [{ at: 1, event: { type: 'object_moved', object: 'table_1', to: [0.3, 0.8, 0] } }] };
    expect(await loadError(tempFile('e2.json', JSON.stringify(fixed)))).toMatch(/events\[0\]\.event\.object: "table_1" .*fixed in place/);
  });

  it('rejects an on/in cycle with one line naming the field', async () => {
    const s = base();
    const objs = objects(s).map((o) => ({ ...o }));
    const bowl = objs.find((o) => o['id'] === 'bowl_1')!;
    const lemon = objs.find((o) => o['id'] === 'lemon_1')!;
    delete lemon['on'];
    lemon['in'] = 'bowl_1';
    delete bowl['on'];
    bowl['on'] = 'lemon_1';
    const msg = await loadError(tempFile('c.json', JSON.stringify({ ...s, objects: objs })));
    expect(msg.split('\n')).toHaveLength(1);
    expect(msg).toMatch(/objects\[\d+\]\.(on|in): "(bowl_1|lemon_1)" would rest on itself: .*-> .*; give one of them a "position"/);
  });

  it('rejects coordinates beyond the world and absurd numbers instead of turning poses into NaN', async () => {
    const far = base();
    const objs = objects(far).map((o, i) => (i === 0 ? { ...o, position: [1e300, 0, 0] } : o));
    expect(await loadError(tempFile('f.json', JSON.stringify({ ...far, objects: objs })))).toMatch(
      /objects\[0\]\.position: .* lies outside the floor/,
    );
    const floor = { ...base(), floor: { size: [1e6, 6] } };
    expect(await loadError(tempFile('g.json', JSON.stringify(floor)))).toMatch(/floor\.size\[0\]/);
    const moved = { ...base(), events: [{ at: 1, event: { type: 'object_moved', object: 'lemon_1', to: [0.3, 1e9, 0] } }] };
    expect(await loadError(tempFile('h.json', JSON.stringify(moved)))).toMatch(/events\[0\]\.event\.to: height/);
  });

  it('rejects sizes beyond the documented limits before building anything', async () => {
    const many = base();
    const lemon = objects(many).find((o) => o['id'] === 'lemon_1')!;
    const objs = Array.from({ length: 1_000_000 }, (_, i) => ({ ...lemon, id: `lemon_${i + 2}` }));
    let msg = '';
    try {
      resolveSceneData({ ...many, objects: objs }, 'big.json');
    } catch (e) {
      msg = (e as Error).message;
    }
    expect(msg).toMatch(/objects: 1000000 entries; at most 500 per scene/);
    const big = tempFile('big.json', JSON.stringify({ ...base(), notes: ['x'.repeat(2_100_000)] }));
    expect(await loadError(big)).toMatch(/at most 2000000 bytes/);
    const deep = base();
    const chain = Array.from({ length: 18 }, (_, i) => ({
      id: `box_${i}`,
      type: 'storage_container',
      ...(i ? { in: `box_${i - 1}` } : { on: 'table_1' }),
    }));
    expect(await loadError(tempFile('d.json', JSON.stringify({ ...deep, objects: [...objects(deep), ...chain] })))).toMatch(
      /nested more than 16 deep/,
    );
  });
});
