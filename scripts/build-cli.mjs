#!/usr/bin/env node
// The command line's prebuilt bundle (out/cli/). `bin/skillbridge.js` runs it
// instead of the TypeScript sources through tsx: loading ~150 modules through
// tsx's loader hooks cost ~1 s of every command's start. esbuild builds it in
// ~0.5 s, on `npm install` (the `prepare` script) and again whenever a source
// it was built from has changed, so a clean clone and a fresh edit both work.
//
//   out/cli/manifest.json           which build is current
//   out/cli/<build>/inputs.json     the inputs it was built from, with their mtime and size
//   out/cli/<build>/inputs.NAME.json the same for the code the command NAME can load
//   out/cli/<build>/main.mjs        the entry (exports main(argv)), with one chunk per lazily loaded command
//   out/cli/<build>/sim-worker.mjs  the simulation worker `serve` starts (hosts/service/worker.ts)
//   out/cli/<build>/eval-worker.mjs the evaluation worker `eval --jobs N` starts (eval/runner/worker.ts)
//
// Every build gets its own folder and the manifest is replaced by a rename, so two
// processes starting at once never see half a bundle; old folders are pruned later.
import { mkdirSync, readFileSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const OUT_DIR = path.join(root, 'out/cli');
const FORMAT = 2;
export const HOT_FUNCTIONS = 'scripts/rapier-hot-functions.json';

/**
 * Packages Node loads from node_modules at run time rather than from the bundle:
 * native binaries and the loaders that find them (esbuild, tsx, electron,
 * playwright-core), ws (optional native add-ons found by require), and packages
 * that find their wasm by path (node-sqlite3-wasm by __dirname, QuickJS's variants
 * through createRequire), node-llama-cpp (finds its prebuilt llama.cpp binaries by
 * path); Observable Plot only serves reports. Rapier is bundled,
 * its wasm moved out to a file (rapierWasmFile below).
 */
const EXTERNAL = [
  'esbuild',
  'tsx',
  'tsx/*',
  'electron',
  'playwright-core',
  'ws',
  'vitest',
  'vitest/*',
  'node-sqlite3-wasm',
  'quickjs-emscripten-core',
  '@jitl/*',
  '@observablehq/plot',
  'node-llama-cpp',
];

/**
 * Files whose change makes any bundle stale, besides the project sources esbuild
 * read. Bundled packages are not stat'ed one by one: npm rewrites
 * node_modules/.package-lock.json whenever it installs or removes anything.
 */
const ALWAYS = [
  'package.json',
  'package-lock.json',
  'tsconfig.json',
  'scripts/build-cli.mjs',
  'scripts/lib/wasm-hints.mjs',
  'scripts/lib/prevalidated-scenes.mjs',
  'scripts/lib/lazy-search.mjs',
  HOT_FUNCTIONS,
  'node_modules/.package-lock.json',
];

function stamp(rel) {
  const s = statSync(path.join(root, rel));
  return [s.mtimeMs, s.size];
}

/**
 * The current bundle's entry as a file URL, or undefined when there is none or a
 * source it was built from changed since (a different mtime or size, including an
 * older one restored from an archive). Given the command about to run, only the
 * sources of the code that command can load are checked (a third of them for
 * `call`); a change elsewhere is found by the first command that can load it.
 */
export function freshBundle(outDir = OUT_DIR, command = undefined) {
  const m = readJson(path.join(outDir, 'manifest.json'));
  if (m?.format !== FORMAT || typeof m.entry !== 'string' || !Array.isArray(m.narrowed)) return undefined;
  const entry = path.join(outDir, m.entry);
  const dir = path.dirname(entry);
  const inputs = readJson(path.join(dir, m.narrowed.includes(command) ? `inputs.${command}.json` : 'inputs.json'));
  if (typeof inputs !== 'object' || !inputs) return undefined;
  // Runs before every command: plain string paths and no exceptions keep it cheap when cold.
  const base = `${root}${path.sep}`;
  for (const rel in inputs) {
    const s = statSync(base + rel, { throwIfNoEntry: false });
    const [mtime, size] = inputs[rel];
    if (!s || s.mtimeMs !== mtime || s.size !== size) return undefined;
  }
  return statSync(entry, { throwIfNoEntry: false }) ? pathToFileURL(entry).href : undefined;
}

function readJson(file) {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return undefined;
  }
}

