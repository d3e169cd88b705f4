import { mkdirSync, mkdtempSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { rendererBuildState } from './renderer-build.mjs';

function file(root: string, rel: string, secondsAgo: number): void {
  const p = path.join(root, rel);
  mkdirSync(path.dirname(p), { recursive: true });
  writeFileSync(p, 'x');
  const t = Date.now() / 1000 - secondsAgo;
  utimesSync(p, t, t);
}

describe('the renderer build is fresh only when no renderer source is newer', () => {
  it('missing, then stale when a file under renderer/src or contract changed after it, then fresh', () => {
    const root = mkdtempSync(path.join(tmpdir(), 'sb-rbuild-'));
    file(root, 'renderer/src/view/world.ts', 100);
    expect(rendererBuildState(root).state).toBe('missing');
    file(root, 'renderer/dist/index.html', 50);
    expect(rendererBuildState(root).state).toBe('fresh');
    // A source deep in a folder, newer than the build (what bench app measured stale before).
    file(root, 'contract/schemas.ts', 10);
    expect(rendererBuildState(root)).toMatchObject({ state: 'stale', newer: 'contract' });
    file(root, 'renderer/dist/index.html', 0);
    expect(rendererBuildState(root).state).toBe('fresh');
  });

  it('an installed copy without sources serves the build it has', () => {
    const root = mkdtempSync(path.join(tmpdir(), 'sb-rbuild-'));
    file(root, 'renderer/dist/index.html', 50);
    expect(rendererBuildState(root).state).toBe('fresh');
  });
});
