// A live Foxglove WebSocket server (the Foxglove ws-protocol, subprotocol
// foxglove.websocket.v1) on 127.0.0.1: Foxglove or Lichtblick connects to
// ws://127.0.0.1:PORT and watches simulated worlds as they move, on the same
// topics the MCAP export writes. Read-only: no client publishing, no services
// (Foxglove is for watching; commands go through MCP or the tools). Work is done
// only for topics someone subscribed to; poses go out when they change, with a
// heartbeat each second; the camera is rendered once a second while watched.
//
// A viewer must show three things before it sees anything: the token (in the
// URL's query, `ws://127.0.0.1:8765/?token=…`, the only part of a connection
// Foxglove and Lichtblick let a person type; or `Authorization: Bearer`), a Host
// header naming this machine (a page that rebinds its own name to 127.0.0.1 is
// refused), and an Origin, when it sends one, from the allowlist below.
import type { IncomingMessage } from 'node:http';
import { createRequire } from 'node:module';
import { WebSocketServer } from 'ws';
import { type ServerToken, bearer, sameToken, serverToken } from '../../base/server-token';
import type { SceneMeta } from '../../contract/schemas';
import {
  type Body,
  type ExtraFrame,
  LOG,
  ONE_WORLD,
  type Space,
  bodiesOf,
  compressedImage,
  frameTransforms,
  jointStates,
  logMessage,
  sceneUpdate,
  timeOf,
} from './messages';
import { TOPICS, type TopicKey, jsonSchemaOf } from './topics';

// The package is CommonJS whose named exports Node's ESM loader cannot see; require it.
const { FoxgloveServer } = createRequire(import.meta.url)('@foxglove/ws-protocol') as typeof import('@foxglove/ws-protocol');

/** One world to watch. `meta` may change (a reset); the server notices by its generation. */
export interface LiveWorld {
  space: Space;
  meta(): SceneMeta;
  frame(): Float32Array;
  camera?(): ExtraFrame;
  picture?(): string;
  facts?(): { time: number; facts: string[] };
  /** Robot events, as they happen. */
  onEvent?(listener: (e: { type: string; text: string }) => void): () => void;
}

export interface FoxgloveLive {
  /** The address to open in Foxglove or Lichtblick, token included. */
  url: string;
  port: number;
  token: ServerToken;
  clients(): number;
  close(): Promise<void>;
}

/**
 * Pages allowed to connect besides those that send no Origin (Foxglove desktop,
 * Node clients): Foxglove's web app, Foxglove and Lichtblick desktop (file://)
 * and a viewer served from this machine (a self-hosted Lichtblick), any port.
 */
export const FOXGLOVE_ORIGINS: readonly string[] = ['https://app.foxglove.dev', 'https://studio.foxglove.dev', 'file://'];
const LOOPBACK_ORIGIN = /^https?:\/\/(127\.0\.0\.1|localhost)(:\d{1,5})?$/;

/** Checks one extra allowed origin ("https://viewer.example:8443", or "null"); the error names the fix. */
export function parseOrigin(raw: string): string {
  const o = raw.trim();
  if (o === 'null' || o === 'file://') return o;
  let u: URL;
  try {
    u = new URL(o);
  } catch {
    throw new RangeError(`"${o}" is not an origin: write it as SCHEME://HOST[:PORT], e.g. https://viewer.example`);
  }
  if ((u.protocol !== 'https:' && u.protocol !== 'http:') || u.origin !== o)
    throw new RangeError(
      `"${o}" is not an origin: write it as SCHEME://HOST[:PORT] with no path, e.g. ${u.origin === 'null' ? 'https://viewer.example' : u.origin}`,
    );
  return o;
}

/** Why a viewer's handshake is refused, or undefined when it may connect. */
export function refusal(
  req: Pick<IncomingMessage, 'url' | 'headers'>,
  port: number,
  token: ServerToken,
  origins: readonly string[],
): { status: number; message: string } | undefined {
  // The request target as sent: read by hand, since a target like "//x" is no URL relative to a base.
  const target = req.url ?? '/';
  const q = target.indexOf('?');
  const path = q < 0 ? target : target.slice(0, q);
  const query = new URLSearchParams(q < 0 ? '' : target.slice(q + 1));
  if (path !== '/') return { status: 404, message: `no ${path.slice(0, 80)}: the live view is at ws://127.0.0.1:${port}/?token=…` };
  const host = req.headers.host ?? '';
  if (host !== `127.0.0.1:${port}` && host !== `localhost:${port}`)
    return { status: 421, message: `wrong Host header "${host.slice(0, 80)}": connect to ws://127.0.0.1:${port}` };
  const origin = req.headers.origin;
  if (origin !== undefined && !LOOPBACK_ORIGIN.test(origin) && !FOXGLOVE_ORIGINS.includes(origin) && !origins.includes(origin))
    return {
      status: 403,
      message: `pages from ${origin.slice(0, 80)} may not connect (allow one with SKILLBRIDGE_FOXGLOVE_ORIGINS=${origin.slice(0, 80)})`,
    };
  if (!sameToken(query.get('token') ?? bearer(req.headers.authorization), token))
    return { status: 401, message: `missing or wrong token: connect to the URL skillbridge printed (ws://127.0.0.1:${port}/?token=…)` };
  return undefined;
}

const LIVE_TOPICS: readonly TopicKey[] = ['scene', 'tf', 'joints', 'camera', 'facts', 'log'];

