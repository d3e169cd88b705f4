// Runs once per `vitest run`, before any test file: a folder the test files of
// this run share (the suites' generated cases, see shared-cases.ts), removed at
// the end. Shared within one run only, so a change to the code is always seen.
// Each Vitest project (vitest.config.ts) calls this; they all get the same folder.
// Its tmp/ is every test's temporary folder (TMPDIR, which the workers and the
// commands they start inherit): what a test leaves there goes with the run.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    sharedDir: string;
  }
}

/**
 * The run's folder and how many projects still use it. Vitest loads this module
 * once per project, so the record lives on the main process's global object.
 */
const KEY = Symbol.for('skillbridge.test-run');
const run: { dir?: string; users: number; tmpBefore?: string | undefined } = ((globalThis as Record<symbol, unknown>)[KEY] as
  typeof run | undefined) ?? { users: 0 };
(globalThis as Record<symbol, unknown>)[KEY] = run;

export default function setup(project: TestProject): () => void {
  if (!run.dir) {
    run.dir = mkdtempSync(path.join(tmpdir(), 'skillbridge-test-run-'));
    const tmp = path.join(run.dir, 'tmp');
    mkdirSync(tmp);
    run.tmpBefore = process.env['TMPDIR'];
    process.env['TMPDIR'] = tmp;
  }
  run.users++;
  project.provide('sharedDir', run.dir);
  return () => {
    if (--run.users > 0 || !run.dir) return;
    rmSync(run.dir, { recursive: true, force: true });
    run.dir = undefined;
    if (run.tmpBefore === undefined) delete process.env['TMPDIR'];
    else process.env['TMPDIR'] = run.tmpBefore;
  };
}
