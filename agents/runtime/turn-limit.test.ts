// A host's time limit bounds the whole turn: what a workflow runs between its
// flows (RAIDER's recovery plan, a sandboxed program) stops at the limit too,
// with a `stop` record saying so.
import { describe, expect, it } from 'vitest';
import { FakeModel } from '../../test/support/fake-model';
import { noRobot } from '../../test/support/runtime-tools';
import { Conversation } from './conversation';
import { MemorySink } from './trace';
import type { Workflow } from './workflow';

/** A workflow whose own code (no flow) runs until stopped, as a long recovery plan does. */
const longPlan: Workflow = {
  id: 'test/long-plan',
  title: 'long plan',
  description: 'works outside any flow until stopped',
  stages: [],
  systemPrompt: () => 'sys',
  run: async (ctx) => {
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, 10_000);
      ctx.signal.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true });
    });
    return { reason: ctx.signal.aborted ? 'time_limit' : 'final', final: ctx.signal.aborted ? undefined : 'ran to the end' };
  },
};

describe('the turn time limit', () => {
  it("stops a workflow's own work at the host's limit and records the stop", async () => {
    const sink = new MemorySink();
    const s = new Conversation({
      model: new FakeModel([]),
      workflow: longPlan,
      robot: noRobot,
      limits: { timeLimitMs: 300 },
      traceSinks: () => [sink],
    });
    const t0 = performance.now();
    const r = await s.send('go');
    expect(performance.now() - t0).toBeLessThan(5000);
    expect(r.stopped).toMatchObject({ kind: 'time_limit' });
    expect(sink.lines.find((l) => l.type === 'stop')).toMatchObject({ reason: 'time_limit' });
  });
});
