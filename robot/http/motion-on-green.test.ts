// Motion only on green, against a stand-in robot that counts what reaches it:
// a robot.safety answer with a field missing, null, mistyped, renamed, not
// finite or too old posts no motion job; a job in flight is cancelled on the
// robot when the e-stop is pressed (on the stream or in an answer), the reading
// goes stale or unknown, the event stream drops or the robot restarts; and an
// event stream that says `retry: 0` is reconnected with backoff, not in a loop.
import { afterEach, describe, expect, it } from 'vitest';
import { type SafetyAnswer, type StandInRobot, fakeInfo, startStandInRobot } from '../../test/support/fake-robot-server';
import { HttpRobot } from './http-robot';
import { RETRY_FLOOR_MS, reconnectDelay } from './event-stream';

const PERIOD_MS = 100;
const open: Array<{ close(): unknown }> = [];
afterEach(async () => {
  for (const x of open.splice(0).reverse()) await x.close();
});

async function standIn(o: Parameters<typeof startStandInRobot>[0] = {}): Promise<StandInRobot> {
  const s = await startStandInRobot(o);
  open.push(s);
  return s;
}

async function connect(s: StandInRobot): Promise<HttpRobot> {
  const robot = await HttpRobot.open({ url: s.url, token: 't', timeoutMs: 2000, controlPeriodMs: PERIOD_MS });
  open.push(robot);
  return robot;
}

const released = (extra: Record<string, unknown> = {}) => ({ json: { estop: { state: 'released', ageS: 0.1 }, maxAgeS: 2, ...extra } });
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('no motion job leaves on a safety answer that is not known, fresh and released', () => {
  const bad: Array<[string, SafetyAnswer, Record<string, unknown>?]> = [
    ['no estop field', { json: { maxAgeS: 2 } }],
    ['estop null', { json: { estop: null, maxAgeS: 2 } }],
    ['estop renamed', { json: { eStop: { state: 'released', ageS: 0.1 }, maxAgeS: 2 } }],
    ['state null', { json: { estop: { state: null, ageS: 0.1 }, maxAgeS: 2 } }],
    ['state in capitals', { json: { estop: { state: 'RELEASED', ageS: 0.1 }, maxAgeS: 2 } }],
    ['state a boolean', { json: { estop: { state: false, ageS: 0.1 }, maxAgeS: 2 } }],
    ['ageS absent', { json: { estop: { state: 'released' }, maxAgeS: 2 } }],
    ['ageS null (NaN on the wire)', { json: { estop: { state: 'released', ageS: null }, maxAgeS: 2 } }],
    ['ageS a string', { json: { estop: { state: 'released', ageS: '0.1' }, maxAgeS: 2 } }],
    ['ageS negative', { json: { estop: { state: 'released', ageS: -5 }, maxAgeS: 2 } }],
    ['ageS Infinity (1e999)', { raw: '{"value":{"estop":{"state":"released","ageS":1e999},"maxAgeS":2}}' }],
    ['maxAgeS Infinity (1e999)', { raw: '{"value":{"estop":{"state":"released","ageS":50},"maxAgeS":1e999}}' }],
    ['maxAgeS absent', { json: { estop: { state: 'released', ageS: 0.1 } } }],
    ['maxAgeS zero', { json: { estop: { state: 'released', ageS: 0 }, maxAgeS: 0 } }],
    ['a stale reading', { json: { estop: { state: 'released', ageS: 12 }, maxAgeS: 2 } }],
    ['the robot says unknown', { json: { estop: { state: 'unknown', detail: 'no message yet' }, maxAgeS: 2 } }],
    ['not JSON', { raw: '{"value": {"estop": ' }],
    ['a 500', { status: 500 }],
    ['pressed', { json: { estop: { state: 'pressed', ageS: 0.1 }, maxAgeS: 2 } }],
    ['a declared battery missing', released(), { capabilities: ['arm', 'perception', 'events', 'battery'] }],
    ['a declared battery null', released({ battery: { percent: null, ageS: 0.1 } }), { capabilities: ['arm', 'perception', 'battery'] }],
    ['a battery at 250 %', released({ battery: { percent: 250, ageS: 0.1 } }), { capabilities: ['arm', 'perception', 'battery'] }],
    ['a stale battery', released({ battery: { percent: 80, ageS: 30 } }), { capabilities: ['arm', 'perception', 'battery'] }],
  ];
  for (const [name, safety, info] of bad) {
    it(name, async () => {
      const s = await standIn({ safety, jobMs: 50, ...(info ? { info: fakeInfo(info) } : {}) });
      const robot = await connect(s);
      const out = await robot.arm!.pick('lemon_1');
      expect(out).toMatchObject({ ok: false, code: name === 'pressed' ? 'estop' : 'refused' });
      expect(out.summary).toMatch(/was not sent to the robot/);
      expect(s.posts()).toEqual([]);
      const st = await robot.safety();
      // What the page and the safety chain read is never a fresh "released" either.
      expect(st.estop.state === 'released' && st.estop.freshness === 'fresh' && (!st.battery || st.battery.freshness === 'fresh')).toBe(
        false,
      );
    });
  }

  it('a green answer does post the job (the stand-in counts it)', async () => {
    const s = await standIn({ safety: released(), jobMs: 50 });
    const robot = await connect(s);
    expect(await robot.arm!.pick('lemon_1')).toMatchObject({ ok: true });
    expect(s.posts().map((p) => p.skill)).toEqual(['arm.pick']);
  });

  it('a press on the event stream after a released answer stops the next motion before it is posted', async () => {
    const s = await standIn({ safety: released({ estop: { state: 'released', ageS: 1.5 } }), jobMs: 50 });
    const robot = await connect(s);
    await robot.safety(); // opens the event stream
    expect(s.connections()).toBe(1);
    await sleep(100);
    s.event('estop_pressed');
    await sleep(100);
    // The next answer was measured 1.5 s ago, before the press: it does not undo it.
    expect(await robot.arm!.pick('lemon_1')).toMatchObject({ ok: false, code: 'estop' });
    expect(s.posts()).toEqual([]);
  });
});

