// The robot HTTP API serves the camera: a robot whose info lists `camera` answers
// the camera.picture query with a PNG, and an HttpRobot on it has a camera that a
// model that sees can use (get_camera_image over the wire).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SafetyChain } from '../../agents/runtime/safety';
import { cameraTool } from '../../agents/tools/camera';
import { HttpRobot } from '../../robot/http/http-robot';
import { openRobot } from '../../robot/sources';
import { type RobotApiServer, startRobotApi } from './server';

type Opened = Awaited<ReturnType<typeof openRobot>> & { kind: 'sim' };

describe('robot-api: the camera', () => {
  let opened: Opened;
  let server: RobotApiServer;
  beforeAll(async () => {
    opened = (await openRobot({ kind: 'sim', scene: 'tabletop/fruits', seed: 1 })) as Opened;
    server = await startRobotApi({ robot: opened.robot, chain: new SafetyChain(opened.robot) });
  }, 60_000);
  afterAll(async () => {
    await server?.close();
    await opened?.close();
  });

  it('answers camera.picture with a PNG of the asked width, and refuses a width out of range', async () => {
    const q = (body: unknown) =>
      fetch(`${server.url}/v1/query/camera.picture`, {
        method: 'POST',
        headers: { authorization: `Bearer ${server.token}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    const ok = (await (await q({ width: 32 })).json()) as { value: { mimeType: string; data: string; width: number; height: number } };
    expect(ok.value).toMatchObject({ mimeType: 'image/png', width: 32, height: 24 });
    expect(Buffer.from(ok.value.data, 'base64').subarray(1, 4).toString()).toBe('PNG');
    const bad = await q({ width: 5000 });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: { message: string } }).error.message).toMatch(/width/);
  });

  it('gives an HttpRobot a camera the camera tool reads, with the picture as an image', async () => {
    const robot = await HttpRobot.open({ url: server.url, token: server.token });
    try {
      expect(robot.has('camera')).toBe(true);
      const r = await cameraTool().call({ width: 48 }, { robot, signal: new AbortController().signal, state: new Map() });
      expect(r.ok).toBe(true);
      expect(r.images?.[0]).toMatchObject({ mimeType: 'image/png', width: 48, height: 36 });
    } finally {
      robot.close();
    }
  });
});
