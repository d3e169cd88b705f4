// Which test files share one module graph per Vitest worker and which get their
// own (vitest.config.ts). Sharing saves loading Rapier's WebAssembly, the scene
// registry and the agent runtime once per file; it is only safe for files that
// leave no state behind, which test-projects.test.ts checks.

/** Folders whose test files share a module graph per worker (`isolate: false`). */
export const SHARED_ROOTS = ['base', 'scenes', 'sim', 'robot', 'agents', 'eval', 'hosts'] as const;
export const SHARED = [`{${SHARED_ROOTS.join(',')}}/**/*.test.ts`];
/** Files under those folders that mock a module or change the environment: their own module graph each. */
export const MUST_ISOLATE = [
  'eval/audit/on-robot.test.ts',
  'hosts/cli/bad-input.test.ts',
  'hosts/cli/flag-table.test.ts',
  'hosts/cli/models.test.ts',
  'hosts/cli/queue.test.ts',
  'hosts/cli/robot-cli.test.ts',
  'hosts/cli/robot-drop.test.ts',
  'hosts/service/host-policy.test.ts',
  'hosts/service/keys.test.ts',
  'hosts/service/local-models.test.ts',
  'hosts/service/model-process-relay.test.ts',
];
/** The renderer's tests run in happy-dom. */
export const ISOLATED = [...MUST_ISOLATE, '{contract,electron,test,eslint-rules}/**/*.test.ts', 'renderer/src/**/*.test.{ts,tsx}'];
