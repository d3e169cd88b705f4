// What a one-shot command does not load: Node built-ins that only a build, a world
// hash or a user file needs. Each is ~15-20 internal modules compiled on every start
// (`skillbridge bench cli` measures the time; this keeps them from creeping back).
// And zod, compiled through V8's code cache (base/code-cache.ts): written once, reused,
// and a cache that is corrupt or cannot be written changes nothing but the time.
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { buildCli } from '../scripts/build-cli.mjs';

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** The Node built-ins a fresh process has loaded after running `code` (an ES module body). */
function builtinsAfter(code: string, env: Record<string, string> = {}): string[] {
  const script = `${code}\nprocess.stdout.write('\\n' + JSON.stringify(process.moduleLoadList.filter((m) => m.startsWith('NativeModule ')).map((m) => m.slice(13))));`;
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
    encoding: 'utf8',
    env: { ...process.env, ...env },
    timeout: 120_000,
  });
  expect(r.status, r.stderr).toBe(0);
  return JSON.parse(r.stdout.trim().split('\n').at(-1)!) as string[];
}

describe('one-shot commands load only what they use', () => {
  it('the bundle check that starts every command loads neither node:crypto nor the wasm-hints code', () => {
    const script = pathToFileURL(join(import.meta.dirname, '../scripts/build-cli.mjs')).href;
    const loaded = builtinsAfter(`const { freshBundle } = await import(${JSON.stringify(script)}); freshBundle();`);
    expect(loaded).not.toContain('crypto');
  });

  let entry = '';
  const call = (): string =>
    `const { main } = await import(${JSON.stringify(entry)});
     const lines = [];
     const code = await main(['call', '--scene', 'tabletop/fruits', 'get_objects', '--json'], { out: (t) => lines.push(t), err: (t) => lines.push(t) });
     if (code !== 0 || !JSON.parse(lines.join('')).results[0].ok) throw new Error('the call failed: ' + lines.join(''));
     process.stdout.write(lines.join(''));`;

  it('a call on a scene loads neither node:crypto nor node:fs/promises, and gives its result', async () => {
    const out = mkdtempSync(join(tmpdir(), 'sb-cli-lazy-'));
    dirs.push(out);
    entry = await buildCli({ outDir: out });
    const loaded = builtinsAfter(call());
    expect(loaded).not.toContain('crypto');
    expect(loaded).not.toContain('fs/promises');
  }, 180_000);

  it("writes zod's code cache once, reuses it, and runs alike with a corrupt or unwritable one", () => {
    expect(entry).not.toBe('');
    const dir = fileURLToPath(new URL('./', entry));
    const caches = () => readdirSync(dir).filter((f) => f.endsWith('.v8cache'));
    // The call above ran with no cache and left one; the next reuses it without writing.
    expect(caches()).toHaveLength(1);
    const file = join(dir, caches()[0]!);
    const written = statSync(file).mtimeMs;
    const answer = (): unknown => {
      const r = spawnSync(process.execPath, ['--input-type=module', '-e', call()], { encoding: 'utf8', timeout: 120_000 });
      expect(r.status, r.stderr).toBe(0);
      return JSON.parse(r.stdout);
    };
    const first = answer();
    expect(statSync(file).mtimeMs).toBe(written);
    // Garbage where the cache was: V8 rejects it, the result is the same, and a good cache replaces it.
    writeFileSync(file, Buffer.alloc(4096, 7));
    expect(answer()).toEqual(first);
    expect(readFileSync(file).equals(Buffer.alloc(4096, 7))).toBe(false);
    // A folder that cannot be written: the same result, no cache.
    rmSync(file);
    chmodSync(dir, 0o555);
    try {
      expect(answer()).toEqual(first);
    } finally {
      chmodSync(dir, 0o755);
    }
    if (process.getuid?.() !== 0) expect(caches()).toHaveLength(0); // root writes anyway
  }, 180_000);

  it('keeps the body layout the probe found beside the wasm, takes it in the next process, and probes again when it reads otherwise than the API', () => {
    expect(entry).not.toBe('');
    const file = join(fileURLToPath(new URL('./', entry)), 'rapier-simd.layout.json');
    rmSync(file, { force: true });
    // A call that steps (the world guard reads every awake body each step), with the marks it recorded.
    const pick = (): { answer: unknown; marks: string[] } => {
      const script = `const { main } = await import(${JSON.stringify(entry)});
        const lines = [];
        const code = await main(['call', '--scene', 'tabletop/fruits', 'pick', '{"object_name":"lemon"}', '--json'], { out: (t) => lines.push(t), err: (t) => lines.push(t) });
        if (code !== 0) throw new Error('the call failed: ' + lines.join(''));
        process.stdout.write(JSON.stringify({ answer: JSON.parse(lines.join('')), marks: performance.getEntriesByType('mark').map((m) => m.name) }));`;
      const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
        encoding: 'utf8',
        timeout: 120_000,
        env: { ...process.env, SKILLBRIDGE_PHASES: '1', SKILLBRIDGE_RAPIER: 'simd' },
      });
      expect(r.status, r.stderr).toBe(0);
      return JSON.parse(r.stdout) as { answer: unknown; marks: string[] };
    };
    const first = pick();
    expect(first.marks).toContain('body-layout-probed');
    const stored = JSON.parse(readFileSync(file, 'utf8')) as Record<string, number>;
    const second = pick();
    expect(second.marks).toContain('body-layout-stored');
    expect(second.marks).not.toContain('body-layout-probed');
    expect(second.answer).toEqual(first.answer);
    // Rotation and translation swapped: the bodies do not read as the API reads them, so the probe runs and stores the right one.
    writeFileSync(file, JSON.stringify({ ...stored, translation: stored['rotation'], rotation: stored['translation'] }));
    const third = pick();
    expect(third.marks).toContain('body-layout-probed');
    expect(third.answer).toEqual(first.answer);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual(stored);
  }, 240_000);
});
