// `skillbridge mcp --robot URL`: a real robot (the robot HTTP API in a child
// process) served to an MCP client; approved calls run on that robot.
import { spawnSync } from 'node:child_process';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, type ElicitScript, stdioClient } from '../../test/support/mcp';
import { type RobotApiProcess, startRobotApiProcess } from '../../test/support/robot-api-process';

describe('skillbridge mcp --robot', () => {
  let api: RobotApiProcess;
  beforeAll(async () => {
    api = await startRobotApiProcess(['--scene', 'tabletop/fruits', '--fast'], { SKILLBRIDGE_ROBOT_TOKEN: 'mcp-token-456-robot' });
  }, 90_000);
  afterAll(async () => api?.kill());

  it('serves the real robot to an MCP client; an approved pick runs on it', async () => {
    const elicit: ElicitScript = { answers: [{ action: 'accept', content: { approve: true } }], asked: [] };
    const c = await stdioClient(['mcp', '--robot', api.url, '--set', 'alrm'], { elicit, env: { SKILLBRIDGE_ROBOT_TOKEN: api.token } });
    try {
      const names = (await c.client.listTools()).tools.map((t) => t.name);
      expect(names).toEqual(expect.arrayContaining(['pick', 'get_objects']));
      const pick = (await c.client.callTool({ name: 'pick', arguments: { object_name: 'lemon' } })) as CallToolResult;
      expect(elicit.asked[0]).toMatch(/about to run pick/);
      expect(pick.structuredContent).toMatchObject({ ok: true });
      const holding = await fetch(`${api.url}/v1/query/perception.holding`, {
        method: 'POST',
        headers: { authorization: `Bearer ${api.token}` },
        body: '{}',
      }).then((r) => r.text());
      expect(holding).toMatch(/lemon_1/);
    } finally {
      await c.close();
    }
  }, 60_000);

  it('answers a missing token in one line with exit 2, before any protocol starts', () => {
    const env = { ...process.env };
    delete env['SKILLBRIDGE_ROBOT_TOKEN'];
    const r = spawnSync(process.execPath, [BIN, 'mcp', '--robot', api.url], { env, encoding: 'utf8', timeout: 30_000 });
    expect(r.status).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr.trim().split('\n')).toEqual([expect.stringMatching(/set SKILLBRIDGE_ROBOT_TOKEN/)]);
  }, 30_000);
});
