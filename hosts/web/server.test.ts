import { mkdtempSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { readHeader } from '../../contract/frames';
import { type SocketLike, type WsClient, connectWs } from '../../contract/ws-client';
import { AppService } from '../service/app-service';
import { type WebServer, startWebServer } from './server';

const factory = (url: string): SocketLike => new WebSocket(url) as unknown as SocketLike;

function upgradeStatus(url: string, headers: Record<string, string> = {}): Promise<string> {
  return new Promise((resolve) => {
    const ws = new WebSocket(url, { headers });
    ws.on('open', () => {
      ws.close();
      resolve('open');
    });
    ws.on('unexpected-response', (_req, res) => resolve(String(res.statusCode)));
    ws.on('error', () => resolve('error'));
  });
}

function get(
  port: number,
  p: string,
  host = `127.0.0.1:${port}`,
): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path: p, headers: { Host: host } }, (res) => {
      let body = '';
      res.on('data', (d) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** Sessions as serve opens them, without a worker: a Session with the fruits scene loaded. */
async function openSession(): Promise<AppService> {
  const s = new AppService({ paced: false });
  await s.loadScene({ id: 'tabletop/fruits' });
  return s;
}

describe('web mode server', () => {
  let server: WebServer;
  let client: WsClient;
  const dir = mkdtempSync(path.join(tmpdir(), 'skillbridge-web-'));

  beforeAll(async () => {
    writeFileSync(path.join(dir, 'index.html'), '<!doctype html><title>t</title>');
    writeFileSync(path.join(tmpdir(), 'secret.txt'), 'no');
    server = await startWebServer({ openSession, staticDir: dir, port: 0 });
  });
  afterAll(async () => {
    client?.close();
    await server.close();
  });

  it('rejects the API socket without the token, or with a wrong one', async () => {
    const base = `ws://127.0.0.1:${server.port}/api`;
    expect(await upgradeStatus(base)).toBe('401');
    expect(await upgradeStatus(`${base}?token=${server.token.slice(1)}x`)).toBe('401');
    expect(await upgradeStatus(`${base}?token=${server.token}`)).toBe('open');
  });

  it('rejects sockets from another origin or host name (cross-site pages, DNS rebinding)', async () => {
    const ok = `ws://127.0.0.1:${server.port}/api?token=${server.token}`;
    expect(await upgradeStatus(ok, { Origin: 'http://evil.example' })).toBe('403');
    expect(await upgradeStatus(ok, { Host: `evil.example:${server.port}` })).toBe('403');
    expect(await upgradeStatus(`ws://127.0.0.1:${server.port}/other?token=${server.token}`)).toBe('403');
  });

  it('prints a URL on 127.0.0.1 that carries the token', () => {
    expect(server.url).toBe(`http://127.0.0.1:${server.port}/?token=${server.token}`);
    expect(server.token.length).toBeGreaterThanOrEqual(32);
  });

  it('serves the renderer with a CSP, and nothing outside its folder', async () => {
    const index = await get(server.port, '/');
    expect(index.status).toBe(200);
    expect(String(index.headers['content-security-policy'])).toContain("default-src 'self'");
    expect(index.headers['referrer-policy']).toBe('no-referrer');
    expect((await get(server.port, '/../secret.txt')).status).not.toBe(200);
    expect((await get(server.port, '/%2e%2e/secret.txt')).status).not.toBe(200);
    expect((await get(server.port, '/missing.js')).status).toBe(404);
    expect((await get(server.port, '/', 'attacker.example')).status).toBe(421);
  });

  it('carries the same AppApi over the socket: calls, validation, events and binary pose frames', async () => {
    client = await connectWs(`ws://127.0.0.1:${server.port}/api?token=${server.token}`, factory);
    const frames: Float32Array[] = [];
    client.onPoses((f) => frames.push(f));
    const scenes = await client.listScenes({});
    expect(scenes.map((s) => s.id)).toContain('tabletop/boxes');
    const meta = await client.currentScene({});
    expect(meta?.id).toBe('tabletop/fruits');
    const r = await client.callTool({ name: 'get_objects', args: {} });
    expect(r.ok).toBe(true);
    expect(r.content).toMatch(/lemon/);
    await expect(client.loadScene({ id: '' })).rejects.toMatchObject({ code: 'invalid_request' });
    await expect(client.run({ message: 'x', workflow: 'flat', model: 'm' })).rejects.toMatchObject({
      code: 'invalid_request',
      message: expect.stringMatching(/Bad model spec/),
    });
    expect((await client.listWorkflows({})).map((w) => w.id)).toContain('flat');
    await client.injectEvent({ type: 'object_moved', object: 'lemon_1', to: [0.35, 1.0, 0.1] });
    await new Promise((res) => setTimeout(res, 100));
    expect(frames.length).toBeGreaterThan(0);
    expect(readHeader(frames[frames.length - 1]!).generation).toBe(meta!.generation);
  });

  it('answers malformed messages with an error instead of dropping the connection', async () => {
    const ws = new WebSocket(`ws://127.0.0.1:${server.port}/api?token=${server.token}`);
    await new Promise((r) => ws.on('open', r));
    const reply = new Promise<string>((resolve) =>
      ws.on('message', (d, binary) => {
        if (!binary && (JSON.parse(String(d)) as { t: string }).t === 'reply') resolve(String(d));
      }),
    );
    ws.send(JSON.stringify({ t: 'call', id: 7, method: 'deleteEverything', request: {} }));
    const msg = JSON.parse(await reply) as { id: number; ok: boolean; error: { code: string; message: string } };
    expect(msg).toMatchObject({ id: 7, ok: false, error: { code: 'invalid_request' } });
    expect(msg.error.message).toMatch(/unknown method/);
    ws.close();
  });
});

describe('contract schemas', () => {
  it('accept a tool result without data (zod 4 treats a bare unknown key as required)', async () => {
    const { METHODS } = await import('../../contract/api');
    const r = METHODS.callTool.response.safeParse({ callId: 1, tool: 't', set: 's', ok: false, content: 'x', elapsedMs: 0, simSeconds: 0 });
    expect(r.success).toBe(true);
  });
});
