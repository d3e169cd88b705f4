// Files a person names, read through base/user-file.ts everywhere: JSON with a
// byte-order mark is accepted by every reader, and a walk of the sources proves
// no other product code reads files with node:fs directly.
import { mkdtempSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadScene } from '../scenes/load';
import { loadMapping } from '../robot/rosbridge/mapping';
import { readMcpConfig } from '../agents/tools/mcp/config';
import { loadPrices } from '../eval/scale/prices';
import { loadScriptedModel } from '../agents/models/scripted';

const dir = mkdtempSync(join(tmpdir(), 'sb-reads-'));
const BOM = '\uFEFF';
const repo = join(import.meta.dirname, '..');

describe('JSON files with a byte-order mark are accepted', () => {
  it('a scene file', async () => {
    const good = readFileSync(join(import.meta.dirname, '../scenes/data/tabletop/fruits.json'), 'utf8');
    const f = join(dir, 'scene.json');
    writeFileSync(f, BOM + JSON.stringify({ ...(JSON.parse(good) as object), id: 'mine/bom' }));
    expect((await loadScene(f)).scene.id).toBe('mine/bom');
  });

  it('a rosbridge mapping, an MCP config and a price table', async () => {
    const mapping = join(dir, 'mapping.json');
    writeFileSync(mapping, BOM + readFileSync(join(import.meta.dirname, '../examples/rosbridge/nav2-moveit.json'), 'utf8'));
    await expect(loadMapping(mapping)).resolves.toBeTruthy();
    const mcp = join(dir, 'mcp.json');
    writeFileSync(mcp, `${BOM}{"mcpServers": {"x": {"command": "true"}}}`);
    await expect(readMcpConfig(mcp)).resolves.toBeTruthy();
    const prices = join(dir, 'prices.json');
    writeFileSync(prices, `${BOM}{"prices":[{"model":"openai:gpt-4o*","inputPerMTok":2.5,"outputPerMTok":10}]}`);
    expect(loadPrices(prices)).toBeTruthy();
    const script = join(dir, 'script.json');
    writeFileSync(script, `${BOM}[{"content": "done"}]`);
    expect(loadScriptedModel(script)).toBeTruthy();
  });
});

// Reads of files the product itself wrote or ships (its caches, its own assets,
// /proc in benchmarks) may use node:fs directly; anything a person can name must not.
const DIRECT_READS_ALLOWED = new Set([
  'electron/main/secrets.ts', // the app's own key store in its user-data folder
  'hosts/web/server.ts', // the built page's own assets
  'hosts/foxglove/mcap.ts', // readMcap: tests read back what they wrote
  'hosts/service/pose-recorder.ts', // poses the session recorded
  'eval/runner/cases.ts', // the case cache and the sources' hash
  'eval/report/assets.ts', // the report's bundled script
  'eval/scale/queue-worker.ts', // traces the worker itself wrote
  'eval/core/end-state.ts', // end states the runner wrote beside each case's trace
  'agents/models/peer-loops.ts', // the installed package's own package.json
  'agents/models/local/download.ts', // hashes the download it wrote itself
  'agents/models/local/store.ts', // its own lock files; a named .gguf is hashed only after gguf-header.ts found a regular file
  'base/user-file.ts',
  'base/code-cache.ts', // the bundle's own zod.cjs and the code cache it wrote beside it
]);

function sources(d: string, out: string[] = []): string[] {
  for (const name of readdirSync(d)) {
    if (name === 'node_modules' || name.startsWith('.') || name === 'test' || name === 'out' || name === 'dist') continue;
    const p = join(d, name);
    if (statSync(p).isDirectory()) sources(p, out);
    else if (/\.ts$/.test(name) && !/\.test\.ts$|\.d\.ts$/.test(name)) out.push(p);
  }
  return out;
}

describe('every read of a named file goes through base/user-file.ts', () => {
  it('no other product source reads files with node:fs directly', () => {
    const root = repo;
    const offenders = sources(root)
      .map((p) => relative(root, p))
      .filter((rel) => !rel.startsWith('hosts/bench/') && !rel.startsWith('renderer/') && !DIRECT_READS_ALLOWED.has(rel))
      .filter((rel) => /\breadFile(Sync)?\s*\(|createReadStream\s*\(/.test(readFileSync(join(root, rel), 'utf8')));
    expect(offenders).toEqual([]);
  });
});