describe('overlapping reads of robot.safety', () => {
  it('an answer to an older request never replaces a newer one', async () => {
    const s = await standIn({ safety: { json: { estop: { state: 'released', ageS: 0 }, maxAgeS: 2 }, delayMs: 300 } });
    const robot = await connect(s);
    const older = robot.safety();
    await sleep(50);
    s.set({ safety: { json: { estop: { state: 'pressed', ageS: 0 }, maxAgeS: 2 } } });
    const newer = await robot.safety();
    expect(newer.estop.state).toBe('pressed');
    // The slow answer (released, asked first) comes last: the robot is still pressed as far as the client knows.
    expect((await older).estop.state).toBe('pressed');
    expect(await robot.arm!.pick('lemon_1')).toMatchObject({ ok: false, code: 'estop' });
  });
});

describe('a motion job in flight is cancelled on the robot within one control period', { timeout: 10_000 }, () => {
  /** Starts a pick that runs until cancelled; resolves once the stand-in has it. */
  async function inFlight(s: StandInRobot) {
    const robot = await connect(s);
    const out = robot.arm!.pick('lemon_1');
    await expect.poll(() => s.running().length, { interval: 10 }).toBe(1);
    return { robot, out };
  }

  it('when the e-stop is pressed on the event stream', async () => {
    const s = await standIn({ safety: released() });
    const { out } = await inFlight(s);
    s.event('estop_pressed');
    const o = await out;
    expect(o).toMatchObject({
      ok: false,
      code: 'estop',
      summary: expect.stringMatching(/cancelled on the robot: the emergency stop is pressed/),
    });
    expect(s.cancels()).toHaveLength(1);
    expect(s.running()).toEqual([]);
  });

  it('when robot.safety starts answering pressed', async () => {
    const s = await standIn({ safety: released() });
    const { out } = await inFlight(s);
    s.set({ safety: { json: { estop: { state: 'pressed', ageS: 0 }, maxAgeS: 2 } } });
    expect(await out).toMatchObject({ ok: false, code: 'estop' });
    expect(s.running()).toEqual([]);
    // The next safety answer after the pressed one is not awaited: the cancel follows it.
    const firstPressed = s.timeline.findIndex(
      (e) => e.kind === 'safety' && 'json' in (e.answer as object) && JSON.stringify(e.answer).includes('pressed'),
    );
    const cancel = s.timeline.findIndex((e) => e.kind === 'cancel');
    expect(s.timeline.slice(firstPressed + 1, cancel).filter((e) => e.kind === 'safety').length).toBeLessThanOrEqual(1);
  });

  it('when the reading goes stale (robot.safety stops answering)', async () => {
    const s = await standIn({ safety: { json: { estop: { state: 'released', ageS: 0 }, maxAgeS: 0.5 } } });
    const { out } = await inFlight(s);
    s.set({ safety: 'hang' });
    const o = await out;
    expect(o).toMatchObject({ ok: false, code: 'aborted', summary: expect.stringMatching(/the e-stop reading is stale/) });
    expect(o.data).toMatchObject({ cancelConfirmed: true });
    expect(s.running()).toEqual([]);
  });

  it('when an answer loses a field (ageS)', async () => {
    const s = await standIn({ safety: released() });
    const { out } = await inFlight(s);
    s.set({ safety: { json: { estop: { state: 'released' }, maxAgeS: 2 } } });
    expect(await out).toMatchObject({ ok: false, code: 'aborted', summary: expect.stringMatching(/estop\.ageS/) });
    expect(s.running()).toEqual([]);
  });

  it('when the event stream drops', async () => {
    const s = await standIn({ safety: released() });
    const { out } = await inFlight(s);
    s.dropStreams();
    expect(await out).toMatchObject({ ok: false, code: 'aborted', summary: expect.stringMatching(/link to the robot is reconnecting/) });
    expect(s.running()).toEqual([]);
  });

  it('when the robot restarts: the cancel is tried on the restarted robot, which no longer has the job', async () => {
    const s = await standIn({ safety: released() });
    const { out } = await inFlight(s);
    await s.restart();
    const o = await out;
    expect(o.ok).toBe(false);
    expect(o.summary).toMatch(/no longer knows the job|did not reach/);
    expect(s.cancels().length).toBeGreaterThanOrEqual(1);
  });
});

describe('an event stream that says retry: 0', () => {
  it('waits from a floor, doubling, at least what the server asks, at most a cap', () => {
    expect(reconnectDelay(0, 0)).toBe(RETRY_FLOOR_MS);
    expect(reconnectDelay(3, 0)).toBe(RETRY_FLOOR_MS * 8);
    expect(reconnectDelay(40, 0)).toBeLessThanOrEqual(15_000);
    expect(reconnectDelay(0, 2000)).toBe(2000);
    expect(reconnectDelay(0, 10 * 60_000)).toBeLessThanOrEqual(15_000);
  });

  it('is reconnected with backoff, not in a loop (the stand-in counts the connections)', async () => {
    const s = await standIn({ retry: '0', stream: 'close' });
    const robot = await connect(s);
    robot.events.subscribe(() => undefined);
    // 2.5 s: the floor and its doublings (0.5, 1, 2 s) allow four connections; retry: 0 in a loop made hundreds.
    await sleep(2500);
    expect(s.connections()).toBeGreaterThanOrEqual(2);
    expect(s.connections()).toBeLessThanOrEqual(4);
  });
});
