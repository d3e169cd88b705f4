// The `http` robot source against `skillbridge robot-api` in another process,
// and against a fake server that answers garbage, slowly, or drops the line.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeRobotServer, fakeInfo, sendJson, startFakeRobotServer } from '../../test/support/fake-robot-server';
import { type RobotApiProcess, startRobotApiProcess } from '../../test/support/robot-api-process';
import { RobotSourceError } from '../source';
import { openRobot } from '../sources';
import { RobotConnectionError } from './client';
import { HttpRobot } from './http-robot';

describe('the http robot source against robot-api in a child process', () => {
  let api: RobotApiProcess;
  beforeAll(async () => {
    api = await startRobotApiProcess(['--scene', 'tabletop/fruits', '--speed', '4']);
  }, 90_000);
  afterAll(async () => api?.kill());

  it('reads info, answers queries and runs skills as jobs, with the same outcomes as the simulator', async () => {
    const { robot, close } = await openRobot({ kind: 'http', url: api.url, token: api.token });
    expect(robot.info.scene.id).toBe('tabletop/fruits');
    expect(robot.has('arm')).toBe(true);
    expect(robot.base).toBeUndefined();
    expect(robot.perception.relations().length).toBeGreaterThan(3);
    const seen = (await robot.perception.detect()).map((d) => d.id);
    expect(seen).toContain('lemon_1');
    expect(await robot.perception.resolve('lemon')).toEqual({ ok: true, id: 'lemon_1', kind: 'object' });
    expect(await robot.perception.holding()).toBeUndefined();
    const grasp = await robot.arm!.graspPose('lemon_1');
    expect(grasp.ok).toBe(true);
    const picked = await robot.arm!.pick('lemon_1');
    expect(picked).toMatchObject({ ok: true });
    expect(await robot.perception.holding()).toBe('lemon_1');
    const placed = await robot.arm!.place({ kind: 'object', id: 'bowl_1' });
    expect(placed.ok).toBe(true);
    expect(await robot.perception.related('in', 'bowl_1')).toContain('lemon_1');
    // A query the robot cannot answer comes back as the robot's reason.
    await expect(robot.perception.related('levitating over', 'bowl_1')).rejects.toThrow(/unknown relation "levitating over"/);
    // A skill outside the workspace is refused by the server's safety chain, with the reason.
    const far = await robot.arm!.moveTool({ position: [50, 1, 0], tiltDeg: 0 });
    expect(far).toMatchObject({ ok: false, code: 'invalid_argument', summary: expect.stringMatching(/safety chain.*workspace/) });
    await close();
  }, 90_000);

  it('cancels a running skill on the robot when the call is aborted', async () => {
    const { robot, close } = await openRobot({ kind: 'http', url: api.url, token: api.token });
    const ctl = new AbortController();
    const t0 = performance.now();
    const waiting = robot.wait(120, ctl.signal);
    setTimeout(() => ctl.abort(), 400);
    const out = await waiting;
    expect(out).toMatchObject({ ok: false, code: 'aborted' });
    expect(performance.now() - t0).toBeLessThan(10_000);
    await close();
  }, 60_000);

  it('refuses a wrong token in one line naming the fix', async () => {
    await expect(openRobot({ kind: 'http', url: api.url, token: 'wrong' })).rejects.toThrow(/refused the token.*SKILLBRIDGE_ROBOT_TOKEN/);
  });

  it('reports a robot that dies mid-skill as a failed outcome that may have run part-way, and then every call says it is unreachable', async () => {
    const dying = await startRobotApiProcess(['--scene', 'tabletop/fruits']);
    const { robot, close } = await openRobot({ kind: 'http', url: dying.url, token: dying.token });
    const waiting = robot.wait(60);
    await new Promise((r) => setTimeout(r, 500));
    await dying.kill();
    const out = await waiting;
    expect(out).toMatchObject({ ok: false, code: 'skill_failure' });
    expect(out.summary).toMatch(/lost the robot while robot\.wait\(seconds=60\) was (starting or )?running.*may have stopped part-way/);
    await expect(robot.perception.detect()).rejects.toThrow(/could not be reached.*nothing is listening/);
    // A motion is not even posted: the robot's safety cannot be read.
    const pick = await robot.arm!.pick('lemon_1');
    expect(pick).toMatchObject({
      ok: false,
      code: 'refused',
      summary: expect.stringMatching(/was not sent to the robot: the link to the robot is down.*nothing is listening/),
    });
    await close();
  }, 90_000);
});

