// Tools from outside the project run in a child process behind the isolation
// boundary: listed with their cards, validated against their JSON Schemas, called
// in another process, a hang ended by killing the process (the next call starts a
// fresh one), a crash reported as a result, a bad declaration refused by name.
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { noRobot } from '../../../test/support/runtime-tools';
import { invokeIsolated } from '../isolation';
import { ToolRegistry } from '../registry';
import type { ToolContext } from '../tool';
import { ChildProcessSource, externalTools } from './source';

const MODULE = fileURLToPath(new URL('../../../test/fixtures/external-tools.mjs', import.meta.url));
const ctx = (): ToolContext => ({ robot: noRobot, signal: new AbortController().signal, state: new Map() });

describe('out-of-process tools', () => {
  const source = new ChildProcessSource(MODULE, { cancelGraceMs: 100 });
  afterAll(() => source.close());

  it('lists, validates and calls tools in another process; a hang is ended by its timeout and the next call still works', async () => {
    const { tools, rejected } = await externalTools(source);
    expect(tools.map((t) => t.name)).toEqual(['growing_degree_days', 'frost_forecast', 'crash_tool']);
    expect(rejected).toEqual([expect.stringMatching(/^tool 4 of script:external-tools: name: letters, digits/)]);
    const gdd = tools[0]!;
    expect(gdd.card).toMatchObject({ dimension: 'cognition', mode: 'on-demand', tags: expect.arrayContaining(['crop', 'external']) });
    // Discovery finds it by its card like any other tool.
    expect(new ToolRegistry(tools).discover('how far has the crop developed given the temperatures')[0]!.tool.name).toBe(
      'growing_degree_days',
    );

    const r = await invokeIsolated(gdd, { daily_mean_c: [12, 15.5, 9, 20] }, ctx());
    expect(r).toMatchObject({ ok: true, status: 'ok', content: '17.5 growing degree days' });
    const firstPid = (r.data as { pid: number }).pid;
    expect(firstPid).not.toBe(process.pid);
    expect(source.pids).toContain(firstPid);

    // The arguments are checked against the declared JSON Schema before anything crosses.
    const bad = await invokeIsolated(gdd, { daily_mean_c: [] }, ctx());
    expect(bad).toMatchObject({ ok: false, status: 'invalid_arguments' });
    expect(bad.content).toMatch(/daily_mean_c/);

    const hang = await invokeIsolated(tools[1]!, {}, ctx(), { timeoutMs: 300, graceMs: 1000 });
    expect(hang.status).toBe('timeout');
    expect(hang.content).toMatch(/frost_forecast .*(timed out|did not stop when cancelled)/);
    expect(hang.durationMs).toBeLessThan(1300);

    const again = await invokeIsolated(gdd, { daily_mean_c: [30] }, ctx());
    expect(again).toMatchObject({ ok: true, content: '20.0 growing degree days' });
    // The hung process was ended; a new one answers.
    expect((again.data as { pid: number }).pid).not.toBe(firstPid);
  }, 20_000);

  it('a tool whose process dies mid-call ends as an error result, and the source recovers', async () => {
    const { tools } = await externalTools(source);
    const crash = await invokeIsolated(tools[2]!, {}, ctx());
    expect(crash).toMatchObject({ ok: false, status: 'exception' });
    expect(crash.content).toMatch(/crash_tool failed with an error: script:external-tools exited \(code 7\)/);
    expect((await invokeIsolated(tools[0]!, { daily_mean_c: [11] }, ctx())).ok).toBe(true);
  }, 20_000);
});
