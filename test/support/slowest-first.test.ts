// The head-start list (vitest.config.ts starts these files first) names files
// that exist: a renamed slow file would silently lose its place at the front.
import { existsSync, readFileSync } from 'node:fs';
import { expect, it } from 'vitest';

it('lists only test files that exist, each once', () => {
  const list = JSON.parse(readFileSync(new URL('./slowest-first.json', import.meta.url), 'utf8')) as string[];
  const root = new URL('../../', import.meta.url);
  expect(list.length).toBeGreaterThan(0);
  expect(list.filter((f) => !existsSync(new URL(f, root)))).toEqual([]);
  expect(new Set(list).size).toBe(list.length);
});
