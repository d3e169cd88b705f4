// Runs a CommonJS file of the command-line bundle through V8's code cache. Node 20
// caches no compiled code for ES modules (module.enableCompileCache came in Node 22),
// and parsing zod's ~400 kB was a large part of every command's start: the bundle
// carries it as zod.cjs (scripts/build-cli.mjs), compiled here with the bytecode a
// previous run left beside it. The cache is written once, when a run found none or
// V8 rejected it (another Node, other V8 flags); a folder that cannot be written, or
// a cache that does not fit, only costs the compile.
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { Script } from 'node:vm';

/**
 * What changes the compiled code besides the file: Node's V8, the machine, the V8 flags
 * the command set (bin/skillbridge.js), so one-shot commands and long runs keep a cache
 * each. Flags given to node itself are not in the key: V8 rejects a cache made under
 * others, and it is written anew.
 */
function cacheKey(): string {
  const flags = (globalThis as Record<symbol, unknown>)[Symbol.for('skillbridge.v8flags')];
  const text = `${process.version} ${process.arch} ${typeof flags === 'string' ? flags : ''}`;
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return h.toString(36);
}

/** Runs `file` (CommonJS) once and returns its exports. */
export function runCached(file: URL): unknown {
  const path = fileURLToPath(file);
  const cachePath = `${path}.${cacheKey()}.v8cache`;
  let cachedData: Buffer | undefined;
  try {
    cachedData = readFileSync(cachePath);
  } catch {
    cachedData = undefined;
  }
  const source = readFileSync(path, 'utf8');
  const script = new Script(`(function (exports, require, module, __filename, __dirname) {${source}\n})`, {
    filename: path,
    ...(cachedData ? { cachedData } : {}),
  });
  if (!cachedData || script.cachedDataRejected) {
    // At exit the cache holds every function the command compiled, not only the top level.
    process.once('exit', () => {
      try {
        // Unique per thread too: a worker thread of this process may write the same cache at once.
        const tmp = `${cachePath}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
        writeFileSync(tmp, script.createCachedData());
        renameSync(tmp, cachePath);
      } catch {
        // Read-only install or full disk: the next run compiles again.
      }
    });
  }
  const module = { exports: {} as unknown };
  const run = script.runInThisContext() as (e: unknown, r: NodeRequire, m: { exports: unknown }, f: string, d: string) => void;
  run(module.exports, createRequire(file), module, path, fileURLToPath(new URL('.', file)));
  return module.exports;
}
