// What a page is told of a real robot's own e-stop and battery (serve --robot):
// each reading with its age and whether it is fresh, stale or unknown, so the
// page never draws an old value as current. The robot here is an HTTP robot
// whose answers the test sets.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { METHODS } from '../../contract/api';
import { type FakeRobotServer, fakeInfo, sendJson, startFakeRobotServer } from '../../test/support/fake-robot-server';
import { AppService } from './app-service';

const dir = mkdtempSync(join(tmpdir(), 'sb-robot-safety-'));
const services: AppService[] = [];

function service(robot?: { kind: 'http'; url: string; token: string }): AppService {
  const s = new AppService({ paced: false, traceDir: join(dir, 'traces'), scriptFiles: 'none', ...(robot ? { robot } : {}) });
  services.push(s);
  return s;
}

/** The answer as a page receives it: checked against the contract's schema. */
async function read(s: AppService) {
  return METHODS.getRobotSafety.response.parse(await s.getRobotSafety({}));
}

describe("the page's view of a real robot's safety readings", () => {
  let robot: FakeRobotServer;
  let safety: unknown = { value: { estop: { state: 'released', ageS: 0.2 }, battery: { percent: 63, ageS: 0.2 }, maxAgeS: 2 } };
  beforeAll(async () => {
    robot = await startFakeRobotServer((_req, res, path) => {
      if (path === '/v1/info') return sendJson(res, 200, fakeInfo());
      if (path === '/v1/events') return void res.writeHead(200, { 'Content-Type': 'text/event-stream' }).write(': open\n\n');
      if (path === '/v1/query/robot.safety')
        return safety === 404 ? sendJson(res, 404, { error: { code: 'not_found', message: path } }) : sendJson(res, 200, safety);
      sendJson(res, 404, { error: { code: 'not_found', message: path } });
    });
  });
  afterAll(async () => {
    for (const s of services) await s.dispose();
    await robot?.close();
  });

  it('is null for a session that drives only the simulator', async () => {
    expect(await read(service())).toBeNull();
  });

  it('carries fresh, then stale readings with their ages, and unknown when the robot cannot say', async () => {
    const s = service({ kind: 'http', url: robot.url, token: 't' });
    const fresh = await read(s);
    expect(fresh).toMatchObject({
      source: 'http',
      url: robot.url,
      link: 'up',
      maxAgeS: 2,
      estop: { state: 'released', freshness: 'fresh' },
      battery: { percent: 63, freshness: 'fresh' },
    });
    // The robot's last readings are 12 s old: still "released" and 63 %, but stale.
    safety = { value: { estop: { state: 'released', ageS: 12 }, battery: { percent: 63, ageS: 12 }, maxAgeS: 2 } };
    const stale = await read(s);
    expect(stale?.estop).toMatchObject({ state: 'released', freshness: 'stale' });
    expect(stale?.estop.ageS).toBeGreaterThanOrEqual(12);
    expect(stale?.battery).toMatchObject({ percent: 63, freshness: 'stale' });
    expect(stale?.battery?.ageS).toBeGreaterThanOrEqual(12);
    // Nothing received yet: no age, no value.
    safety = { value: { estop: { state: 'unknown', detail: 'no message yet' }, battery: {}, maxAgeS: 2 } };
    expect(await read(s)).toMatchObject({ estop: { state: 'unknown', freshness: 'unknown' }, battery: { freshness: 'unknown' } });
    // A robot that does not answer robot.safety: unknown, with the reason.
    safety = 404;
    const unread = await read(s);
    expect(unread?.estop).toMatchObject({ state: 'unknown', freshness: 'unknown', detail: expect.stringMatching(/robot\.safety/) });
    expect(unread?.battery).toBeUndefined();
  });

  it('says the e-stop is unknown and the link down when the robot does not open', async () => {
    const gone = await startFakeRobotServer(() => undefined);
    const url = gone.url;
    await gone.close();
    const s = service({ kind: 'http', url, token: 't' });
    expect(await read(s)).toMatchObject({
      link: 'down',
      estop: { state: 'unknown', freshness: 'unknown', detail: expect.stringMatching(/did not open/) },
    });
  });
});
