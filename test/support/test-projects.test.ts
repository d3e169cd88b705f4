// A test file that runs in the shared module graph (test-projects.ts) and mocks a
// module or changes the environment or a global would leak that into every file
// the same worker runs after it: such a file must be listed in MUST_ISOLATE.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { MUST_ISOLATE, SHARED_ROOTS } from './test-projects';

const root = path.resolve(import.meta.dirname, '../..');
/** What leaves state behind in a worker: module mocks, stubbed globals or environment, environment writes. */
const LEAKS = /\bvi\.(mock|doMock|stubGlobal|stubEnv|useFakeTimers)\(|process\.env(\.\w+|\[[^\]]+\])\s*=[^=]|delete process\.env/;

function testFiles(dir: string): string[] {
  return readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((e) => {
    const rel = `${dir}/${e.name}`;
    if (e.isDirectory()) return e.name === 'node_modules' ? [] : testFiles(rel);
    return e.name.endsWith('.test.ts') ? [rel] : [];
  });
}

it('every shared test file that mocks a module or writes the environment is isolated', () => {
  const files = SHARED_ROOTS.flatMap((d) => testFiles(d));
  expect(files.length).toBeGreaterThan(100);
  const leaking = files.filter((f) => !MUST_ISOLATE.includes(f) && LEAKS.test(readFileSync(path.join(root, f), 'utf8')));
  expect(leaking).toEqual([]);
});

it('the isolated list names files that exist', () => {
  expect(MUST_ISOLATE.filter((f) => !existsSync(path.join(root, f)))).toEqual([]);
});
