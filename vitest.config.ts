import { availableParallelism } from 'node:os';
import react from '@vitejs/plugin-react';
import { configDefaults, defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import SLOWEST_FIRST from './test/support/slowest-first.json' with { type: 'json' };
import { ISOLATED, MUST_ISOLATE, SHARED } from './test/support/test-projects';

/**
 * Vitest starts the files it has timed before longest first, but a fresh clone
 * (CI) has no timings and started them in folder order, so a 45 s file could
 * begin last while the other worker idled. The slowest files, measured on the
 * 2-core CI machine (test/support/slowest-first.json), start first, longest
 * first; the rest follow in Vitest's own order.
 */
class SlowestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const root = this.ctx.config.root.replace(/\/?$/, '/');
    const rank = (f: TestSpecification) => {
      const i = SLOWEST_FIRST.indexOf(f.moduleId.replaceAll('\\', '/').replace(root, ''));
      return i < 0 ? SLOWEST_FIRST.length : i;
    };
    // A stable sort: the unlisted keep Vitest's order.
    return sorted.sort((a, b) => rank(a) - rank(b));
  }
}

/**
 * The physics, robot, agent and evaluation test files share one module graph per
 * worker (`isolate: false`): Rapier's WebAssembly, the scene registry and the
 * agent runtime load once per worker instead of once per file (the agents' 62
 * files took 70 CPU-s shared against 192 isolated). Which files may share, and
 * the check that they leave no state behind, are in test/support/test-projects.ts.
 */

export default defineConfig({
  // The renderer's component tests (*.test.tsx) need the JSX transform.
  plugins: [react()],
  test: {
    // Node by default; renderer tests opt into happy-dom with a `// @vitest-environment happy-dom` line.
    environment: 'node',
    // A folder the test files of one run share (test/support/shared-cases.ts).
    globalSetup: ['test/support/global-setup.ts'],
    sequence: { sequencer: SlowestFirst },
    // Physics tests build whole worlds; the 2-core CI box needs headroom.
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // Vitest's default is one worker fewer than the cores (the main process's share): on
    // the 2-core CI box that is one worker, so every test file ran one after another on one
    // core while the main process idled. The tests are CPU-bound; use every core.
    maxWorkers: Math.max(2, availableParallelism()),
    projects: [
      { extends: true, test: { name: 'shared', include: SHARED, exclude: [...configDefaults.exclude, ...MUST_ISOLATE], isolate: false } },
      { extends: true, test: { name: 'isolated', include: ISOLATED } },
    ],
  },
});
