// robot-api's doors: a job whose waiting client went away is cancelled, the
// robot's e-stop cancels running jobs, and names that are Object.prototype's
// own (__proto__, constructor) are unknown names (4xx), not a crash (500).
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SafetyChain } from '../../agents/runtime/safety';
import type { Outcome, Robot, RobotEvent } from '../../robot/robot';
import { openRobot } from '../../robot/sources';
import { Jobs } from './jobs';
import { type RobotApiServer, startRobotApi } from './server';

type Opened = Awaited<ReturnType<typeof openRobot>> & { kind: 'sim' };

describe('robot-api jobs and names', () => {
  let opened: Opened;
  let server: RobotApiServer;
  let ticker: ReturnType<typeof setInterval>;
  beforeAll(async () => {
    opened = (await openRobot({ kind: 'sim', scene: 'tabletop/fruits', seed: 1 })) as Opened;
    opened.sim.pace(true);
    ticker = setInterval(() => opened.sim.tick(performance.now()), 1000 / 60);
    server = await startRobotApi({ robot: opened.robot, chain: new SafetyChain(opened.robot) });
  }, 60_000);
  afterAll(async () => {
    clearInterval(ticker);
    await server?.close();
    await opened?.close();
  });

  const call = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${server.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${server.token}`, 'content-type': 'application/json' },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    return { status: res.status, body: (await res.json()) as { job?: { id: string; status: string } } };
  };

  it('answers 404 for skills and queries named after Object.prototype', async () => {
    for (const p of ['/v1/skills/__proto__', '/v1/skills/constructor', '/v1/query/__proto__', '/v1/query/toString'])
      expect((await call('POST', p, {})).status).toBe(404);
  });

  it('cancels a job whose client gave up waiting for it', async () => {
    const started = await call('POST', '/v1/skills/robot.wait', { seconds: 30 });
    const id = started.body.job!.id;
    expect(started.body.job!.status).toBe('running');
    await new Promise<void>((resolve) => {
      const req = request(`${server.url}/v1/jobs/${id}?wait=20`, { headers: { authorization: `Bearer ${server.token}` } });
      req.on('error', () => resolve());
      req.end();
      setTimeout(() => {
        req.destroy();
        resolve();
      }, 300);
    });
    await expect.poll(async () => (await call('GET', `/v1/jobs/${id}`)).body.job!.status, { timeout: 5000 }).toBe('cancelled');
  });
});

describe('robot-api jobs on the robot e-stop', () => {
  it('cancels every running job when the robot reports its e-stop', async () => {
    let listener: (e: RobotEvent) => void = () => undefined;
    const robot = {
      events: { subscribe: (l: (e: RobotEvent) => void) => ((listener = l), () => undefined) },
      time: async () => 0,
    } as unknown as Robot;
    const jobs = new Jobs(robot, () => undefined);
    // A skill that does not see the e-stop itself: only its abort signal ends it.
    const untilAborted = (signal: AbortSignal) =>
      new Promise<Outcome>((resolve) =>
        signal.addEventListener('abort', () => resolve({ ok: false, code: 'aborted', summary: 'aborted' }), { once: true }),
      );
    const a = await jobs.start({ skill: 'robot.wait', args: { seconds: 60 } }, untilAborted);
    const b = await jobs.start({ skill: 'robot.wait', args: { seconds: 60 } }, untilAborted);
    listener({ id: 1, time: 0, type: 'estop_pressed', text: 'e-stop', data: {} } as RobotEvent);
    expect((await jobs.get(a.id, 1))!.status).toBe('cancelled');
    expect((await jobs.get(b.id, 1))!.status).toBe('cancelled');
    jobs.dispose();
  });
});