describe('the http robot source against a misbehaving server', () => {
  let fake: FakeRobotServer | undefined;
  afterAll(async () => fake?.close());

  it('names the field when the robot answers outside the protocol', async () => {
    fake = await startFakeRobotServer((_q, res) => sendJson(res, 200, fakeInfo({ capabilities: ['arm', 'teleport'] })));
    const err = await openRobot({ kind: 'http', url: fake.url, token: 't' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RobotSourceError);
    expect((err as Error).message).toMatch(/outside the protocol: info\.capabilities\.1: Invalid option/);
    await fake.close();
  });

  it('says so when the answer is not JSON at all', async () => {
    fake = await startFakeRobotServer((_q, res) => {
      res.writeHead(200, { 'Content-Type': 'text/html' });
      res.end('<html>hello</html>');
    });
    await expect(openRobot({ kind: 'http', url: fake.url, token: 't' })).rejects.toThrow(
      /something that is not JSON \(<html>hello<\/html>\)/,
    );
    await fake.close();
  });

  it('gives up on a slow robot after the timeout, naming the request', async () => {
    fake = await startFakeRobotServer((_q, res, path) => {
      if (path === '/v1/info') return sendJson(res, 200, fakeInfo());
      // Never answers queries.
    });
    const robot = await HttpRobot.open({ url: fake.url, token: 't', timeoutMs: 300 });
    const err = await robot.perception.detect().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RobotConnectionError);
    expect((err as RobotConnectionError).kind).toBe('timeout');
    expect((err as Error).message).toMatch(/did not answer POST \/v1\/query\/perception\.detect within 0\.3 s/);
    robot.close();
    await fake.close();
  });

  it('turns a job answer outside the schema and a dropped connection into failed outcomes', async () => {
    let n = 0;
    fake = await startFakeRobotServer((q, res, path) => {
      if (path === '/v1/info') return sendJson(res, 200, fakeInfo({ capabilities: ['arm', 'perception'] }));
      if (path === '/v1/query/robot.safety') return sendJson(res, 200, { value: { estop: { state: 'released', ageS: 0 }, maxAgeS: 2 } });
      if (path === '/v1/skills/arm.pick') return sendJson(res, 200, { job: { id: 'j1', status: 'levitating' } });
      if (path === '/v1/skills/arm.perceive')
        return sendJson(res, 202, {
          job: { id: 'j2', skill: 'arm.perceive', args: {}, status: 'running', progress: { elapsedS: 0 }, outcome: null },
        });
      if (path.startsWith('/v1/jobs/j2')) {
        if (q.method === 'GET') n++;
        res.socket?.destroy(); // the robot's server drops the line mid-skill
      }
    });
    const robot = await HttpRobot.open({ url: fake.url, token: 't', timeoutMs: 2000 });
    const garbage = await robot.arm!.pick('x');
    expect(garbage).toMatchObject({ ok: false, code: 'skill_failure', summary: expect.stringMatching(/outside the protocol: job\.skill/) });
    const dropped = await robot.arm!.perceive();
    expect(dropped).toMatchObject({
      ok: false,
      code: 'skill_failure',
      summary: expect.stringMatching(/lost the robot while arm\.perceive\(\) was running.*was dropped/),
    });
    expect(n).toBe(1);
    // The job may still run there: the cancel was tried.
    expect(fake.seen).toContain('POST /v1/jobs/j2/cancel');
    robot.close();
    await fake.close();
  });

  it('streams events to subscribers, drops malformed ones, and resumes after the last id when the stream breaks', async () => {
    const queries: string[] = [];
    let connects = 0;
    const ev = (id: number, type: string) =>
      `id: ${id}\nevent: robot\ndata: ${JSON.stringify({ id, time: id, type, text: type, data: {} })}\n\n`;
    fake = await startFakeRobotServer((q, res, path) => {
      if (path === '/v1/info') return sendJson(res, 200, fakeInfo());
      if (path !== '/v1/events') return;
      connects++;
      queries.push(new URL(q.url ?? '', 'http://x').search);
      res.writeHead(200, { 'Content-Type': 'text/event-stream' });
      if (connects === 1) {
        res.write(ev(1, 'estop_pressed'));
        res.write('event: robot\ndata: {not json\n\n');
        res.write(ev(2, 'person_said'));
        setTimeout(() => res.socket?.destroy(), 50);
      } else {
        res.write(ev(2, 'person_said')); // replayed: already seen
        res.write(ev(3, 'estop_released'));
      }
    });
    const robot = await HttpRobot.open({ url: fake.url, token: 't', timeoutMs: 2000 });
    const got: string[] = [];
    robot.events.subscribe((e) => got.push(`${e.id}:${e.type}`));
    for (let i = 0; i < 50 && got.length < 3; i++) await new Promise((r) => setTimeout(r, 50));
    expect(got).toEqual(['1:estop_pressed', '2:person_said', '3:estop_released']);
    expect(queries).toEqual(['', '?since=2']);
    robot.close();
    await fake.close();
  });

  it('rejects a bad connection form naming the field', async () => {
    await expect(openRobot({ kind: 'http', url: 'ftp://x', token: 't' })).rejects.toThrow(/robot url: must be an http:\/\/ URL/);
    await expect(openRobot({ kind: 'http', url: 'http://127.0.0.1:1', token: '' })).rejects.toThrow(
      /robot token: is empty: set SKILLBRIDGE_ROBOT_TOKEN/,
    );
    await expect(openRobot({ kind: 'http', url: 'http://127.0.0.1:1', token: 't' })).rejects.toThrow(
      /could not be reached for GET \/v1\/info: nothing is listening/,
    );
  });
});