/** Source text that starts another entry of the bundle (a worker, the local model's process). */
const LAUNCHES = /SKILLBRIDGE_(SIM|EVAL)_WORKER|llama-process/;

/**
 * For each command (hosts/cli/commands/NAME.ts, loaded on demand by main.ts), the
 * recorded inputs of every chunk it can load: the entry's, its own and theirs,
 * statically or dynamically, but no other command's. A command whose code starts
 * another entry of the bundle is left out: it checks everything.
 */
function commandInputs(metafile, inputs) {
  const outs = metafile.outputs;
  const main = Object.keys(outs).find((o) => outs[o].entryPoint === 'hosts/cli/main.ts');
  const commandOf = new Map();
  for (const [o, v] of Object.entries(outs)) {
    const m = /^hosts\/cli\/commands\/([\w-]+)\.ts$/.exec(v.entryPoint ?? '');
    if (m) commandOf.set(o, m[1]);
  }
  const result = {};
  if (!main) return result;
  for (const [chunk, command] of commandOf) {
    const seen = new Set();
    const stack = [main, chunk];
    while (stack.length) {
      const o = stack.pop();
      if (seen.has(o)) continue;
      seen.add(o);
      for (const i of outs[o].imports) {
        if (i.external || !outs[i.path]) continue;
        if (o === main && commandOf.has(i.path) && i.path !== chunk) continue;
        stack.push(i.path);
      }
    }
    const files = new Set([...seen].flatMap((o) => Object.keys(outs[o].inputs)).filter((rel) => Object.hasOwn(inputs, rel)));
    if ([...files].some((rel) => LAUNCHES.test(readFileSync(path.join(root, rel), 'utf8')))) continue;
    for (const rel of ALWAYS) if (Object.hasOwn(inputs, rel)) files.add(rel);
    result[command] = [...files];
  }
  return result;
}

/**
 * Inside the bundle, `import.meta.url` is the chunk's URL, not the source file's;
 * modules that find files next to themselves (the renderer build, the worker
 * sources, bin/) would look in out/cli/. Each source module's `import.meta.url` is
 * rewritten to its own file's URL, relative to the chunk so a moved checkout works.
 */
function sourceUrls(buildDir) {
  return {
    name: 'source-import-meta-url',
    setup(b) {
      b.onLoad({ filter: /\.(ts|mts|js|mjs)$/ }, (args) => {
        if (args.path.includes(`${path.sep}node_modules${path.sep}`)) return undefined;
        const text = readFileSync(args.path, 'utf8');
        if (!text.includes('import.meta.url')) return undefined;
        const rel = path.relative(buildDir, args.path).split(path.sep).join('/');
        return {
          contents: text.replaceAll('import.meta.url', `new URL(${JSON.stringify(rel)}, import.meta.url).href`),
          loader: /\.m?ts$/.test(args.path) ? 'ts' : 'js',
        };
      });
    },
  };
}

/**
 * Rapier's `-compat` builds carry their wasm as a base64 string that init decodes
 * in JavaScript: parsing the 3-4 MB module and decoding cost ~50 ms of every
 * command that steps physics. In the bundle the bytes become a file next to the
 * chunks (rapier-simd.wasm, rapier-scalar.wasm), carrying compilation hints for the
 * functions a world build and a call run (scripts/lib/wasm-hints.mjs). Should a
 * Rapier release no longer match (exactly one `X.toByteArray("…").buffer` that
 * decodes to wasm), it is bundled unchanged.
 *
 * The module gains compileWasm(), which loadRapier (sim/rapier.ts) awaits before
 * init: WebAssembly.compile decodes, validates and compiles the hinted functions on
 * V8's background threads, so init only instantiates. bin/skillbridge.js starts that
 * compile before it even loads the bundle (a call on a scene) and leaves the promise
 * under Symbol.for('skillbridge.rapierWasm'); compileWasm takes it over.
 */
