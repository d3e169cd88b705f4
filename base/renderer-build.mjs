// Is renderer/dist the build of today's sources? One rule for everything that
// serves it (`npm start`, `skillbridge serve`, `bench app`, the browser tests):
// the build is stale when any renderer source (renderer/src, contract/,
// renderer/index.html, renderer/vite.config.ts) is newer than its index.html.
// Plain JavaScript so the scripts can use it without a build step.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

const SOURCES = ['renderer/src', 'contract', 'renderer/index.html', 'renderer/vite.config.ts'];

function newest(p) {
  if (!existsSync(p)) return 0;
  const s = statSync(p);
  if (!s.isDirectory()) return s.mtimeMs;
  let t = 0;
  for (const e of readdirSync(p)) t = Math.max(t, newest(path.join(p, e)));
  return t;
}

/**
 * The build's state under a checkout `root`: missing, stale (a source is newer;
 * `newer` names it) or fresh. Without sources (an installed copy) a build that
 * exists counts as fresh: there is nothing to rebuild from.
 */
export function rendererBuildState(root) {
  const index = path.join(root, 'renderer/dist/index.html');
  if (!existsSync(index)) return { state: 'missing', index };
  const builtAt = statSync(index).mtimeMs;
  let newer = null;
  let newestAt = 0;
  for (const rel of SOURCES) {
    const t = newest(path.join(root, rel));
    if (t > newestAt) {
      newestAt = t;
      if (t > builtAt) newer = rel;
    }
  }
  return newer ? { state: 'stale', index, newer, builtAt, sourcesAt: newestAt } : { state: 'fresh', index, builtAt };
}

/** Builds the renderer with vite when it is missing or stale; false when the build failed. */
export function ensureRendererBuilt(root, opts = {}) {
  const s = rendererBuildState(root);
  if (s.state === 'fresh') return true;
  opts.say?.(
    s.state === 'missing' ? 'building the renderer (vite build)…' : `rebuilding the renderer: ${s.newer} is newer than the build…`,
  );
  const b = spawnSync('npx', ['vite', 'build', '--config', 'renderer/vite.config.ts', '--logLevel', opts.logLevel ?? 'error'], {
    cwd: root,
    stdio: opts.stdio ?? 'inherit',
  });
  return b.status === 0;
}
