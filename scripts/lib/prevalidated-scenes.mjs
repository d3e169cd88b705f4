// The command-line bundle's built-in scenes (scripts/build-cli.mjs): validated once per
// build, carried as the schemas' results (scenes/prevalidated.ts), the raw files left out.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';

/**
 * The built-in scenes, catalogues and robots (scenes/registry.ts imports them all):
 * validated at this build (prevalidateScenes), they are left out; otherwise they
 * become `JSON.parse("…")` rather than object literals: V8 compiles and runs a
 * 120 kB literal at every command's start, and parses JSON text several times faster.
 */
export function sceneJsonText(prevalidated) {
  return {
    name: 'scene-json-text',
    setup(b) {
      b.onLoad({ filter: /[\\/]scenes[\\/].*\.json$/ }, async (args) => {
        if (args.path.includes(`${path.sep}node_modules${path.sep}`)) return undefined;
        // Validated at this build, the files themselves are never read (scenes/registry.ts).
        if (await prevalidated) return { contents: 'export default null;\n', loader: 'js' };
        const text = JSON.stringify(JSON.parse(readFileSync(args.path, 'utf8')));
        return { contents: `export default JSON.parse(${JSON.stringify(text)});\n`, loader: 'js' };
      });
    },
  };
}

/**
 * The built-in scenes, robots and catalogue entries validated here, once per build
 * (scenes/prevalidated.ts): a command then neither builds the scene schemas nor
 * parses the scene it runs (~25 ms of a one-shot call). Each is kept as the JSON text
 * of what the schema returned, and only when that text reads back identical; should
 * any built-in file not validate, none is kept and commands report it as before.
 */
export async function prevalidateScenes(root, build) {
  try {
    const out = await build({
      absWorkingDir: root,
      stdin: {
        contents: "export { validatedBuiltins } from './scenes/registry.ts';",
        resolveDir: root,
        sourcefile: 'prevalidate.js',
        loader: 'js',
      },
      bundle: true,
      write: false,
      format: 'esm',
      platform: 'node',
      target: 'node20',
      logLevel: 'silent',
    });
    const code = out.outputFiles[0].text;
    const { validatedBuiltins } = await import(`data:text/javascript;base64,${Buffer.from(code).toString('base64')}`);
    const all = validatedBuiltins();
    const texts = {};
    for (const [kind, byKey] of Object.entries(all)) {
      texts[kind] = {};
      for (const [key, value] of Object.entries(byKey)) {
        const text = JSON.stringify(value);
        if (!isDeepStrictEqual(JSON.parse(text), value)) return undefined;
        texts[kind][key] = text;
      }
    }
    return texts;
  } catch {
    return undefined;
  }
}

export function prevalidatedScenes(texts) {
  return {
    name: 'prevalidated-scenes',
    setup(b) {
      b.onLoad({ filter: /[\\/]scenes[\\/]prevalidated\.ts$/ }, async () => ({
        contents: `export const PREVALIDATED = ${(await texts) ? `JSON.parse(${JSON.stringify(JSON.stringify(await texts))})` : 'undefined'};\n`,
        loader: 'js',
      }));
    },
  };
}
