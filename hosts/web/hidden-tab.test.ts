// A hidden tab's pose stream: the page says its view is hidden and the host
// sends it poses at 2 Hz at most; the e-stop's reply and events still arrive;
// shown again, the newest pose goes at once and the full rate resumes. A feed of
// frames every 10 ms stands in for a moving world (a resting one only sends a
// heartbeat, which would not tell the rates apart). A loaded machine runs the
// feed's timer late: what a tab receives is compared with what its feed sent.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { PoseListener } from '../../contract/api';
import { VIEW_PARAM } from '../../contract/wire';
import { socketUrl } from '../../contract/ws-client';
import { AppService } from '../service/app-service';
import { HIDDEN_POSE_MS } from './connection';
import { type WebServer, startWebServer } from './server';

const FEED_MS = 10;
const feeds: Array<ReturnType<typeof setInterval>> = [];
/** Frames each session's feed has sent, in the order the sessions opened (a tab opens one). */
const sent: number[] = [];

async function openSession(): Promise<AppService> {
  // Paced as in the app (an unpaced world steps as fast as it can and starves the feed's timer).
  const s = new AppService({ paced: true });
  await s.loadScene({ id: 'tabletop/fruits' });
  const listeners = new Set<PoseListener>();
  const k = sent.push(0) - 1;
  feeds.push(
    setInterval(() => {
      const f = new Float32Array(8);
      f[0] = ++sent[k]!;
      for (const l of listeners) l(f);
    }, FEED_MS),
  );
  return new Proxy(s, {
    get(target, key, receiver) {
      if (key === 'onPoses')
        return (l: PoseListener) => {
          listeners.add(l);
          return () => listeners.delete(l);
        };
      return Reflect.get(target, key, receiver) as unknown;
    },
  });
}

interface Tab {
  ws: WebSocket;
  /** Its session's feed (index into `sent`). */
  feed: number;
  /** Arrival times of pose frames and of event messages. */
  poses: number[];
  events: Array<{ at: number; type: string }>;
  call(method: string, request: unknown): Promise<{ ok: boolean; value?: { ok: boolean } }>;
}

async function open(server: WebServer, url = `ws://127.0.0.1:${server.port}/api?token=${server.token}`): Promise<Tab> {
  const ws = new WebSocket(url);
  const tab: Tab = { ws, feed: -1, poses: [], events: [], call: () => Promise.reject(new Error('closed')) };
  let attached: () => void = () => undefined;
  const session = new Promise<void>((r) => (attached = r));
  const waiting = new Map<number, (r: { ok: boolean }) => void>();
  ws.on('message', (d, binary) => {
    if (binary) return void tab.poses.push(Date.now());
    const m = JSON.parse(String(d)) as { t: string; id: number; ok: boolean; event?: { type: string; event?: { type: string } } };
    // Its session is open (tabs are opened one at a time: the newest feed is its own).
    if (m.t === 'session') {
      tab.feed = sent.length - 1;
      attached();
    }
    if (m.t === 'event') tab.events.push({ at: Date.now(), type: m.event!.event?.type ?? m.event!.type });
    if (m.t === 'reply') waiting.get(m.id)?.(m);
  });
  let id = 0;
  tab.call = (method, request) =>
    new Promise((resolve) => {
      waiting.set(++id, resolve as (r: { ok: boolean }) => void);
      ws.send(JSON.stringify({ t: 'call', id, method, request }));
    });
  await session;
  return tab;
}

const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** Frames the tab received and frames its feed sent over `ms`. */
const framesIn = async (tab: Tab, ms: number): Promise<{ got: number; sent: number }> => {
  const [n, m] = [tab.poses.length, sent[tab.feed]!];
  await wait(ms);
  return { got: tab.poses.length - n, sent: sent[tab.feed]! - m };
};

describe('a hidden tab', () => {
  let server: WebServer;
  beforeAll(async () => {
    server = await startWebServer({ openSession, staticDir: mkdtempSync(path.join(tmpdir(), 'sb-hidden-')), port: 0 });
  });
  afterAll(async () => {
    for (const f of feeds) clearInterval(f);
    await server.close();
  });

  it('is sent poses at 2 Hz at most while hidden, its stop and events at once, and the full rate as soon as it shows', async () => {
    const tab = await open(server);
    const other = await open(server);
    // Visible: every frame (a few may be in flight at the window's edges).
    const visible = await framesIn(tab, 1000);
    expect(visible.sent).toBeGreaterThan(5);
    expect(visible.got).toBeGreaterThanOrEqual(visible.sent - 3);

    expect((await tab.call('setViewVisible', { visible: false })).ok).toBe(true);
    await wait(HIDDEN_POSE_MS);
    const hiddenMs = 2000;
    const hidden = await framesIn(tab, hiddenMs);
    expect(hidden.got).toBeLessThanOrEqual(hiddenMs / HIDDEN_POSE_MS + 1);
    expect(hidden.got).toBeGreaterThan(0);
    expect(hidden.sent).toBeGreaterThan(3 * (hiddenMs / HIDDEN_POSE_MS + 1));
    // Another tab of the same host keeps its full rate meanwhile.
    const shown = await framesIn(other, 500);
    expect(shown.got).toBeGreaterThanOrEqual(shown.sent - 3);

    // The e-stop is answered and its event arrives while the view is hidden.
    const events = tab.events.length;
    const stop = await tab.call('injectEvent', { type: 'estop_pressed' });
    expect(stop).toMatchObject({ ok: true, value: { ok: true } });
    for (let i = 0; i < 50 && !tab.events.slice(events).some((e) => e.type === 'estop_pressed'); i++) await wait(10);
    expect(tab.events.slice(events).map((e) => e.type)).toContain('estop_pressed');

    // Shown: the held pose goes with the reply, and the rate is back.
    const before = tab.poses.length;
    await tab.call('setViewVisible', { visible: true });
    expect(tab.poses.length).toBeGreaterThan(before);
    const back = await framesIn(tab, 1000);
    expect(back.got).toBeGreaterThanOrEqual(back.sent - 3);
    expect(back.sent).toBeGreaterThan(5);
    tab.ws.close();
    other.ws.close();
  }, 30_000);

  it('a tab that reconnects while hidden says so in its socket URL and is sent poses at 2 Hz from the start', async () => {
    // What the page does (renderer/src/connect.ts): the URL carries view=hidden while the tab cannot be seen.
    const url = socketUrl(`http://127.0.0.1:${server.port}/`, server.token, undefined, true);
    expect(new URL(url).searchParams.get(VIEW_PARAM)).toBe('hidden');
    const tab = await open(server, url);
    const hiddenMs = 2000;
    const hidden = await framesIn(tab, hiddenMs);
    expect(hidden.sent).toBeGreaterThan(3 * (hiddenMs / HIDDEN_POSE_MS + 1));
    expect(hidden.got).toBeLessThanOrEqual(hiddenMs / HIDDEN_POSE_MS + 1);
    // Shown: the full rate.
    await tab.call('setViewVisible', { visible: true });
    const back = await framesIn(tab, 1000);
    expect(back.got).toBeGreaterThanOrEqual(back.sent - 3);
    tab.ws.close();
  }, 30_000);

  it('a bad request names the field', async () => {
    const tab = await open(server);
    const r = (await tab.call('setViewVisible', { visible: 'no' })) as { ok: boolean; error?: { message: string } };
    expect(r.ok).toBe(false);
    expect(r.error?.message).toMatch(/visible/);
    tab.ws.close();
  });
});
