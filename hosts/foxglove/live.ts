// A live Foxglove WebSocket server (the Foxglove ws-protocol, subprotocol
// foxglove.websocket.v1) on 127.0.0.1: Foxglove or Lichtblick connects to
// ws://127.0.0.1:PORT and watches simulated worlds as they move, on the same
// topics the MCAP export writes. Read-only: no client publishing, no services
// (Foxglove is for watching; commands go through MCP or the tools). Work is done
// only for topics someone subscribed to; poses go out when they change, with a
// heartbeat each second; the camera is rendered once a second while watched.
//
// A viewer must show the token, a Host header naming this machine and an
// allowed Origin before it sees anything (access.ts).
import { createRequire } from 'node:module';
import { WebSocketServer } from 'ws';
import { type ServerToken, serverToken } from '../../base/server-token';
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
import { parseOrigin, refusal } from './access';
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
