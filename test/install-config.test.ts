// The install configuration: npm 11.19 and later skip a dependency's install
// script unless package.json's allowScripts allows it, and without Electron's
// the desktop app never gets its binary. Also the browser lookup of the tests.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { findBrowser } from './support/find-browser.mjs';
import { installProblems, scriptCoverage } from '../scripts/lib/install-check.mjs';

const root = path.resolve(import.meta.dirname, '..');
const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as {
  allowScripts?: Record<string, boolean>;
  devDependencies: Record<string, string>;
  dependencies: Record<string, string>;
};
const lock = JSON.parse(readFileSync(path.join(root, 'package-lock.json'), 'utf8')) as {
  packages: Record<string, { version: string; hasInstallScript?: boolean; resolved?: string }>;
};

describe('install configuration', () => {
  it("allows Electron's and esbuild's install scripts, and covers every other install script", () => {
    expect(installProblems(pkg, lock)).toEqual([]);
    const cov = scriptCoverage(pkg, lock);
    expect(cov.find((c: { name: string }) => c.name === 'electron')).toMatchObject({ state: 'allowed' });
    expect(cov.find((c: { name: string }) => c.name === 'esbuild')).toMatchObject({ state: 'allowed' });
  });

  it('pins the versions whose scripts run: exact versions in package.json, the same in the lockfile', () => {
    for (const name of ['electron', 'esbuild']) {
      const wanted = pkg.devDependencies[name] ?? pkg.dependencies[name];
      expect(wanted).toMatch(/^\d+\.\d+\.\d+$/);
      expect(lock.packages[`node_modules/${name}`]?.version).toBe(wanted);
    }
  });

  it('would fail if Electron were left out, denied, or pinned where npm cannot match the pin', () => {
    const without = { ...pkg, allowScripts: { esbuild: true, 'electron-winstaller': false } };
    expect(installProblems(without, lock).join('\n')).toMatch(/electron@[\d.]+ has an install script/);
    const denied = { ...pkg, allowScripts: { ...pkg.allowScripts, electron: false } };
    expect(installProblems(denied, lock).join('\n')).toMatch(/denies electron/);
    // npm derives a pinned identity from the lockfile's resolved URL; without one the pin never matches.
    const v = lock.packages['node_modules/electron']!.version;
    const pinned = { ...pkg, allowScripts: { [`electron@${v}`]: true, esbuild: true, 'electron-winstaller': false } };
    const noResolved = {
      packages: { ...lock.packages, 'node_modules/electron': { ...lock.packages['node_modules/electron']!, resolved: undefined } },
    };
    expect(installProblems(pinned, noResolved).join('\n')).toMatch(/cannot match: the lockfile has no resolved URL/);
  });
});

describe('finding a browser for the tests', () => {
  const only = (p: string) => (q: string) => q === p;
  it('finds Chrome or Edge on macOS and Windows, Chromium on Linux, before giving up', () => {
    expect(
      findBrowser({
        platform: 'darwin',
        env: {},
        home: '/Users/t',
        exists: only('/Applications/Microsoft Edge.app/Contents/MacOS/Microsoft Edge'),
      }),
    ).toMatchObject({ from: 'installed' });
    const win = findBrowser({
      platform: 'win32',
      env: { LOCALAPPDATA: 'C:\\Users\\t\\AppData\\Local' },
      exists: only('C:\\Users\\t\\AppData\\Local\\Google\\Chrome\\Application\\chrome.exe'),
    });
    expect(win.path).toBe('C:\\Users\\t\\AppData\\Local\\Google\\Chrome\\Application\\chrome.exe');
    expect(findBrowser({ platform: 'linux', env: {}, exists: only('/usr/bin/google-chrome-stable') }).path).toBe(
      '/usr/bin/google-chrome-stable',
    );
    expect(findBrowser({ platform: 'linux', env: {}, exists: only('/pw/chrome'), playwright: () => '/pw/chrome' })).toMatchObject({
      from: 'playwright',
    });
  });

  it('says in one line how to get one when there is none', () => {
    const r = findBrowser({ platform: 'darwin', env: {}, exists: () => false });
    expect(r.path).toBeNull();
    expect(r.hint).toMatch(/^No Chrome, Edge or Chromium found: install Google Chrome or Microsoft Edge, or set CHROMIUM=/);
    expect((r.hint ?? '').split('\n')).toHaveLength(1);
    expect(findBrowser({ env: { CHROMIUM: '/nope' }, exists: () => false }).hint).toMatch(/CHROMIUM=\/nope does not exist/);
  });
});
