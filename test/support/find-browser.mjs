// Finds a Chromium-based browser for the browser tests and benchmarks: the
// CHROMIUM variable, then the usual install paths of Chromium, Chrome and Edge
// on Linux, macOS and Windows (the paths Playwright's browser channels use),
// then a browser Playwright downloaded itself. Node built-ins only; the lookup
// takes its environment as parameters so a test can play each platform.
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';

export function browserCandidates(platform = process.platform, env = process.env, home = homedir()) {
  if (platform === 'darwin') {
    const apps = [
      'Google Chrome.app/Contents/MacOS/Google Chrome',
      'Chromium.app/Contents/MacOS/Chromium',
      'Microsoft Edge.app/Contents/MacOS/Microsoft Edge',
      'Google Chrome Canary.app/Contents/MacOS/Google Chrome Canary',
    ];
    return [...apps.map((a) => `/Applications/${a}`), ...apps.map((a) => path.posix.join(home, 'Applications', a))];
  }
  if (platform === 'win32') {
    const roots = [env.PROGRAMFILES, env['PROGRAMFILES(X86)'], env.LOCALAPPDATA].filter(Boolean);
    const exes = [
      'Google\\Chrome\\Application\\chrome.exe',
      'Microsoft\\Edge\\Application\\msedge.exe',
      'Chromium\\Application\\chrome.exe',
    ];
    return roots.flatMap((r) => exes.map((e) => path.win32.join(r, e)));
  }
  return [
    '/usr/bin/chromium',
    '/usr/bin/chromium-browser',
    '/snap/bin/chromium',
    '/usr/bin/google-chrome',
    '/usr/bin/google-chrome-stable',
    '/opt/google/chrome/chrome',
    '/usr/bin/microsoft-edge',
    '/usr/bin/microsoft-edge-stable',
    '/opt/microsoft/msedge/msedge',
  ];
}

/** One line saying how to get a browser, for the platform. */
export function browserHint(platform = process.platform) {
  const get =
    platform === 'darwin' || platform === 'win32'
      ? 'install Google Chrome or Microsoft Edge'
      : 'install Chromium (Debian/Ubuntu: sudo apt-get install chromium) or Google Chrome';
  return `No Chrome, Edge or Chromium found: ${get}, or set CHROMIUM=/path/to/the/browser.`;
}

/**
 * The browser to use: { path, from } or { path: null, hint }. `playwright` is
 * an optional function giving the path of Playwright's own downloaded Chromium.
 */
export function findBrowser({ platform = process.platform, env = process.env, exists = existsSync, home = homedir(), playwright } = {}) {
  if (env.CHROMIUM) {
    return exists(env.CHROMIUM)
      ? { path: env.CHROMIUM, from: 'CHROMIUM' }
      : { path: null, hint: `CHROMIUM=${env.CHROMIUM} does not exist. ${browserHint(platform)}` };
  }
  for (const p of browserCandidates(platform, env, home)) if (exists(p)) return { path: p, from: 'installed' };
  try {
    const p = playwright?.();
    if (p && exists(p)) return { path: p, from: 'playwright' };
  } catch {
    // Playwright has no browser of its own here.
  }
  return { path: null, hint: browserHint(platform) };
}