function rapierWasmFile(buildDir, { createHash, withEagerHints }) {
  const hot = readHotFunctions();
  return {
    name: 'rapier-wasm-file',
    setup(b) {
      b.onLoad({ filter: /[\\/]@dimforge[\\/]rapier3d(-simd)?-compat[\\/]dist[\\/]rapier\.mjs$/ }, (args) => {
        const text = readFileSync(args.path, 'utf8');
        const found = [...text.matchAll(/[A-Za-z_$][\w$]*\.toByteArray\("([A-Za-z0-9+/=]+)"\)\.buffer/g)];
        if (found.length !== 1) return undefined;
        const bytes = Buffer.from(found[0][1], 'base64');
        if (bytes.readUInt32BE(0) !== 0x0061736d) return undefined; // "\0asm"
        // Commands validate it lazily (bin/skillbridge.js): a module that does not validate whole is not shipped.
        if (!WebAssembly.validate(bytes)) throw new Error(`${args.path}: its embedded WebAssembly does not validate`);
        const name = `rapier-${args.path.includes('-simd-') ? 'simd' : 'scalar'}.wasm`;
        const eager = hot[createHash('sha256').update(bytes).digest('hex')];
        mkdirSync(buildDir, { recursive: true });
        writeFileSync(path.join(buildDir, name), eager ? withEagerHints(bytes, eager) : bytes);
        const file = `new URL(${JSON.stringify(`./${name}`)}, import.meta.url)`;
        const phase = JSON.stringify(path.join(root, 'base/phase.ts'));
        const glue = [
          `import { phase as __sbPhase } from ${phase};`,
          'let __sbModule, __sbCompiling;',
          'export function compileWasm() {',
          "  const early = globalThis[Symbol.for('skillbridge.rapierWasm')];",
          `  const compiled = early?.file === ${JSON.stringify(name)} ? early.module`,
          `    : Promise.resolve().then(() => WebAssembly.compile(require("node:fs").readFileSync(${file})));`,
          '  return (__sbCompiling ??= compiled.then((m) => {',
          "    __sbPhase('wasm-compiled');",
          '    __sbModule = m;',
          '  }));',
          '}',
          // What sim/world/body-memory.ts found about this build's memory, kept beside the wasm file for the next process.
          'export function layoutStore() {',
          `  const file = new URL(${JSON.stringify(`./${name.replace(/\.wasm$/, '.layout.json')}`)}, import.meta.url);`,
          '  const fs = require("node:fs");',
          '  return {',
          '    load() { try { return JSON.parse(fs.readFileSync(file, "utf8")); } catch { return undefined; } },',
          '    save(value) {',
          '      try {',
          '        const tmp = new URL(`${file.href}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`);',
          '        fs.writeFileSync(tmp, JSON.stringify(value));',
          '        fs.renameSync(tmp, file);',
          '      } catch {}',
          '    },',
          '  };',
          '}',
          '',
        ].join('\n');
        const source = `(__sbModule ?? require("node:fs").readFileSync(${file}))`;
        return { contents: glue + text.replace(found[0][0], source), loader: 'js', resolveDir: path.dirname(args.path) };
      });
    },
  };
}

/** The functions to compile eagerly, by the sha256 of the module they were listed for (scripts/rapier-hot-functions.mjs). */
function readHotFunctions() {
  try {
    return JSON.parse(readFileSync(path.join(root, HOT_FUNCTIONS), 'utf8')).modules ?? {};
  } catch {
    return {};
  }
}

/**
 * zod re-exports its ~60 message locales as `z.locales` (45 % of its code); the
 * project only ever uses the English one it installs by default. In the bundle
 * `z.locales` holds English alone, so a command does not parse the rest.
 */
