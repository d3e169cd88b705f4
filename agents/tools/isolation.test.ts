// Isolated invocation: each call has its own deadline and error boundary. A tool
// that ignores its signal is left behind at the deadline, one that honours it stops
// and says so, one that throws becomes a result, and the caller's Stop still lands.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { broken, look, noRobot } from '../../test/support/runtime-tools';
import { invokeIsolated, isolated } from './isolation';
import { type ToolContext, defineTool } from './tool';

const ctx = (signal = new AbortController().signal): ToolContext => ({ robot: noRobot, signal, state: new Map() });
const card = { outputs: 'x', whenToUse: 'x', dimension: 'execution' as const };

const deaf = defineTool({
  name: 'deaf_skill',
  description: 'Never ends and never looks at its signal.',
  category: 'action',
  params: z.strictObject({}),
  card,
  execute: () => new Promise(() => undefined),
});

let stoppedAt: string | undefined;
const polite = defineTool({
  name: 'polite_skill',
  description: 'Runs until aborted, then reports where it stopped.',
  category: 'action',
  params: z.strictObject({}),
  card,
  execute: (_a, { signal }) =>
    new Promise((resolve) =>
      signal.addEventListener('abort', () => {
        stoppedAt = 'half-way';
        resolve({ ok: false, content: 'stopped half-way' });
      }),
    ),
});

describe('isolated invocation', () => {
  it('abandons a tool that ignores its deadline, and reports a timeout the model can act on', async () => {
    const r = await invokeIsolated(deaf, {}, ctx(), { timeoutMs: 50, graceMs: 20 });
    expect(r).toMatchObject({ ok: false, status: 'timeout' });
    expect(r.content).toMatch(/^deaf_skill did not finish within 0.05 s and was abandoned/);
    expect(r.durationMs).toBeGreaterThanOrEqual(50);
  });

  it('a tool that honours the deadline stops and its own report comes back', async () => {
    stoppedAt = undefined;
    const r = await invokeIsolated(polite, {}, ctx(), { timeoutMs: 30 });
    expect(stoppedAt).toBe('half-way');
    expect(r).toMatchObject({ ok: false, status: 'timeout', content: 'polite_skill ran out of its 0.03 s and stopped: stopped half-way' });
  });

  it('turns an exception into a result, validates arguments, passes ok results through', async () => {
    expect(await invokeIsolated(broken, {}, ctx())).toMatchObject({
      ok: false,
      status: 'exception',
      content: expect.stringMatching(/^read_sensor failed with an error: sensor offline\. The run goes on/),
    });
    expect(await invokeIsolated(look, { x: 1 }, ctx())).toMatchObject({ ok: false, status: 'invalid_arguments' });
    expect(await invokeIsolated(look, {}, ctx())).toMatchObject({ ok: true, status: 'ok', content: 'I see a lemon and a bowl.' });
  });

  it("the caller's abort (Stop, a preemption) ends the call as aborted, not as a timeout", async () => {
    const stop = new AbortController();
    setTimeout(() => stop.abort(new Error('stop')), 10);
    const r = await invokeIsolated(deaf, {}, ctx(stop.signal), { timeoutMs: 5_000, graceMs: 10 });
    expect(r.status).toBe('aborted');
  });

  it('isolated(tool) keeps the name and schema and reports the invocation in the data', async () => {
    const t = isolated(deaf, { timeoutMs: 20, graceMs: 10 });
    expect(t.schema()).toEqual(deaf.schema());
    const r = await t.call({}, ctx());
    expect(r).toMatchObject({ ok: false, data: { invocation: { status: 'timeout' } } });
  });
});
