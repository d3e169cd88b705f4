// Cases in flight on one thread take turns at the machine; the wait for a turn is not on a
// case's clock, so a turn's time limit counts only the model's time and the case's own work.
import { describe, expect, it } from 'vitest';
import type { Model } from '../../agents/models/model';
import { Deadline } from '../../agents/runtime/flow/limits';
import { CaseClock, MachineTurns, releasingWhileWaiting } from './machine-turns';

const busy = (ms: number) => {
  const end = performance.now() + ms;
  while (performance.now() < end);
};

const answering = (ms: number): Model => ({
  id: 'slow',
  complete: async () => {
    await new Promise((r) => setTimeout(r, ms));
    return { message: { role: 'assistant', content: 'ok' }, toolCalls: [] } as unknown as Awaited<ReturnType<Model['complete']>>;
  },
});

describe('machine turns', () => {
  it('lets one case work at a time, first come first served, and a case never waits for itself', async () => {
    const turns = new MachineTurns();
    const a = {};
    const b = {};
    const ca = new CaseClock();
    const cb = new CaseClock();
    const order: string[] = [];
    await turns.enter(a, ca);
    await turns.enter(a, ca); // a second activity of the holder goes straight in
    const bIn = turns.enter(b, cb).then(() => order.push('b in'));
    await new Promise((r) => setTimeout(r, 20));
    expect(order).toEqual([]);
    turns.leave(a);
    await new Promise((r) => setTimeout(r, 5));
    expect(order).toEqual([]); // a still has an activity
    turns.leave(a);
    await bIn;
    expect(order).toEqual(['b in']);
    expect(cb.waited()).toBeGreaterThanOrEqual(15);
    expect(ca.waited()).toBe(0);
  });

  it("keeps another case's work off a case's clock while its model answers", async () => {
    const turns = new MachineTurns();
    const a = {};
    const b = {};
    const ca = new CaseClock();
    const cb = new CaseClock();
    await turns.enter(a, ca);
    const model = releasingWhileWaiting(answering(10), turns, a, ca);
    const t0 = ca.now();
    const asked = model.complete({ messages: [] });
    // b takes the machine while a's model thinks, and works 150 ms (in steps, as physics does) without letting go.
    await turns.enter(b, cb);
    for (let i = 0; i < 15; i++) {
      busy(10);
      await new Promise((r) => setImmediate(r));
    }
    turns.leave(b);
    await asked;
    const own = ca.now() - t0;
    expect(own).toBeLessThan(100); // the model's 10 ms and one of b's steps, not b's 150 ms
    expect(ca.waited()).toBeGreaterThanOrEqual(100);
  });

  it('a deadline on a case clock does not expire while the case waits for its turn', async () => {
    const clock = new CaseClock();
    let expiredAt: number | undefined;
    const t0 = performance.now();
    const d = new Deadline(50, () => (expiredAt = performance.now() - t0), clock.now);
    d.resume();
    clock.startWait();
    await new Promise((r) => setTimeout(r, 120));
    expect(expiredAt).toBeUndefined();
    clock.endWait();
    await new Promise((r) => setTimeout(r, 200));
    expect(expiredAt).toBeGreaterThanOrEqual(165);
    d.pause();
  });
});

describe('a finished case', () => {
  it('lets go of the machine even when a model call a stop left behind comes back later', async () => {
    const turns = new MachineTurns();
    const a = {};
    const b = {};
    const ca = new CaseClock();
    await turns.enter(a, ca);
    const model = releasingWhileWaiting(answering(30), turns, a, ca);
    const left = model.complete({ messages: [] }); // the flow stops and does not wait for it
    await turns.enter(b, new CaseClock()); // b works meanwhile
    turns.done(a); // a has finished
    const back = left.then(() => 'a back');
    turns.leave(b);
    expect(await back).toBe('a back');
    let cIn = false;
    await turns.enter({}, new CaseClock()).then(() => (cIn = true));
    expect(cIn).toBe(true); // the machine is free, not held by a's late answer
  });
});
