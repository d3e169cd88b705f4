// The live Foxglove WebSocket server, watched with the ws-protocol's own client:
// in process (channels and schemas, shapes on subscribe, poses that follow a
// pick, the camera, events as log lines) and as `skillbridge foxglove --script`
// in a real process, where the script runs once the viewer is connected.
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildToolSet } from '../../agents/tools/sets';
import { openSim } from '../../robot/sim/open';
import { frameOf, viewer } from '../../test/support/foxglove';
import { BIN } from '../../test/support/mcp';
import { startFoxgloveLive } from './live';
import { SimFeed, liveWorld, spacesFor } from './sim-feed';

const lemonOf = (m: unknown) => frameOf(m, 'lemon_1');

describe('Foxglove live server (in process)', () => {
  it('advertises the topics with schemas, sends shapes on subscribe, and poses, camera and events as the world changes', async () => {
    const { robot, control } = await openSim('tabletop/fruits');
    const feed = new SimFeed(control);
    const live = await startFoxgloveLive({ port: 0, worlds: [liveWorld(feed, robot, spacesFor([{ name: 'robot', feed }])[0]!)] });
    const v = viewer(live.url, ['/scene', '/tf', '/joint_states', '/camera/image', '/facts', '/log']);
    try {
      await expect.poll(() => v.channels.length).toBe(6);
      expect(v.channels.find((c) => c.topic === '/tf')).toMatchObject({
        encoding: 'json',
        schemaName: 'foxglove.FrameTransforms',
        schemaEncoding: 'jsonschema',
      });
      expect(JSON.parse(v.channels.find((c) => c.topic === '/scene')!.schema)).toHaveProperty('title', 'foxglove.SceneUpdate');
      await expect.poll(() => v.got.get('/scene')?.length ?? 0).toBeGreaterThan(0);
      expect((v.last('/scene') as { entities: Array<{ id: string }> }).entities.map((e) => e.id)).toContain('lemon_1');
      await expect.poll(() => lemonOf(v.last('/tf'))).toBeDefined();
      const before = lemonOf(v.last('/tf'))!;
      expect((v.last('/joint_states') as { joints: Array<{ name: string }> }).joints.map((j) => j.name)).toContain('shoulder');

      const pick = (await buildToolSet('alrm', robot)).get('pick')!;
      const r = await pick.call({ object_name: 'lemon' }, { robot, signal: new AbortController().signal, state: new Map() });
      expect(r.ok).toBe(true);
      await expect.poll(() => lemonOf(v.last('/tf'))!.y, { timeout: 5000 }).toBeGreaterThan(before.y + 0.08);

      await expect.poll(() => v.got.get('/camera/image')?.length ?? 0, { timeout: 5000 }).toBeGreaterThan(0);
      expect(
        Buffer.from((v.last('/camera/image') as { data: string }).data, 'base64')
          .subarray(1, 4)
          .toString(),
      ).toBe('PNG');
      await expect.poll(() => JSON.stringify(v.got.get('/facts') ?? []), { timeout: 5000 }).toContain('holding(robot, lemon_1)');
      control.inject({ type: 'estop_pressed' });
      await expect.poll(() => JSON.stringify(v.got.get('/log') ?? []), { timeout: 5000 }).toContain('estop');
      expect(live.clients()).toBe(1);
    } finally {
      v.client.close();
      await live.close();
      control.dispose();
    }
  }, 60_000);
});

describe('skillbridge foxglove --script (a real process)', () => {
  it('waits for a viewer, then runs the script in wall time while the viewer watches the lemon rise', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sb-fox-'));
    const script = join(dir, 'script.json');
    writeFileSync(script, JSON.stringify([{ tool: 'pick', args: { object_name: 'lemon' } }]));
    const child = spawn(process.execPath, [BIN, 'foxglove', '--scene', 'tabletop/fruits', '--port', '0', '--json', '--script', script], {
      stdio: 'pipe',
    });
    let out = '';
    let err = '';
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    const url = await new Promise<string>((resolve, reject) => {
      child.stdout.on('data', (d: Buffer) => {
        out += d.toString();
        const m = /"url":\s*"([^"]+)"/.exec(out);
        if (m) resolve(m[1]!);
      });
      child.once('exit', (code) => reject(new Error(`foxglove exited with ${code}: ${err}`)));
    });
    expect(url).toMatch(/^ws:\/\/127\.0\.0\.1:\d+\/\?token=[\w-]{43}$/);
    const v = viewer(url, ['/tf']);
    try {
      await expect.poll(() => lemonOf(v.last('/tf')), { timeout: 20_000 }).toBeDefined();
      const start = lemonOf(v.last('/tf'))!.y;
      await expect.poll(() => lemonOf(v.last('/tf'))!.y, { timeout: 30_000 }).toBeGreaterThan(start + 0.08);
      // It moved in wall time: many frames on the way up, not one jump.
      const heights = v.got.get('/tf')!.map((m) => lemonOf(m)!.y);
      expect(heights.filter((y) => y > start + 0.005 && y < start + 0.08).length).toBeGreaterThan(3);
    } finally {
      v.client.close();
      const code = await new Promise<number | null>((resolve) => {
        child.once('exit', resolve);
        child.kill('SIGTERM');
      });
      expect(code).toBe(0);
    }
  }, 90_000);
});
