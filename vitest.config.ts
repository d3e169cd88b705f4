import { availableParallelism } from 'node:os';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  // The renderer's component tests (*.test.tsx) need the JSX transform.
  plugins: [react()],
  test: {
    include: [
      '{base,contract,robot,scenes,sim,agents,eval,hosts,electron,test,eslint-rules}/**/*.test.ts',
      'renderer/src/**/*.test.{ts,tsx}',
    ],
    // Node by default; renderer tests opt into happy-dom with a `// @vitest-environment happy-dom` line.
    environment: 'node',
    // Physics tests build whole worlds; the 2-core CI box needs headroom.
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // Vitest's default is one worker fewer than the cores (the main process's share): on
    // the 2-core CI box that is one worker, so every test file ran one after another on one
    // core while the main process idled. The tests are CPU-bound; use every core.
    maxWorkers: Math.max(2, availableParallelism()),
  },
});
