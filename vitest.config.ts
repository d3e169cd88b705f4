import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['{scenes,sim,agents,hosts,electron,test,eslint-rules}/**/*.test.ts'],
    environment: 'node',
    // Physics tests build whole worlds; the 2-core CI box needs headroom.
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
  },
});
