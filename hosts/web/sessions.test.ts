// Web mode cannot be broken from a page: an oversized or invalid frame closes
// that socket only, each tab has its own session (a reload reattaches it, a gone
// tab's session closes after the grace period), the session count is capped,
// and observing another session is explicit and read-only.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { AppEvent } from '../../contract/schemas';
import { type SocketLike, type WsClient, connectWs } from '../../contract/ws-client';
import { AppService } from '../service/app-service';
import { type WebServer, startWebServer } from './server';

const factory = (url: string): SocketLike => new WebSocket(url) as unknown as SocketLike;
const dir = mkdtempSync(path.join(tmpdir(), 'skillbridge-web-'));
writeFileSync(path.join(dir, 'index.html'), '<!doctype html><title>t</title>');

let server: WebServer | undefined;
const clients: WsClient[] = [];
let disposed = 0;

async function start(opts: { maxSessions?: number; graceMs?: number } = {}): Promise<WebServer> {
  server = await startWebServer({
    openSession: async () => {
      const s = new AppService({ paced: false });
      await s.loadScene({ id: 'tabletop/fruits' });
      const dispose = s.dispose.bind(s);
      s.dispose = async () => {
        disposed++;
        await dispose();
      };
      return s;
    },
    staticDir: dir,
    port: 0,
    ...opts,
  });
  return server;
}

const base = (): string => `ws://127.0.0.1:${server!.port}/api?token=${server!.token}`;

async function tab(sessionToken?: string): Promise<WsClient> {
  const c = await connectWs(`${base()}${sessionToken ? `&session=${sessionToken}` : ''}`, factory);
  clients.push(c);
  await until(() => c.session !== undefined);
  return c;
}

