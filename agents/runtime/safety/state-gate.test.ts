// The fail-closed safety state: motion only when the robot's e-stop is known,
// fresh and released (or declared not reported and accepted at start), and a
// battery it reports is known and fresh.
import { describe, expect, it } from 'vitest';
import { openSim } from '../../../robot/sim/open';
import type { Robot, SafetyState } from '../../../robot/robot';
import { interceptSkills } from '../../../robot/skills';
import { type SafetyDecision, SafetyChain } from './index';

/** The simulated robot with its safety state replaced by `state()`, counting the skills that reach it. */
async function robotWith(state: () => SafetyState, info: Partial<Robot['info']> = {}) {
  const { robot } = await openSim('tabletop/fruits');
  const reached: string[] = [];
  const inner = interceptSkills(robot, (c, _s, next) => {
    reached.push(c.skill);
    return next(c);
  });
  const r: Robot = { ...inner, info: { ...inner.info, ...info }, safety: async () => state() };
  return { robot: r, reached };
}

const released: SafetyState = { estop: { state: 'released', ageS: 0.1, freshness: 'fresh' }, maxAgeS: 2, link: 'up' };

describe('the fail-closed safety state', () => {
  it('refuses motion while the e-stop state is unknown, stale or not reported, naming why, and sends nothing', async () => {
    const cases: Array<[SafetyState, RegExp]> = [
      [{ estop: { state: 'unknown', freshness: 'unknown' }, maxAgeS: 2, link: 'up' }, /e-stop state unknown: no message received yet/],
      [
        { estop: { state: 'released', ageS: 7.2, freshness: 'stale' }, maxAgeS: 2, link: 'up' },
        /e-stop state stale: last 7\.2 s ago, max 2 s/,
      ],
      [
        { estop: { state: 'unknown', freshness: 'unknown', detail: 'could not read it' }, maxAgeS: 2, link: 'down' },
        /e-stop state unknown: could not read it; the link to the robot is down/,
      ],
      [{ estop: { state: 'pressed', ageS: 0, freshness: 'fresh' }, maxAgeS: 2, link: 'up' }, /emergency stop is pressed/],
      [{ estop: { state: 'not_reported', freshness: 'unknown' }, maxAgeS: 2, link: 'up' }, /does not report an e-stop.*--accept-no-estop/],
      [{ ...released, battery: { freshness: 'unknown' } }, /battery state unknown/],
      [{ ...released, battery: { percent: 80, ageS: 30, freshness: 'stale' } }, /battery state stale: last 30 s ago/],
    ];
    for (const [state, why] of cases) {
      const { robot, reached } = await robotWith(() => state);
      const chain = new SafetyChain(robot, { limits: { startupWaitS: 0.2 } });
      const decisions: SafetyDecision[] = [];
      const out = await chain.guard({ via: 'direct', report: (d) => decisions.push(d) }).arm!.pick('lemon_1');
      expect(out).toMatchObject({ ok: false, summary: expect.stringMatching(why) });
      expect(decisions.at(-1)).toMatchObject({ verdict: 'refuse', reason: expect.stringMatching(why) });
      expect(reached).toEqual([]);
      chain.dispose();
    }
  }, 60_000);

  it('runs motion once the state is known, fresh and released, and waits (bounded) for the first state', async () => {
    let state: SafetyState = { estop: { state: 'unknown', freshness: 'unknown' }, maxAgeS: 2, link: 'up' };
    const { robot, reached } = await robotWith(() => state);
    setTimeout(() => (state = released), 300);
    const chain = new SafetyChain(robot, { limits: { startupWaitS: 5 } });
    const out = await chain.guard({ via: 'direct' }).arm!.pick('lemon_1');
    expect(out.ok).toBe(true);
    expect(reached).toEqual(['arm.pick']);
  }, 30_000);

  it('allows a robot that declares no e-stop only when the person accepted it at start, recorded as a safety record', async () => {
    const state: SafetyState = { estop: { state: 'not_reported', freshness: 'unknown' }, maxAgeS: 2, link: 'up' };
    const { robot, reached } = await robotWith(() => state, { estop: 'not_reported' });
    const decisions: SafetyDecision[] = [];
    const chain = new SafetyChain(robot, { acceptNoEstop: true });
    const start = chain.startRecord({ via: 'direct', report: (d) => decisions.push(d) });
    expect(start).toMatchObject({
      skill: 'session',
      checks: ['estop'],
      reason: expect.stringMatching(/reports no e-stop state.*accepted/),
    });
    expect(await chain.guard({ via: 'direct' }).arm!.pick('lemon_1')).toMatchObject({ ok: true });
    expect(reached).toEqual(['arm.pick']);
    expect(decisions).toHaveLength(1);
    // Without the acceptance there is nothing to record and motion is refused.
    expect(new SafetyChain(robot).startRecord({ via: 'direct' })).toBeUndefined();
  }, 30_000);

  it('the simulator reports a fresh, known state', async () => {
    const { robot, control } = await openSim('tabletop/fruits');
    expect(await robot.safety()).toMatchObject({ estop: { state: 'released', freshness: 'fresh' }, link: 'up' });
    control.inject({ type: 'estop_pressed' });
    expect(await robot.safety()).toMatchObject({ estop: { state: 'pressed', freshness: 'fresh' } });
  }, 30_000);
});
