import path from 'node:path';
import { Linter } from 'eslint';
import tseslint from 'typescript-eslint';
import { describe, expect, it } from 'vitest';
import hostRefs from './host-refs.js';

const root = path.resolve(import.meta.dirname, '..');

function lint(relFile: string, code: string): string[] {
  const linter = new Linter({ cwd: root });
  const messages = linter.verify(
    code,
    [
      {
        files: ['**/*.ts', '**/*.tsx'],
        languageOptions: { parser: tseslint.parser },
        plugins: { 'host-refs': hostRefs },
        rules: { 'host-refs/minted-by-policy': 'error' },
      },
    ],
    path.join(root, relFile),
  );
  return messages.map((m) => m.message);
}

describe('host-refs/minted-by-policy lint rule', () => {
  it('refuses a type assertion to a host ref outside the host policy, however it is nested', () => {
    for (const code of [
      'const s = req.suite as SuiteRef;',
      'runEval({ model: spec as ModelSpec });',
      'const ids = list as RunId[];',
      'const x = <TraceRef>id;',
      'const m = { spec } as { spec: ModelSpec };',
      'const f = v as unknown as ModelFiles;',
      "const r = v as HostRef<string, 'RunId'>;",
      'const u = url satisfies ServerUrl;',
    ]) {
      const [msg] = lint('eval/runner/runner.ts', code);
      expect(msg, code).toMatch(/Only the host policy \(hosts\/service\/host-policy\.ts\) makes a \w+/);
    }
    // Tests too: they get refs from the policy (test/support/host-refs.ts).
    expect(lint('eval/suites/suites.test.ts', "const m = 'oracle' as ModelSpec;")).toHaveLength(1);
    expect(lint('test/support/anything.ts', "const m = 'oracle' as ModelSpec;")).toHaveLength(1);
  });

  it('lets the policy and the declaring file make them', () => {
    expect(lint('hosts/service/host-policy.ts', 'const s = value as HostRef<T, K>;')).toEqual([]);
    expect(lint('base/host-refs.ts', 'const s = value as SuiteRef;')).toEqual([]);
  });

  it("refuses 'as never' and 'as any' in the product code of hosts/ and eval/, but for dispatch()'s parsed request", () => {
    expect(lint('hosts/service/eval-host.ts', 'runEval({ suite: req.suite as never });')[0]).toMatch(/'as never' fits any parameter/);
    expect(lint('eval/scale/queue-worker.ts', 'runCase({ model: d.model as any });')[0]).toMatch(/'as any' fits any parameter/);
    expect(lint('hosts/web/connection.ts', 'return dispatch(api, method, parseRequest(method, request) as never);')).toEqual([]);
    // Tests and other layers keep their casts (the proof is about what the product reads).
    expect(lint('hosts/service/page-door.test.ts', "s.evalReport({ runId: 'a/../b' } as never);")).toEqual([]);
    expect(lint('robot/rosbridge/connection.ts', 'ros.callOnConnection(msg as never);')).toEqual([]);
  });

  it('leaves assertions to other types alone', () => {
    expect(lint('eval/runner/runner.ts', 'const n = x as number; const o = y as { a: string };')).toEqual([]);
  });
});
