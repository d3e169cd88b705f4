// The README's Python robot server (examples/robot-api/robot_server.py, standard
// library only) speaks the protocol well enough for the http robot source.
import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openRobot } from '../sources';
import { openApiDocument } from './openapi';

const SERVER = path.resolve(import.meta.dirname, '../../examples/robot-api/robot_server.py');

describe('the Python example robot server', () => {
  let child: ChildProcess;
  let url = '';
  let token = '';
  beforeAll(async () => {
    child = spawn('python3', [SERVER, '--port', '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
    const first = await new Promise<string>((resolve, reject) => {
      let out = '';
      child.stdout!.on('data', (c: Buffer) => {
        out += c.toString();
        if (out.includes('\n')) resolve(out.split('\n')[0]!);
      });
      child.once('exit', (code) => reject(new Error(`python3 exited with ${code}`)));
    });
    ({ url, token } = JSON.parse(first) as { url: string; token: string });
  }, 30_000);
  afterAll(() => void child?.kill());

  it('opens as an http robot: info, queries, a skill as a job, a cancelled wait', async () => {
    const { robot, close } = await openRobot({ kind: 'http', url, token });
    expect(robot.info.name).toBe('My arm');
    expect((await robot.perception.detect()).map((d) => d.id)).toEqual(['lemon_1', 'bowl_1']);
    expect(await robot.perception.resolve('lemon')).toEqual({ ok: true, id: 'lemon_1', kind: 'object' });
    expect(await robot.arm!.pick('lemon_1')).toEqual({ ok: true, summary: 'picked lemon_1' });
    expect(await robot.perception.holding()).toBe('lemon_1');
    expect(await robot.arm!.pick('bowl_1')).toMatchObject({ ok: false, code: 'hand_full' });
    expect((await robot.arm!.place({ kind: 'object', id: 'bowl_1' })).ok).toBe(true);
    const ctl = new AbortController();
    setTimeout(() => ctl.abort(), 200);
    expect(await robot.wait(60, ctl.signal)).toMatchObject({ ok: false, code: 'aborted' });
    expect(robot.has('people')).toBe(false);
    expect(await robot.perception.basePose()).toEqual({ position: [0, 0, 0], yawDeg: 0 });
    await close();
  }, 30_000);

  const post = (p: string, body: unknown) =>
    fetch(`${url}${p}`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: JSON.stringify(body) });

  it('has an e-stop: pressed, robot.safety and the event stream say so and motion fails; released, motion runs again', async () => {
    const { robot, close } = await openRobot({ kind: 'http', url, token });
    const guarded = robot;
    const seen: string[] = [];
    robot.events.subscribe((e) => seen.push(e.type));
    expect(await robot.safety()).toMatchObject({ estop: { state: 'released', freshness: 'fresh' }, maxAgeS: 2 });
    expect((await post('/estop', { pressed: true })).status).toBe(200);
    for (let i = 0; i < 60 && !seen.includes('estop_pressed'); i++) await new Promise((r) => setTimeout(r, 50));
    expect(seen).toContain('estop_pressed');
    expect(await robot.safety()).toMatchObject({ estop: { state: 'pressed' } });
    expect(await guarded.arm!.moveToPosture('home')).toMatchObject({ ok: false, code: 'estop' });
    await post('/estop', { pressed: false });
    for (let i = 0; i < 60 && !seen.includes('estop_released'); i++) await new Promise((r) => setTimeout(r, 50));
    expect(await guarded.arm!.moveToPosture('home')).toMatchObject({ ok: true });
    await close();
  }, 30_000);

  it('answers bad arguments with 400 and unsupported skills with 501 before any job starts, as its OpenAPI document lists', async () => {
    const bad = await post('/v1/skills/arm.pick?wait=1', { object: 5 });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: { code: string } }).error.code).toBe('bad_request');
    const nan = await post('/v1/skills/arm.moveTool', { pose: { position: [0, 'x', 0], tiltDeg: 0 } });
    expect(nan.status).toBe(400);
    const none = await post('/v1/skills/base.navigate', { place: 'kitchen' });
    expect(none.status).toBe(501);
    expect((await post('/v1/query/people.around', {})).status).toBe(501);
    expect((await post('/v1/query/perception.pose', {})).status).toBe(400);
    const doc = openApiDocument() as { paths: Record<string, { post?: { responses: Record<string, unknown> } }> };
    for (const [path, codes] of [
      ['/v1/skills/arm.pick', ['200', '202', '400', '401', '501']],
      ['/v1/skills/base.navigate', ['501']],
      ['/v1/query/people.around', ['501', '400', '422']],
      ['/v1/query/robot.safety', ['200']],
    ] as const)
      for (const c of codes) expect(doc.paths[path]?.post?.responses, `${path} ${c}`).toHaveProperty([c]);
  }, 30_000);
});
