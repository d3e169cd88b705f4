// AppApi over the web-mode WebSocket. Shared by the renderer (browser
// WebSocket) and Node tools (the `ws` package), so it takes the socket
// constructor as a parameter and imports nothing but the contract.
import { type AppApi, AppApiError, type EventListener, type Invoke, METHODS, type PoseListener, describeZodError, makeAppApi } from './api';
import { ServerMessage, TOKEN_PARAM, WS_PATH } from './wire';

/** The part of the WebSocket API this client uses (browser and `ws` both have it). */
export interface SocketLike {
  binaryType: string;
  readyState: number;
  send(data: string): void;
  close(): void;
  onopen: ((ev: unknown) => void) | null;
  onclose: ((ev: { code: number; reason: string }) => void) | null;
  onerror: ((ev: unknown) => void) | null;
  onmessage: ((ev: { data: unknown }) => void) | null;
}

export type SocketFactory = (url: string) => SocketLike;

export interface WsClient extends AppApi {
  close(): void;
  /** Called when the connection drops (the host stopped, the token was refused). */
  onClose(listener: (reason: string) => void): () => void;
}

/** The socket URL for a page served by `skillbridge serve`, e.g. http://127.0.0.1:4317/?token=... */
export function socketUrl(httpBase: string, token: string): string {
  const u = new URL(httpBase);
  u.protocol = u.protocol === 'https:' ? 'wss:' : 'ws:';
  u.pathname = WS_PATH;
  u.search = `?${TOKEN_PARAM}=${encodeURIComponent(token)}`;
  u.hash = '';
  return u.toString();
}

export function connectWs(url: string, factory: SocketFactory, opts: { validate?: boolean } = {}): Promise<WsClient> {
  const validate = opts.validate ?? true;
  const ws = factory(url);
  ws.binaryType = 'arraybuffer';
  let nextId = 1;
  const pending = new Map<number, { method: string; resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  const poseListeners = new Set<PoseListener>();
  const eventListeners = new Set<EventListener>();
  const closeListeners = new Set<(reason: string) => void>();
  let closed: string | undefined;

  const invoke: Invoke = (method, request) =>
    new Promise((resolve, reject) => {
      if (closed !== undefined) {
        reject(new AppApiError('transport', `not connected to the host: ${closed}`));
        return;
      }
      const id = nextId++;
      pending.set(id, { method, resolve: resolve as (v: unknown) => void, reject });
      ws.send(JSON.stringify({ t: 'call', id, method, request: request ?? {} }));
    });

  ws.onmessage = (ev) => {
    if (ev.data instanceof ArrayBuffer) {
      const frame = new Float32Array(ev.data);
      for (const l of poseListeners) l(frame);
      return;
    }
    let parsed: ServerMessage;
    try {
      const r = ServerMessage.safeParse(JSON.parse(String(ev.data)));
      if (!r.success) return;
      parsed = r.data;
    } catch {
      return;
    }
    if (parsed.t === 'event') {
      for (const l of eventListeners) l(parsed.event);
      return;
    }
    const p = pending.get(parsed.id);
    if (!p) return;
    pending.delete(parsed.id);
    if (!parsed.ok) {
      p.reject(new AppApiError(parsed.error.code, parsed.error.message));
      return;
    }
    if (!validate) {
      p.resolve(parsed.value);
      return;
    }
    const schema = METHODS[p.method as keyof typeof METHODS].response;
    const v = schema.safeParse(parsed.value);
    if (v.success) p.resolve(v.data);
    else p.reject(new AppApiError('transport', `${p.method}: the host sent an unexpected reply (${describeZodError(v.error)})`));
  };

  const api = makeAppApi(
    invoke,
    (l) => {
      poseListeners.add(l);
      return () => poseListeners.delete(l);
    },
    (l) => {
      eventListeners.add(l);
      return () => eventListeners.delete(l);
    },
  );

  return new Promise((resolve, reject) => {
    let opened = false;
    ws.onopen = () => {
      opened = true;
      resolve({
        ...api,
        close: () => ws.close(),
        onClose: (l) => {
          closeListeners.add(l);
          return () => closeListeners.delete(l);
        },
      });
    };
    ws.onerror = () => {
      if (!opened)
        reject(
          new AppApiError(
            'transport',
            `cannot connect to ${url.replace(/token=[^&]+/, 'token=…')} (is "skillbridge serve" running, and is the token right?)`,
          ),
        );
    };
    ws.onclose = (ev) => {
      closed = ev.reason || `connection closed (code ${ev.code})`;
      for (const p of pending.values()) p.reject(new AppApiError('transport', `the host closed the connection: ${closed}`));
      pending.clear();
      if (!opened) reject(new AppApiError('transport', `the host refused the connection (${closed})`));
      for (const l of closeListeners) l(closed);
    };
  });
}