function zodEnglishOnly() {
  return {
    name: 'zod-english-only',
    setup(b) {
      b.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) => {
        if (!/[\\/]node_modules[\\/]zod[\\/]v4[\\/](classic|core)$/.test(args.resolveDir)) return undefined;
        return { path: path.join(args.resolveDir, '..', 'locales', 'index.js'), namespace: 'zod-locales' };
      });
      b.onLoad({ filter: /.*/, namespace: 'zod-locales' }, (args) => ({
        contents: `export { default as en } from ${JSON.stringify(path.join(path.dirname(args.path), 'en.js'))};`,
        resolveDir: path.dirname(args.path),
        loader: 'js',
      }));
    },
  };
}

/**
 * zod goes into zod.cjs beside the chunks, minified (190 kB rather than 390: less to
 * read and hold), and the project's `import … from 'zod'` becomes a module that runs
 * it through V8's code cache (base/code-cache.ts): Node 20 caches no compiled code for
 * ES modules. The project uses only `z` and `config` from
 * it; packages that import zod themselves (the MCP SDK) keep the bundled ES copy, and
 * zod 4 shares its registry between copies on globalThis.
 */
function zodCodeCache() {
  return {
    name: 'zod-code-cache',
    setup(b) {
      b.onResolve({ filter: /^zod$/ }, (args) => {
        if (args.namespace !== 'file' || /[\\/]node_modules[\\/]/.test(args.importer)) return undefined;
        return { path: 'zod', namespace: 'zod-cached' };
      });
      b.onLoad({ filter: /.*/, namespace: 'zod-cached' }, () => ({
        contents: [
          `import { runCached } from ${JSON.stringify(path.join(root, 'base/code-cache.ts'))};`,
          "const m = runCached(new URL('./zod.cjs', import.meta.url));",
          'export const z = m.z;',
          'export const config = m.config;',
          '',
        ].join('\n'),
        resolveDir: root,
        loader: 'js',
      }));
    },
  };
}

