// AppApi over the web-mode WebSocket. Shared by the renderer (browser
// WebSocket) and Node tools (the `ws` package), so it takes the socket
// constructor as a parameter and imports nothing but the contract.
import {
  type AppApi,
  AppApiError,
  type EventListener,
  type Invoke,
  METHODS,
  type PoseListener,
  describeZodError,
  isMethodName,
  makeAppApi,
  parseRequest,
} from './api';
import { MAX_REPLY_BYTES, MAX_REQUEST_BYTES, formatBytes, utf8Bytes } from './limits';
import { CLOSE, SESSION_PARAM, ServerMessage, type SessionMessage, TOKEN_PARAM, VIEW_PARAM, WS_PATH } from './wire';

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

export type SessionState = Omit<SessionMessage, 't'>;

export interface WsClient extends AppApi {
  close(): void;
  /** Called when the connection drops (the host stopped, the token was refused). */
  onClose(listener: (reason: string) => void): () => void;
  /** This connection's session (web mode gives each tab its own), once the host has said. */
  readonly session: SessionState | undefined;
  /** Called when the host names the session, and when observing starts or stops. */
  onSession(listener: (s: SessionState) => void): () => void;
}

/**
 * The socket URL for a page served by `skillbridge serve`, e.g. http://127.0.0.1:4317/?token=...
 * `session` is the tab's session token, to reattach its session after a reload;
 * `hidden`: the page cannot be seen now (its poses start at the hidden rate).
 */
export function socketUrl(httpBase: string, token: string, session?: string, hidden = false): string {
  const u = new URL(httpBase);
  u.protocol = u.protocol === 'https:' ? 'wss:' : 'ws:';
  u.pathname = WS_PATH;
  u.search = `?${TOKEN_PARAM}=${encodeURIComponent(token)}${session ? `&${SESSION_PARAM}=${encodeURIComponent(session)}` : ''}${hidden ? `&${VIEW_PARAM}=hidden` : ''}`;
  u.hash = '';
  return u.toString();
}

/** Why the host closed a socket, as a person would read it. */
function closeReason(code: number, reason: string): string {
  if (code === CLOSE.tooBig) return `a message was over the size limit (the host accepts ${formatBytes(MAX_REQUEST_BYTES)} per message)`;
  if (code === CLOSE.badData) return 'a message was not valid UTF-8 text';
  return reason || `connection closed (code ${code})`;
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
  const sessionListeners = new Set<(s: SessionState) => void>();
  let session: SessionState | undefined;
  let closed: string | undefined;

  const invoke: Invoke = (method, request) =>
    new Promise((resolve, reject) => {
      if (closed !== undefined) {
        reject(new AppApiError('transport', `not connected to the host: ${closed}`));
        return;
      }
      let text: string;
      try {
        // Checked here as the host checks it: a bad or oversized call fails with the reason, the socket stays open.
        const body = isMethodName(method) ? parseRequest(method, request ?? {}) : (request ?? {});
        text = JSON.stringify({ t: 'call', id: nextId, method, request: body });
      } catch (e) {
        reject(e instanceof AppApiError ? e : new AppApiError('invalid_request', `${method}: ${(e as Error).message}`));
        return;
      }
      const bytes = utf8Bytes(text);
      if (bytes > MAX_REQUEST_BYTES) {
        reject(
          new AppApiError(
            'invalid_request',
            `${method}: the request is ${formatBytes(bytes)}, over the ${formatBytes(MAX_REQUEST_BYTES)} the host accepts per message`,
          ),
        );
        return;
      }
      const id = nextId++;
      pending.set(id, { method, resolve: resolve as (v: unknown) => void, reject });
      ws.send(text);
    });

  ws.onmessage = (ev) => {
    if (ev.data instanceof ArrayBuffer) {
      const frame = new Float32Array(ev.data);
      for (const l of poseListeners) l(frame);
      return;
    }
    let parsed: ServerMessage;
    try {
      const raw = String(ev.data);
      if (raw.length > MAX_REPLY_BYTES) return;
      const r = ServerMessage.safeParse(JSON.parse(raw));
      if (!r.success) return;
      parsed = r.data;
    } catch {
      return;
    }
    if (parsed.t === 'event') {
      for (const l of eventListeners) l(parsed.event);
      return;
    }
    if (parsed.t === 'session') {
      const state: SessionState = {
        session: parsed.session,
        observing: parsed.observing,
        ...(parsed.role ? { role: parsed.role } : {}),
        ...(parsed.label !== undefined ? { label: parsed.label } : {}),
      };
      session = state;
      ready();
      for (const l of sessionListeners) l(state);
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

  // The client is ready when the host has named its session (it may instead close: too many sessions).
  let ready = (): void => undefined;
  return new Promise((resolve, reject) => {
    let opened = false;
    ready = () => {
      if (opened) return;
      opened = true;
      resolve({
        ...api,
        close: () => ws.close(),
        onClose: (l) => {
          closeListeners.add(l);
          return () => closeListeners.delete(l);
        },
        get session() {
          return session;
        },
        onSession: (l) => {
          sessionListeners.add(l);
          return () => sessionListeners.delete(l);
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
      closed = closeReason(ev.code, ev.reason);
      for (const p of pending.values()) p.reject(new AppApiError('transport', `the host closed the connection: ${closed}`));
      pending.clear();
      if (!opened) reject(new AppApiError('transport', `the host refused the connection (${closed})`));
      for (const l of closeListeners) l(closed);
    };
  });
}