export async function startFoxgloveLive(o: {
  port: number;
  worlds: readonly LiveWorld[];
  rateHz?: number;
  log?: (l: string) => void;
  /** Default: a fresh random token (base/server-token.ts). */
  token?: ServerToken;
  /** Origins allowed besides FOXGLOVE_ORIGINS and this machine's pages (parseOrigin). */
  origins?: readonly string[];
}): Promise<FoxgloveLive> {
  const token = serverToken(o.token, 'SKILLBRIDGE_FOXGLOVE_TOKEN');
  const origins = (o.origins ?? []).map(parseOrigin);
  const server = new FoxgloveServer({ name: 'skillbridge', capabilities: [], supportedEncodings: ['json'] });
  const channels = new Map<TopicKey, number>();
  for (const key of LIVE_TOPICS) {
    const t = TOPICS[key];
    channels.set(
      key,
      server.addChannel({
        topic: t.topic,
        encoding: 'json',
        schemaName: t.schema,
        schema: JSON.stringify(jsonSchemaOf(t.schema)),
        schemaEncoding: 'jsonschema',
      }),
    );
  }
  const watched = new Set<number>();
  server.on('subscribe', (id) => {
    watched.add(id);
    // A new viewer needs the shapes at once, not at the next scene change.
    if (id === channels.get('scene')) for (const w of state) sendScene(w, false);
  });
  server.on('unsubscribe', (id) => watched.delete(id));
  server.on('error', (e) => o.log?.(`foxglove: ${e.message}`));
  const encoder = new TextEncoder();
  const send = (key: TopicKey, value: unknown) => {
    const id = channels.get(key)!;
    if (!watched.has(id)) return;
    server.sendMessage(id, BigInt(Date.now()) * 1_000_000n, encoder.encode(JSON.stringify(value)));
  };
  const isWatched = (key: TopicKey) => watched.has(channels.get(key)!);
  const now = () => timeOf(BigInt(Date.now()) * 1_000_000n);

  const state = o.worlds.map((w) => ({ w, generation: -1, bodies: [] as Body[], last: '', lastSent: 0, facts: '' }));
  const sendScene = (s: (typeof state)[number], replace: boolean) => {
    const meta = s.w.meta();
    s.generation = meta.generation;
    s.bodies = bodiesOf(meta);
    send('scene', sceneUpdate(meta, s.bodies, now(), s.w.space, replace));
  };
  const unsubscribe = o.worlds.map(
    (w) =>
      w.onEvent?.((e) => send('log', logMessage(LOG.WARNING, `${w.space.prefix || ''}robot`, `${e.type}: ${e.text}`, now()))) ??
      (() => undefined),
  );

  const tick = () => {
    for (const s of state) {
      const meta = s.w.meta();
      if (meta.generation !== s.generation) sendScene(s, s.generation !== -1);
      if (!isWatched('tf') && !isWatched('joints')) continue;
      const frame = s.w.frame();
      const key = Array.from(frame.subarray(5)).join(',');
      const t = Date.now();
      if (key === s.last && t - s.lastSent < 1000) continue;
      s.last = key;
      s.lastSent = t;
      const at = now();
      send('tf', frameTransforms(s.bodies, frame, at, s.w.camera ? [s.w.camera()] : [], s.w.space));
      const joints = jointStates(meta, frame, at);
      if (joints) send('joints', joints);
    }
  };
  const slow = () => {
    for (const s of state) {
      if (isWatched('camera') && s.w.picture) send('camera', compressedImage(s.w.picture(), now(), s.w.space));
      if (isWatched('facts') && s.w.facts) {
        const { time, facts } = s.w.facts();
        const text = facts.join('\n');
        if (text !== s.facts) {
          s.facts = text;
          send('facts', { timestamp: now(), time, facts });
        }
      }
    }
  };

  let port = 0;
  const wss = new WebSocketServer({
    host: '127.0.0.1',
    port: o.port,
    handleProtocols: (protocols) => server.handleProtocols(protocols),
    verifyClient: (info, cb) => {
      const no = refusal(info.req, port, token, origins);
      if (no) o.log?.(`foxglove: refused a viewer (${no.status}): ${no.message}`);
      cb(!no, no?.status, no?.message);
    },
    // A viewer sends small control messages only.
    maxPayload: 1024 * 1024,
  });
  await new Promise<void>((resolve, reject) => {
    wss.once('listening', resolve);
    wss.once('error', reject);
  });
  wss.on('error', (e) => o.log?.(`foxglove: ${e.message}`));
  let clients = 0;
  wss.on('connection', (conn, req) => {
    clients++;
    conn.on('close', () => clients--);
    conn.on('error', (e) => o.log?.(`foxglove client: ${e.message}`));
    server.handleConnection(conn, `${req.socket.remoteAddress ?? '?'}:${req.socket.remotePort ?? '?'}`);
  });
  const fast = setInterval(tick, 1000 / (o.rateHz ?? 20));
  const second = setInterval(slow, 1000);
  port = (wss.address() as { port: number }).port;
  return {
    url: `ws://127.0.0.1:${port}/?token=${token}`,
    port,
    token,
    clients: () => clients,
    close: async () => {
      clearInterval(fast);
      clearInterval(second);
      for (const u of unsubscribe) u();
      for (const c of wss.clients) c.terminate();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
    },
  };
}

export { ONE_WORLD };
