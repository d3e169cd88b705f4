// The command-line bundle (scripts/build-cli.mjs): built into a temporary folder,
// it runs commands, stays current until an input changes, survives two builds at
// once, and every module in it still finds files next to its own source.
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { buildCli, freshBundle } from '../scripts/build-cli.mjs';
import { eagerHints, functionCounts, validWasm } from '../scripts/lib/wasm-hints.mjs';
import type { Output } from '../hosts/cli/output';
import { validatedBuiltins } from '../scenes/registry';

const dirs: string[] = [];
const temp = () => {
  const d = mkdtempSync(join(tmpdir(), 'sb-cli-bundle-'));
  dirs.push(d);
  return d;
};
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

type Main = (argv: string[], o: Output) => Promise<number>;

/** One build that the first and the last test both read (each build is about 6 CPU-seconds of esbuild). */
let built: Promise<{ out: string; entry: string }> | undefined;
const oneBuild = () =>
  (built ??= (async () => {
    const out = temp();
    return { out, entry: await buildCli({ outDir: out }) };
  })());

describe('command-line bundle', () => {
  it('runs a command, and is fresh until one of its inputs changes', async () => {
    const { out, entry } = await oneBuild();
    expect(freshBundle(out)).toBe(entry);
    expect(existsSync(new URL('./sim-worker.mjs', entry))).toBe(true);

    const { main } = (await import(entry)) as { main: Main };
    const lines: string[] = [];
    const code = await main(['scenes', '--json'], { out: (t) => lines.push(t), err: (t) => lines.push(t) });
    expect(code).toBe(0);
    expect((JSON.parse(lines.join('')) as Array<{ id: string }>).map((s) => s.id)).toContain('tabletop/fruits');

    // A source edited since (here: its recorded stamp no longer matches) makes it stale.
    const file = fileURLToPath(new URL('./inputs.json', entry));
    const inputs = JSON.parse(readFileSync(file, 'utf8')) as Record<string, [number, number]>;
    expect(Object.keys(inputs)).toEqual(expect.arrayContaining(['hosts/cli/main.ts', 'sim/world/sim-world.ts', 'package-lock.json']));
    inputs['hosts/cli/main.ts']![0] -= 1000;
    writeFileSync(file, JSON.stringify(inputs));
    expect(freshBundle(out)).toBeUndefined();
  }, 60_000);

  it('checks for a command only the sources of the code it can load, and everything for one that starts a worker', async () => {
    const { out, entry } = await oneBuild();
    const all = fileURLToPath(new URL('./inputs.json', entry));
    const forCall = fileURLToPath(new URL('./inputs.call.json', entry));
    const originals = [all, forCall].map((f) => [f, readFileSync(f, 'utf8')] as const);
    type Stamps = Record<string, [number, number]>;
    const read = (f: string): Stamps => JSON.parse(readFileSync(f, 'utf8')) as Stamps;
    try {
      // Fresh whatever the first test left: every stamp as it is on disk now.
      const root = fileURLToPath(new URL('..', import.meta.url));
      const now = (stamps: Stamps): Stamps =>
        Object.fromEntries(
          Object.keys(stamps).map((rel) => {
            const st = statSync(join(root, rel));
            return [rel, [st.mtimeMs, st.size]];
          }),
        );
      writeFileSync(all, JSON.stringify(now(read(all))));
      writeFileSync(forCall, JSON.stringify(now(read(forCall))));
      expect(freshBundle(out, 'call')).toBe(entry);
      expect(freshBundle(out)).toBe(entry);
      const call = Object.keys(read(forCall));
      expect(call).toEqual(
        expect.arrayContaining(['hosts/cli/main.ts', 'hosts/cli/commands/call.ts', 'scenes/registry.ts', 'package-lock.json']),
      );
      expect(call).not.toContain('hosts/cli/commands/serve.ts');
      expect(call.length).toBeLessThan(Object.keys(read(all)).length / 2);
      // `serve` starts the simulation worker (another entry of the bundle): it is not narrowed.
      const manifest = JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8')) as { narrowed: string[] };
      expect(manifest.narrowed).toContain('call');
      expect(manifest.narrowed).not.toContain('serve');
      const stale = (f: string, rel: string): void => {
        const stamps = read(f);
        stamps[rel]![1] += 1;
        writeFileSync(f, JSON.stringify(stamps));
      };
      // A source only `serve` loads: stale for it and for a check of everything, not for `call`.
      stale(all, 'hosts/cli/commands/serve.ts');
      expect(freshBundle(out, 'call')).toBe(entry);
      expect(freshBundle(out, 'serve')).toBeUndefined();
      expect(freshBundle(out)).toBeUndefined();
      expect(freshBundle(out, 'no-such-command')).toBeUndefined();
      // A source the call loads lazily (the scene registry, behind the call's chunk): stale for `call`.
      stale(forCall, 'scenes/registry.ts');
      expect(freshBundle(out, 'call')).toBeUndefined();
    } finally {
      for (const [f, text] of originals) writeFileSync(f, text);
    }
  }, 60_000);

  it('two builds at once both finish, and the manifest names one complete build', async () => {
    const out = temp();
    const [a, b] = await Promise.all([buildCli({ outDir: out }), buildCli({ outDir: out })]);
    expect(a).not.toBe(b);
    const current = freshBundle(out);
    expect([a, b]).toContain(current);
    for (const entry of [a, b]) expect(existsSync(new URL(entry))).toBe(true);
  }, 60_000);

  it("rewrites each module's import.meta.url to its own source file, and moves Rapier's wasm to files", async () => {
    // What the build wrote does not depend on the first test having marked its manifest stale.
    const { entry } = await oneBuild();
    const dir = new URL('./', entry);
    const refs: string[] = [];
    const wasms: string[] = [];
    for (const f of readdirSync(dir).filter((n) => n.endsWith('.mjs'))) {
      const text = readFileSync(new URL(f, dir), 'utf8');
      // The chunk's own URL serves only the banner's createRequire, Rapier's wasm file and the body layout
      // stored beside it, and zod.cjs.
      const bare = text.split('import.meta.url').length - 1;
      const rewritten = [...text.matchAll(/new URL\("([^"]+)", import\.meta\.url\)\.href/g)].map((x) => x[1]!);
      const wasm = [...text.matchAll(/new URL\("\.\/(rapier-(?:simd|scalar)\.wasm)", import\.meta\.url\)/g)].map((x) => x[1]!);
      const layouts = [...text.matchAll(/new URL\("\.\/rapier-(?:simd|scalar)\.layout\.json", import\.meta\.url\)/g)].length;
      expect(layouts, f).toBe(new Set(wasm).size);
      const zod = [...text.matchAll(/new URL\("\.\/zod\.cjs", import\.meta\.url\)/g)].length;
      expect(bare, f).toBe(rewritten.length + wasm.length + layouts + zod + 1);
      if (zod) expect(readFileSync(new URL('zod.cjs', dir), 'utf8')).toContain('globalRegistry');
      for (const w of wasm) expect(readFileSync(new URL(w, dir)).subarray(0, 4).toString('latin1')).toBe('\0asm');
      wasms.push(...wasm);
      refs.push(...rewritten);
    }
    expect(refs.length).toBeGreaterThan(3);
    for (const rel of refs) expect(existsSync(fileURLToPath(new URL(rel, dir))), rel).toBe(true);
    expect(refs.some((r) => r.endsWith('hosts/cli/commands/serve.ts'))).toBe(true);
    // Both Rapier builds read their wasm from a file instead of decoding base64.
    expect(new Set(wasms).size).toBe(2);
    // Each carries compilation hints marking eager the functions listed for it, and nothing else.
    const listed = JSON.parse(readFileSync(new URL('../scripts/rapier-hot-functions.json', import.meta.url), 'utf8')) as {
      modules: Record<string, number[]>;
    };
    for (const w of new Set(wasms)) {
      const bytes = readFileSync(new URL(w, dir));
      expect(validWasm(bytes), w).toBe(true);
      const { imported, declared } = functionCounts(bytes);
      const hints = eagerHints(bytes);
      expect(hints, w).toBeDefined();
      expect(hints!.length).toBe(declared);
      const eager = hints!.flatMap((h, i) => (h ? [i + imported] : []));
      expect(Object.values(listed.modules)).toContainEqual(eager);
      expect(eager.length).toBeGreaterThan(100);
    }
  }, 60_000);

  it('carries every built-in scene, robot and catalogue type as the sources validate it', async () => {
    const { entry } = await oneBuild();
    const dir = new URL('./', entry);
    // The build writes them as one JSON text on one line: `PREVALIDATED = JSON.parse("…")`.
    const line = readdirSync(dir)
      .filter((f) => f.endsWith('.mjs'))
      .flatMap((f) => readFileSync(new URL(f, dir), 'utf8').split('\n'))
      .find((l) => /PREVALIDATED\w* = JSON\.parse\(/.test(l));
    expect(line).toBeDefined();
    const literal = line!.slice(line!.indexOf('JSON.parse(') + 'JSON.parse('.length, line!.lastIndexOf(');'));
    const texts = JSON.parse(new Function(`return ${literal}`)() as string) as Record<string, Record<string, string>>;
    const parsed = Object.fromEntries(
      Object.entries(texts!).map(([kind, byKey]) => [
        kind,
        Object.fromEntries(Object.entries(byKey).map(([k, t]) => [k, JSON.parse(t) as unknown])),
      ]),
    );
    const sources = validatedBuiltins();
    expect(Object.keys(sources.scenes)).toContain('data/tabletop/fruits.json');
    expect(parsed).toEqual(sources);
  }, 60_000);

  it('discovers tools through the search packages it loads on first use (search.cjs)', async () => {
    const { entry } = await oneBuild();
    expect(existsSync(new URL('./search.cjs', entry))).toBe(true);
    const { main } = (await import(entry)) as { main: Main };
    const trace = join(temp(), 'etp.jsonl');
    const lines: string[] = [];
    const code = await main(
      [
        'run',
        '--scene',
        'farm',
        '--workflow',
        'etp',
        '--model',
        'scripted:examples/etp-farm-discover.json',
        '--trace',
        trace,
        '--json',
        'how much battery is left?',
      ],
      { out: (t) => lines.push(t), err: (t) => lines.push(t) },
    );
    expect(code, lines.join('\n')).toBe(0);
    const found = readFileSync(trace, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { type: string; name?: string; status?: string; result?: string })
      .find((r) => r.type === 'tool_result' && r.name === 'discover_tools');
    expect(found).toMatchObject({ status: 'ok', result: expect.stringContaining('battery_status') });
  }, 120_000);
});
