// The README's Python robot server (examples/robot-api/robot_server.py, standard
// library only) speaks the protocol well enough for the http robot source.
import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openRobot } from '../sources';

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
});
