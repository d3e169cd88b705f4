// What `npm install` did about the install scripts the app needs, read from
// package.json's allowScripts and the lockfile (npm 11.19 and later skip a
// dependency's install script unless allowScripts allows it). Used by
// `npm start` to say why it starts web mode, and by a test that fails when
// Electron's install script would be skipped. Node built-ins only.
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

/** Packages whose install scripts the app needs: Electron downloads its binary, esbuild checks its platform binary. */
export const NEEDED_SCRIPTS = ['electron', 'esbuild'];

/**
 * For each package in the lockfile with an install script: allowed, denied or
 * not covered. A pinned key (name@version) counts only when the lockfile records
 * where the package came from: npm derives a pinned identity from the lockfile's
 * `resolved` URL, so without one a pinned key never matches.
 */
export function scriptCoverage(pkg, lock) {
  const allow = pkg.allowScripts ?? {};
  const out = [];
  for (const [where, entry] of Object.entries(lock.packages ?? {})) {
    if (!entry.hasInstallScript || !where) continue;
    const name = entry.name ?? where.slice(where.lastIndexOf('node_modules/') + 'node_modules/'.length);
    const pinned = `${name}@${entry.version}`;
    let state = 'not covered';
    let note;
    if (Object.hasOwn(allow, name)) state = allow[name] ? 'allowed' : 'denied';
    else if (Object.hasOwn(allow, pinned)) {
      if (entry.resolved) state = allow[pinned] ? 'allowed' : 'denied';
      else note = `the key "${pinned}" cannot match: the lockfile has no resolved URL for ${name}, so npm cannot tell its version`;
    }
    out.push({ name, version: entry.version, state, ...(note ? { note } : {}) });
  }
  return out;
}

/** Problems that would make npm skip a script the app needs, one sentence each; empty when none. */
export function installProblems(pkg, lock) {
  const cov = scriptCoverage(pkg, lock);
  const problems = [];
  for (const c of cov) {
    if (c.state === 'not covered')
      problems.push(
        `${c.name}@${c.version} has an install script that allowScripts in package.json neither allows nor denies${c.note ? ` (${c.note})` : ''}`,
      );
  }
  for (const name of NEEDED_SCRIPTS) {
    const c = cov.find((x) => x.name === name);
    if (c && c.state === 'denied') problems.push(`allowScripts denies ${name}'s install script, which the app needs`);
  }
  return problems;
}

function readJson(file) {
  try {
    return JSON.parse(readFileSync(file, 'utf8').replace(/^\uFEFF/, ''));
  } catch {
    return undefined;
  }
}

/**
 * Whether the desktop app can start, and if not, why and how to fix it, in
 * words for the person who typed `npm start`.
 */
export function electronStatus(root, env = process.env) {
  let binary = null;
  try {
    // The package exports the binary's path and throws when it was never downloaded.
    const p = createRequire(path.join(root, 'package.json'))('electron');
    binary = typeof p === 'string' && existsSync(p) ? p : null;
  } catch {
    binary = null;
  }
  const version = readJson(path.join(root, 'node_modules/electron/package.json'))?.version;
  if (binary) return { ok: true, binary, version, why: `Electron ${version ?? ''} is installed`.trim() };
  const fix = 'To get the desktop app, run "node node_modules/electron/install.js" (it downloads Electron), then "npm start" again.';
  if (!version) return { ok: false, why: 'the electron package is not installed (run "npm install" first)', fix: 'Run "npm install".' };
  if (env.ELECTRON_SKIP_BINARY_DOWNLOAD)
    return {
      ok: false,
      why: 'ELECTRON_SKIP_BINARY_DOWNLOAD is set, so Electron\u2019s binary was not downloaded',
      fix: `Unset ELECTRON_SKIP_BINARY_DOWNLOAD. ${fix}`,
    };
  const pkg = readJson(path.join(root, 'package.json'));
  const lock = readJson(path.join(root, 'package-lock.json'));
  const problems = pkg && lock ? installProblems(pkg, lock).filter((p) => p.includes('electron')) : [];
  if (problems.length)
    return {
      ok: false,
      why: `npm skipped Electron\u2019s install script: ${problems[0]}`,
      fix: `Allow it in package.json's allowScripts. ${fix}`,
    };
  return {
    ok: false,
    why: 'Electron\u2019s binary was not downloaded (its install script did not run or could not reach the download site)',
    fix,
  };
}
