// The command line with real robots: robot-api in a child process, call
// --robot against it, the OpenAPI document it serves, and bad --robot input.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RobotApiProcess, startRobotApiProcess } from '../../test/support/robot-api-process';
import { main } from './main';

async function cli(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await main(argv, { out: (t) => (out += `${t}\n`), err: (t) => (err += `${t}\n`) });
  return { code, out, err };
}

describe('skillbridge with --robot', () => {
  let api: RobotApiProcess;
  const saved = process.env['SKILLBRIDGE_ROBOT_TOKEN'];
  beforeAll(async () => {
    api = await startRobotApiProcess(['--scene', 'tabletop/fruits', '--fast'], { SKILLBRIDGE_ROBOT_TOKEN: 'test-token-123-robot' });
  }, 90_000);
  afterAll(async () => {
    if (saved === undefined) delete process.env['SKILLBRIDGE_ROBOT_TOKEN'];
    else process.env['SKILLBRIDGE_ROBOT_TOKEN'] = saved;
    await api?.kill();
  });

  it('robot-api prints {url, token, openapi} and serves an OpenAPI 3.1 document of every query, skill and ALRM action', async () => {
    expect(api.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(api.token).toBe('test-token-123-robot');
    const doc = (await (await fetch(api.openapi)).json()) as { openapi: string; paths: Record<string, unknown> };
    expect(doc.openapi).toBe('3.1.0');
    for (const p of [
      '/v1/info',
      '/v1/events',
      '/v1/jobs/{id}',
      '/v1/jobs/{id}/cancel',
      '/v1/query/perception.detect',
      '/v1/skills/arm.pick',
      '/v1/skills/base.navigate',
    ])
      expect(doc.paths).toHaveProperty([p]);
    for (const a of ['pick', 'place', 'move_to_home_pos', 'move_to', 'get_objects', 'get_reference_names', 'compute_grasp', 'get_pose'])
      expect(doc.paths).toHaveProperty([`/${a}`]);
    const pick = (await fetch(`${api.url}/pick`, {
      method: 'POST',
      headers: { authorization: `Bearer ${api.token}` },
      body: '{"object_name":"durian"}',
    }).then((r) => r.json())) as {
      ok: boolean;
      result: string;
    };
    expect(pick.ok).toBe(false);
    expect(pick.result).toMatch(/durian/);
  });

  it('call --robot runs a tool on the robot and prints the facts as the robot perceives them', async () => {
    process.env['SKILLBRIDGE_ROBOT_TOKEN'] = api.token;
    const r = await cli('call', '--robot', api.url, '--set', 'alrm', 'pick', '{"object_name":"plum"}', '--json');
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    const out = JSON.parse(r.out) as { results: Array<{ ok: boolean; result: string }>; facts: string[] };
    expect(out.results[0]!.result).toMatch(/^Success/);
    expect(out.facts.join(' ')).toMatch(/hold\w*\(\w*,? ?plum_1\)/);
  });

  it('answers bad --robot input in one line with exit 2', async () => {
    process.env['SKILLBRIDGE_ROBOT_TOKEN'] = api.token;
    const bad = await cli('call', '--robot', 'ftp://x', 'get_objects');
    expect(bad).toMatchObject({
      code: 2,
      err: expect.stringMatching(/^skillbridge: --robot must be http:\/\/HOST:PORT .* or ws:\/\/HOST:PORT/),
    });
    expect(bad.err.trim().split('\n')).toHaveLength(1);
    const down = await cli('call', '--robot', 'http://127.0.0.1:1', 'get_objects', '--json');
    expect(down.code).toBe(2);
    expect(JSON.parse(down.out)).toMatchObject({ error: { code: 'usage', message: expect.stringMatching(/nothing is listening/) } });
    const wrong = await cli('run', '--robot', api.url, '--shadow', '--model', 'scripted:x.json', 'hi');
    expect(wrong).toMatchObject({ code: 2, err: expect.stringMatching(/--shadow needs --scene S/) });
    const ros = await cli('call', '--robot', 'ws://127.0.0.1:1', 'get_objects');
    expect(ros).toMatchObject({ code: 2, err: expect.stringMatching(/needs --mapping FILE/) });
    delete process.env['SKILLBRIDGE_ROBOT_TOKEN'];
    const token = await cli('call', '--robot', api.url, 'get_objects');
    expect(token).toMatchObject({ code: 2, err: expect.stringMatching(/set SKILLBRIDGE_ROBOT_TOKEN/) });
  });
});
