// Tool discovery's search packages in the command-line bundle (scripts/build-cli.mjs):
// MiniSearch and the Porter stemmer (~75 kB) go into search.cjs beside the chunks,
// loaded by require() the first time a registry searches (agents/tools/registry.ts),
// so a command that never discovers tools (a one-shot call) does not read and
// compile them. Both are used as `new MiniSearch(options)` and `stemmer(word)` only.
import path from 'node:path';

const LAZY = /^(minisearch|stemmer)$/;

/** Builds search.cjs into `buildDir`; the promise settles when it is written. */
export function buildSearchFile(build, root, buildDir) {
  return build({
    absWorkingDir: root,
    stdin: {
      contents: "export { default as MiniSearch } from 'minisearch'; export { stemmer } from 'stemmer';",
      resolveDir: root,
      sourcefile: 'search-entry.js',
      loader: 'js',
    },
    outfile: path.join(buildDir, 'search.cjs'),
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    logLevel: 'silent',
    legalComments: 'none',
  });
}

/** The project's imports of the two packages become stand-ins that load search.cjs on first use. */
export function lazySearch() {
  return {
    name: 'lazy-search',
    setup(b) {
      b.onResolve({ filter: LAZY }, (args) => {
        if (args.namespace !== 'file' || /[\\/]node_modules[\\/]/.test(args.importer)) return undefined;
        return { path: args.path, namespace: 'lazy-search' };
      });
      // Found at run time beside the chunk, never bundled.
      b.onResolve({ filter: /^\.\/search\.cjs$/, namespace: 'lazy-search' }, (args) => ({ path: args.path, external: true }));
      b.onLoad({ filter: /.*/, namespace: 'lazy-search' }, (args) => ({
        // `require` is the chunk's own (the bundle's banner), resolving beside the chunk.
        contents: [
          'let loaded;',
          "const load = () => (loaded ??= require('./search.cjs'));",
          args.path === 'minisearch'
            ? 'export default function MiniSearch(options) { return new (load().MiniSearch)(options); }'
            : 'export function stemmer(value) { return load().stemmer(value); }',
          '',
        ].join('\n'),
        loader: 'js',
      }));
    },
  };
}