async function until(cond: () => boolean, ms = 5000): Promise<void> {
  const t0 = Date.now();
  while (!cond()) {
    if (Date.now() - t0 > ms) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** A raw socket: open, then resolves with its close code and reason. */
function raw(send: (ws: WebSocket) => void): Promise<{ code: number; reason: string }> {
  return new Promise((resolve) => {
    const ws = new WebSocket(base());
    ws.on('error', () => undefined);
    ws.on('open', () => send(ws));
    ws.on('close', (code, reason) => resolve({ code, reason: String(reason) }));
  });
}

afterEach(async () => {
  for (const c of clients.splice(0)) c.close();
  await server?.close();
  server = undefined;
  disposed = 0;
});

describe('web mode sockets and limits', () => {
  it('a frame over 1 MiB closes that socket (1009) and the server keeps serving', async () => {
    await start();
    const r = await raw((ws) => ws.send('x'.repeat(1024 * 1024 + 10)));
    expect(r.code).toBe(1009);
    const c = await tab();
    expect((await c.listScenes({})).length).toBeGreaterThan(0);
  });

  it('a text frame with invalid UTF-8 closes that socket (1007) and the server keeps serving', async () => {
    await start();
    const r = await raw((ws) => ws.send(Buffer.from([0x7b, 0xff, 0xfe, 0x7d]), { binary: false }));
    expect(r.code).toBe(1007);
    const c = await tab();
    expect((await c.getSnapshot({})).sceneId).toBe('tabletop/fruits');
  });

  it('the client refuses an oversized request before sending it, naming the size in bytes; the socket stays open', async () => {
    await start();
    const c = await tab();
    // 500 k three-byte characters: under the old character limit, over the byte limit.
    await expect(c.importTrace({ text: '\u20ac'.repeat(500_000) })).rejects.toMatchObject({
      code: 'invalid_request',
      message: expect.stringMatching(/the trace is over 879 KiB \(UTF-8\)/),
    });
    await expect(c.run({ message: 'x', workflow: 'flat', model: 'scripted:x.json', script: 'y'.repeat(300_000) })).rejects.toMatchObject({
      message: expect.stringMatching(/script is over 256 KiB/),
    });
    expect((await c.listScenes({})).length).toBeGreaterThan(0);
  });

  it('event injection refuses positions outside the world and non-finite numbers', async () => {
    await start();
    const c = await tab();
    await expect(c.injectEvent({ type: 'object_moved', object: 'lemon_1', to: [1e308, 0, 0] })).rejects.toMatchObject({
      code: 'invalid_request',
      message: expect.stringMatching(/to\.0/),
    });
    const ws = new WebSocket(base());
    await new Promise((r) => ws.on('open', r));
    const reply = new Promise<{ ok: boolean; error?: { message: string } }>((resolve) =>
      ws.on('message', (d, bin) => {
        const m = !bin && (JSON.parse(String(d)) as { t: string; ok: boolean; error?: { message: string } });
        if (m && m.t === 'reply') resolve(m);
      }),
    );
    // JSON.parse reads 1e999 as Infinity.
    ws.send('{"t":"call","id":1,"method":"injectEvent","request":{"type":"set_battery","percent":1e999}}');
    expect((await reply).ok).toBe(false);
    ws.close();
  });
});

describe('one session per tab', () => {
  it('a second tab has its own world and does not see the events of the first', async () => {
    await start();
    const a = await tab();
    const b = await tab();
    expect(a.session!.session.id).not.toBe(b.session!.session.id);
    const seenByB: AppEvent[] = [];
    b.onEvent((e) => seenByB.push(e));
    await a.loadScene({ id: 'tabletop/boxes' });
    await a.injectEvent({ type: 'person_said', text: 'hello from tab A' });
    await new Promise((r) => setTimeout(r, 100));
    expect(seenByB).toEqual([]);
    expect((await b.getSnapshot({})).sceneId).toBe('tabletop/fruits');
    // B cannot answer A's approvals or stop A's run: they are not in its session.
    expect(await b.stop({})).toMatchObject({ ok: false });
    expect(await b.answerApproval({ id: 'approval-1', decision: 'approve' })).toMatchObject({ ok: false });
  });

  it('a reload within the grace period reattaches the session; after it the session closes', async () => {
    // Long enough that a reconnect on a loaded machine lands inside it.
    await start({ graceMs: 1_500 });
    const a = await tab();
    const { id, token } = a.session!.session;
    await a.loadScene({ id: 'tabletop/boxes' });
    a.close();
    await new Promise((r) => setTimeout(r, 50));
    const again = await tab(token);
    expect(again.session!.session).toMatchObject({ id, resumed: true });
    expect((await again.getSnapshot({})).sceneId).toBe('tabletop/boxes');
    again.close();
    await until(() => disposed === 1);
    const later = await tab(token);
    expect(later.session!.session.resumed).toBe(false);
    expect(later.session!.session.id).not.toBe(id);
  });

  it('a reload whose new socket arrives before the old one closes still reattaches; a duplicated tab gets a new session', async () => {
    await start({ graceMs: 60_000 });
    const a = await tab();
    const { id, token } = a.session!.session;
    await a.loadScene({ id: 'tabletop/boxes' });
    // The new connection first, the old tab's close a moment later (as on a loaded machine).
    const reloaded = tab(token);
    setTimeout(() => a.close(), 200);
    const again = await reloaded;
    expect(again.session!.session).toMatchObject({ id, resumed: true });
    expect((await again.getSnapshot({})).sceneId).toBe('tabletop/boxes');
    // A second tab with the same token while the first stays open is a duplicate: its own session.
    const dup = await tab(token);
    expect(dup.session!.session.resumed).toBe(false);
    expect(dup.session!.session.id).not.toBe(id);
  });

  it('caps the sessions with a clear message; a session waiting for its reload makes room', async () => {
    await start({ maxSessions: 2, graceMs: 60_000 });
    const a = await tab();
    await tab();
    await expect(tab()).rejects.toMatchObject({ message: expect.stringMatching(/at most 2 sessions/) });
    a.close();
    await new Promise((r) => setTimeout(r, 50));
    const c = await tab();
    expect(c.session!.session.resumed).toBe(false);
    expect(disposed).toBe(1);
  });

  it('observing another session is explicit and read-only', async () => {
    await start();
    const a = await tab();
    const b = await tab();
    const list = await b.listSessions({});
    expect(list.map((s) => [s.id, s.own])).toEqual([
      [a.session!.session.id, false],
      [b.session!.session.id, true],
    ]);
    const r = await b.observeSession({ id: a.session!.session.id });
    expect(r).toMatchObject({ ok: true, observing: a.session!.session.id });
    await until(() => b.session!.observing === a.session!.session.id);
    const seen: AppEvent[] = [];
    b.onEvent((e) => seen.push(e));
    await a.injectEvent({ type: 'estop_pressed' });
    await until(() => seen.some((e) => e.type === 'robot_event'));
    expect((await b.getSnapshot({})).estop).toBe(true);
    for (const call of [
      () => b.callTool({ name: 'get_objects', args: {} }),
      () => b.injectEvent({ type: 'estop_released' }),
      () => b.loadScene({ id: 'farm' }),
      () => b.stop({}),
      () => b.answerApproval({ id: 'approval-1', decision: 'approve' }),
      () => b.run({ message: 'x', workflow: 'flat', model: 'ollama:x' }),
      () => b.probeModel({ spec: 'ollama:x' }),
    ])
      await expect(call()).rejects.toMatchObject({ code: 'forbidden', message: expect.stringMatching(/read-only/) });
    expect((await a.getSnapshot({})).estop).toBe(true);
    expect(await b.observeSession({ id: null })).toMatchObject({ ok: true, observing: null });
    expect((await b.getSnapshot({})).estop).toBe(false);
    expect(await b.observeSession({ id: 's99' })).toMatchObject({ ok: false });
  });
});
