// Right after connecting, an HTTP robot's answers about the world wait (bounded)
// for its first state: a robot that has not received anything yet is never read
// as "none"; one that never reports says "not received yet".
import { afterEach, describe, expect, it } from 'vitest';
import { type FakeRobotServer, fakeInfo, sendJson, startFakeRobotServer } from '../../test/support/fake-robot-server';
import { HttpRobot } from './http-robot';

let fake: FakeRobotServer | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

/** A robot whose first state arrives `afterMs` after it starts (never, when undefined); until then it has seen nothing. */
async function lateRobot(afterMs: number | undefined): Promise<FakeRobotServer> {
  const t0 = Date.now();
  const ready = () => afterMs !== undefined && Date.now() - t0 >= afterMs;
  return startFakeRobotServer((_req, res, path) => {
    if (path === '/v1/info') return sendJson(res, 200, fakeInfo());
    if (path === '/v1/query/robot.safety')
      return sendJson(res, 200, {
        value: ready()
          ? { estop: { state: 'released', ageS: 0.1 }, maxAgeS: 2 }
          : { estop: { state: 'unknown', detail: 'no message received yet' }, maxAgeS: 2 },
      });
    if (path === '/v1/query/perception.snapshot') return sendJson(res, 200, { value: ready() ? ['on(lemon_1, table_1)'] : [] });
    sendJson(res, 404, { error: { code: 'not_found', message: path } });
  });
}

describe('an HTTP robot before its first state', () => {
  it('waits for the first state before answering about the world', async () => {
    fake = await lateRobot(800);
    const robot = await HttpRobot.open({ url: fake.url, token: 't', timeoutMs: 2000 });
    expect(await robot.perception.snapshot()).toEqual(['on(lemon_1, table_1)']);
  });

  it('says "not received yet" when no state comes, never an empty answer', async () => {
    fake = await lateRobot(undefined);
    const robot = await HttpRobot.open({ url: fake.url, token: 't', timeoutMs: 2000 });
    await expect(robot.perception.snapshot()).rejects.toThrow(/not received yet/);
  }, 20_000);
});
