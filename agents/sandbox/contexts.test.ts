// The sandbox must load where nothing sits beside this module at run time: in an
// esbuild bundle (as the simulation worker and the CLI ship) and inside another
// worker thread (as in the app, where tools run on the simulation worker).
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { build } from 'esbuild';
import { afterAll, describe, expect, it } from 'vitest';

const root = new URL('../../', import.meta.url);
const dir = new URL(`out/sandbox-test-${process.pid}/`, root);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Bundles a tiny host that runs one program through the sandbox, as worker-bundle.ts bundles the simulation worker. */
async function bundle(name: string, entry: string): Promise<URL> {
  mkdirSync(dir, { recursive: true });
  const source = new URL(`${name}.ts`, dir);
  writeFileSync(source, entry);
  const file = new URL(`${name}.mjs`, dir);
  await build({
    entryPoints: [fileURLToPath(source)],
    outfile: fileURLToPath(file),
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    logLevel: 'silent',
  });
  return file;
}

const sandboxModule = JSON.stringify(fileURLToPath(new URL('agents/sandbox/index.ts', root)));
const program = `
import { runProgram } from ${sandboxModule};
export const run = () => runProgram('print("inside"); return add(2, 3)', {
  api: { add: async (args) => (Array.isArray(args) ? Number(args[0]) + Number(args[1]) : 0) },
});
`;

describe('where the sandbox loads', () => {
  it('runs from an esbuild bundle', async () => {
    const file = await bundle('bundled', program);
    const { run } = (await import(pathToFileURL(fileURLToPath(file)).href)) as { run: () => Promise<unknown> };
    expect(await run()).toMatchObject({ ok: true, value: 5, output: 'inside\n', calls: [{ name: 'add', args: [2, 3] }] });
  });

  it('runs inside another worker thread (a nested worker), bundled', async () => {
    const file = await bundle(
      'nested',
      `${program}
import { parentPort } from 'node:worker_threads';
parentPort.postMessage(await run());
`,
    );
    const worker = new Worker(file);
    try {
      const result = await new Promise((resolve, reject) => {
        worker.once('message', resolve);
        worker.once('error', reject);
      });
      expect(result).toMatchObject({ ok: true, value: 5, output: 'inside\n' });
    } finally {
      await worker.terminate();
    }
  });
});
