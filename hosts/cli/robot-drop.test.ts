// A robot that drops mid-skill: `call --robot http://…` says why, marks the
// robot's state unknown, and exits 1 (a failure on the robot), never 70 (our bug).
import { afterAll, describe, expect, it } from 'vitest';
import { type RobotApiProcess, startRobotApiProcess } from '../../test/support/robot-api-process';
import { main } from './main';

async function cli(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await main(argv, { out: (t) => (out += `${t}\n`), err: (t) => (err += `${t}\n`) });
  return { code, out, err };
}

describe('call --robot when the robot drops mid-skill', () => {
  let api: RobotApiProcess | undefined;
  const saved = process.env['SKILLBRIDGE_ROBOT_TOKEN'];
  afterAll(async () => {
    if (saved === undefined) delete process.env['SKILLBRIDGE_ROBOT_TOKEN'];
    else process.env['SKILLBRIDGE_ROBOT_TOKEN'] = saved;
    await api?.kill();
  });

  it('is a failure with a reason and exit 1', async () => {
    api = await startRobotApiProcess(['--scene', 'tabletop/fruits', '--speed', '0.2'], { SKILLBRIDGE_ROBOT_TOKEN: 'drop-token-0000000' });
    process.env['SKILLBRIDGE_ROBOT_TOKEN'] = 'drop-token-0000000';
    const dying = api;
    // Warm up (modules load, the robot answers), then the robot dies while it picks.
    expect((await cli('call', '--robot', dying.url, '--set', 'alrm', 'get_objects')).code).toBe(0);
    setTimeout(() => void dying.kill(), 1500);
    const r = await cli('call', '--robot', dying.url, '--set', 'alrm', 'pick', '{"object_name":"plum"}');
    expect(r.err).not.toMatch(/internal error|bug/i);
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/✗ .*(lost the robot|could not be reached|dropped)/);
    expect(r.out).toMatch(/unknown/);
  }, 90_000);
});