/** Builds a new bundle, makes it current and returns its entry URL. */
export async function buildCli({ outDir = OUT_DIR, log = () => undefined } = {}) {
  const { build } = await import('esbuild');
  // Loaded for a build only: every command imports this file for freshBundle, and node:crypto alone is ~20 internal modules.
  const { createHash } = await import('node:crypto');
  const { withEagerHints } = await import('./lib/wasm-hints.mjs');
  const { prevalidateScenes, prevalidatedScenes, sceneJsonText } = await import('./lib/prevalidated-scenes.mjs');
  const { buildSearchFile, lazySearch } = await import('./lib/lazy-search.mjs');
  mkdirSync(outDir, { recursive: true });
  const started = Date.now();
  const id = `b-${started.toString(36)}-${process.pid}-${Math.random().toString(36).slice(2, 6)}`;
  const buildDir = path.join(outDir, id);
  const zodFile = build({
    absWorkingDir: root,
    stdin: { contents: "export { z, config } from 'zod';", resolveDir: root, sourcefile: 'zod-entry.js', loader: 'js' },
    outfile: path.join(buildDir, 'zod.cjs'),
    minify: true,
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    plugins: [zodEnglishOnly()],
    logLevel: 'silent',
    legalComments: 'none',
  });
  zodFile.catch(() => undefined); // awaited below; a failure fails the build there
  const prevalidated = prevalidateScenes(root, build);
  const searchFile = buildSearchFile(build, root, buildDir);
  searchFile.catch(() => undefined); // awaited below
  const result = await build({
    absWorkingDir: root,
    entryPoints: {
      main: 'hosts/cli/main.ts',
      'sim-worker': 'hosts/service/worker.ts',
      'eval-worker': 'eval/runner/worker.ts',
      // The local model's process, found beside the chunk that starts it (agents/models/local/local-model.ts).
      'llama-process': 'agents/models/local/llama-process.mjs',
    },
    outdir: buildDir,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    outExtension: { '.js': '.mjs' },
    chunkNames: 'chunk-[hash]',
    external: EXTERNAL,
    // Bundled CommonJS packages call require() for Node built-ins.
    banner: { js: "import { createRequire as __sbRequire } from 'node:module'; const require = __sbRequire(import.meta.url);" },
    plugins: [
      rapierWasmFile(buildDir, { createHash, withEagerHints }),
      zodCodeCache(),
      zodEnglishOnly(),
      sceneJsonText(prevalidated),
      prevalidatedScenes(prevalidated),
      lazySearch(),
      sourceUrls(buildDir),
    ],
    metafile: true,
    logLevel: 'silent',
    legalComments: 'none',
    // Stack traces map back to the sources with NODE_OPTIONS=--enable-source-maps.
    sourcemap: 'linked',
  });
  await zodFile;
  await searchFile;
  const inputs = {};
  const sources = Object.keys(result.metafile.inputs).filter((rel) => !/(^|\/)node_modules\//.test(rel));
  for (const rel of [...sources, ...ALWAYS]) {
    let mtime, size;
    try {
      [mtime, size] = stamp(rel);
    } catch {
      continue; // e.g. no node_modules/.package-lock.json (another package manager)
    }
    // Changed while esbuild read it: record an impossible stamp so the next run rebuilds.
    inputs[rel] = mtime >= started ? [-1, size] : [mtime, size];
  }
  writeFileSync(path.join(buildDir, 'inputs.json'), JSON.stringify(inputs));
  const commands = commandInputs(result.metafile, inputs);
  for (const [name, files] of Object.entries(commands))
    writeFileSync(path.join(buildDir, `inputs.${name}.json`), JSON.stringify(Object.fromEntries(files.map((rel) => [rel, inputs[rel]]))));
  const narrowed = Object.keys(commands);
  const manifest = { format: FORMAT, entry: `${id}/main.mjs`, builtAt: new Date(started).toISOString(), narrowed };
  const tmp = path.join(outDir, `manifest.${id}.tmp`);
  writeFileSync(tmp, JSON.stringify(manifest));
  renameSync(tmp, path.join(outDir, 'manifest.json'));
  prune(outDir, id);
  log(`built the command-line bundle in ${Date.now() - started} ms (${Object.keys(result.metafile.inputs).length} modules)`);
  return pathToFileURL(path.join(buildDir, 'main.mjs')).href;
}

/** Removes older builds. One newer than an hour may still be loading chunks in a running process. */
function prune(outDir, current) {
  const hourAgo = Date.now() - 3600_000;
  for (const e of readdirSync(outDir, { withFileTypes: true })) {
    const p = path.join(outDir, e.name);
    try {
      if (e.isDirectory() && e.name.startsWith('b-') && e.name !== current && statSync(p).mtimeMs < hourAgo)
        rmSync(p, { recursive: true, force: true });
      else if (e.isFile() && e.name.endsWith('.tmp') && statSync(p).mtimeMs < hourAgo) rmSync(p, { force: true });
    } catch {
      // Another process pruned it first.
    }
  }
}

/**
 * The entry of a fresh bundle for `command` (or for any command), building one when
 * needed; undefined when esbuild is unavailable or fails.
 */
export async function cliBundle({ outDir = OUT_DIR, log = () => undefined, command = undefined } = {}) {
  const fresh = freshBundle(outDir, command);
  if (fresh) return fresh;
  try {
    return await buildCli({ outDir, log });
  } catch (e) {
    log(`building the command-line bundle failed (${e.message}); running from the sources instead`);
    return undefined;
  }
}

// `node scripts/build-cli.mjs` (npm's `prepare` after an install). A failure must not fail
// the install: the first command then tries again, or runs from the sources.
if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    await buildCli({ log: (l) => process.stdout.write(`skillbridge: ${l}\n`) });
  } catch (e) {
    process.stderr.write(`skillbridge: could not build the command-line bundle (${e.message}); commands will run from the sources\n`);
  }
}
