// The desktop app's build carries the local model's process: electron-vite's main
// build (the real config, built here without the Electron binary) emits the script
// the utility-process launcher starts, that script runs a model over the protocol,
// and electron-builder's configuration packs it with node-llama-cpp's native
// runtime unpacked from the asar.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { resolveConfig } from 'electron-vite';
import { build } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import builderConfig from '../build/electron-builder.config';
import { MODEL_PROCESS_FILE } from '../electron/main/model-process-file';
import { createLocalModel } from '../agents/models/local/local-model';
import { forkLauncher, setModelProcessLauncher } from '../agents/models/local/process-launcher';
import { writeTinyGguf } from './support/tiny-gguf';

const root = path.resolve(import.meta.dirname, '..');
// Inside the project, so the bundle's bare imports (node-llama-cpp) resolve as they do in the packaged app.
const outDir = path.join(root, 'out', `test-bundle-${process.pid}`, 'main');
let tmp: string;

beforeAll(async () => {
  tmp = mkdtempSync(path.join(tmpdir(), 'sb-electron-bundle-'));
  process.env['NODE_ENV_ELECTRON_VITE'] = 'production';
  const resolved = await resolveConfig({ root, logLevel: 'error' }, 'build', 'production');
  const main = resolved.config?.main;
  if (!main?.build) throw new Error('electron.vite.config.ts has no main build');
  main.build.outDir = outDir;
  await build(main);
}, 300_000);

afterAll(() => {
  setModelProcessLauncher();
  rmSync(path.dirname(outDir), { recursive: true, force: true });
  rmSync(tmp, { recursive: true, force: true });
});

describe('the desktop build and the local model process', () => {
  it('emits the model process script beside the main bundle, with node-llama-cpp left to the packaged node_modules', () => {
    const script = path.join(outDir, MODEL_PROCESS_FILE);
    expect(existsSync(script)).toBe(true);
    expect(readFileSync(script, 'utf8')).toMatch(/from ["']node-llama-cpp["']/);
    // The main bundle starts that file (electron/main/model-process.ts).
    expect(readFileSync(path.join(outDir, 'index.js'), 'utf8')).toContain(JSON.stringify(MODEL_PROCESS_FILE));
  });

  it('the built script loads a model and answers over the protocol', async () => {
    const script = path.join(outDir, MODEL_PROCESS_FILE);
    const started: string[] = [];
    setModelProcessLauncher(() => {
      started.push(script);
      return forkLauncher(script);
    });
    const model = createLocalModel({ id: 'local:tiny', file: writeTinyGguf(path.join(tmp, 'tiny.gguf')), maxTokens: 24 });
    try {
      const c = await model.complete({ messages: [{ role: 'user', content: 'hi' }] });
      expect(c.usage?.completionTokens).toBeGreaterThan(0);
      expect(started).toEqual([script]);
    } finally {
      await model.dispose();
    }
  }, 180_000);

  it('packs the app with node-llama-cpp, its native runtime outside the asar, and Node only by utility processes', () => {
    const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
    // A production dependency: electron-builder copies it into the app.
    expect(pkg.dependencies['node-llama-cpp']).toBeDefined();
    const c = builderConfig();
    expect(c.files).toContain('out/**/*');
    expect(c.files).not.toContain('!out/main/**');
    expect(c.files).toContain('node_modules/@node-llama-cpp/${os}-${arch}*/bins/**/*');
    expect(c.asarUnpack).toEqual(expect.arrayContaining(['node_modules/node-llama-cpp/bins', 'node_modules/@node-llama-cpp/*']));
    // The fuse that makes child_process.fork useless, hence the utility-process launcher.
    expect(c.electronFuses?.runAsNode).toBe(false);
  });
});
