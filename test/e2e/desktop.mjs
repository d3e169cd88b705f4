// The desktop app through Playwright's Electron driver, where an Electron binary
// exists: it builds, starts with a sandboxed window.api, and passes the same flows.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { assert, log, require, root, shot, skip, test, usePage } from './harness.mjs';

export async function desktopFlows(flows) {
  log('▶ desktop end-to-end tests (Electron): the same flows in the desktop window');
  let electronBinary = null;
  try {
    // The electron package exports the binary's path, and throws when the binary was never downloaded.
    electronBinary = require('electron');
  } catch {
    electronBinary = null;
  }
  if (!electronBinary || !existsSync(String(electronBinary))) {
    skip(
      'the desktop app: all of the flows above',
      'no Electron binary on this machine (it cannot be downloaded here); web mode above runs the same flows on the same renderer and API',
    );
    return;
  }
  const b = spawnSync('npx', ['electron-vite', 'build'], { cwd: root, stdio: 'inherit' });
  let app = null;
  await test('desktop: the app builds, starts and draws with a sandboxed window.api', async () => {
    assert(b.status === 0, 'electron-vite build failed');
    const { _electron } = await import('playwright-core');
    app = await _electron.launch({ args: [path.join(root, 'out/main/index.js')], cwd: root });
    const win = await app.firstWindow();
    usePage(win);
    await win.waitForFunction(() => window.__skillbridge?.ready && window.__skillbridge.framesSinceLoad > 5, null, { timeout: 60_000 });
    const hasApi = await win.evaluate(() => typeof window.api?.callTool === 'function' && typeof window.require === 'undefined');
    assert(hasApi, 'window.api missing, or Node integration leaked into the page');
    await win.screenshot({ path: shot('e2e-electron.png') });
  });
  if (app) {
    try {
      await flows('desktop: ');
    } finally {
      await app.close();
    }
  }
}
