// Fairness between tabs in web mode: one tab flooding the host with calls does
// not hold back another tab's call, and a tab that keeps sending without reading
// its replies is told "too many requests". Sessions answer each call one event-loop
// turn later, as a session in a worker does.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { AppService } from '../service/app-service';
import { MAX_CALLS_QUEUED } from './connection';
import { type WebServer, startWebServer } from './server';

async function openSession(): Promise<AppService> {
  const s = new AppService({ paced: false });
  await s.loadScene({ id: 'tabletop/fruits' });
  // Each call is answered on a later turn of the event loop (a worker's round trip).
  return new Proxy(s, {
    get(target, key, receiver) {
      const v = Reflect.get(target, key, receiver) as unknown;
      if (typeof v !== 'function' || key === 'onEvent' || key === 'onPoses' || key === 'dispose') return v;
      return (...args: unknown[]) =>
        new Promise((resolve, reject) =>
          setImmediate(() => {
            Promise.resolve((v as (...a: unknown[]) => unknown).apply(target, args)).then(resolve, reject);
          }),
        );
    },
  });
}

interface Reply {
  t: string;
  id: number;
  ok: boolean;
  error?: { code: string; message: string };
}

async function open(server: WebServer): Promise<{ ws: WebSocket; replies: Reply[]; onReply: (f: (r: Reply) => void) => void }> {
  const ws = new WebSocket(`ws://127.0.0.1:${server.port}/api?token=${server.token}`);
  const replies: Reply[] = [];
  const listeners: Array<(r: Reply) => void> = [];
  ws.on('message', (d, binary) => {
    if (binary) return;
    const m = JSON.parse(String(d)) as Reply;
    if (m.t !== 'reply') return;
    replies.push(m);
    for (const l of listeners) l(m);
  });
  await new Promise((r) => ws.on('open', r));
  return { ws, replies, onReply: (f) => listeners.push(f) };
}

const call = (id: number, method: string) => JSON.stringify({ t: 'call', id, method, request: {} });

describe('fairness between tabs', () => {
  let server: WebServer;
  beforeAll(async () => {
    server = await startWebServer({ openSession, staticDir: mkdtempSync(path.join(tmpdir(), 'sb-fair-')), port: 0 });
  });
  afterAll(async () => {
    await server.close();
  });

  it("another tab's call is served before the flooding tab's remaining calls", async () => {
    const flood = await open(server);
    const other = await open(server);
    const N = 900;
    const firstFloodReply = new Promise<void>((r) => flood.onReply(() => r()));
    for (let i = 0; i < N; i++) flood.ws.send(call(i, 'getSimState'));
    await firstFloodReply;
    const otherReply = new Promise<number>((r) => other.onReply(() => r(flood.replies.length)));
    other.ws.send(call(1, 'getSimState'));
    const floodDoneBefore = await otherReply;
    await new Promise<void>((r) => {
      const check = () => (flood.replies.length >= N ? r() : setTimeout(check, 20));
      check();
    });
    expect(flood.replies.every((x) => x.ok)).toBe(true);
    // Served next to the flood, not behind it: most of the flood was still waiting.
    expect(floodDoneBefore).toBeLessThan(N / 2);
    flood.ws.close();
    other.ws.close();
  }, 60_000);

  it('a tab over its queue is answered "too many requests" at once, and its other calls still run', async () => {
    const tab = await open(server);
    const N = MAX_CALLS_QUEUED + 200;
    for (let i = 0; i < N; i++) tab.ws.send(call(i, 'getSimState'));
    await new Promise<void>((r) => {
      const check = () => (tab.replies.length >= N ? r() : setTimeout(check, 20));
      check();
    });
    const refused = tab.replies.filter((x) => !x.ok);
    expect(refused.length).toBeGreaterThan(0);
    expect(refused[0]!.error).toMatchObject({ code: 'busy', message: expect.stringMatching(/too many requests/) });
    expect(tab.replies.filter((x) => x.ok).length).toBeGreaterThanOrEqual(MAX_CALLS_QUEUED);
    tab.ws.close();
  }, 60_000);
});
