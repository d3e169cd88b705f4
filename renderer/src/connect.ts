// Finds the host: the desktop app's preload bridge, or the web-mode socket whose
// token came in the page URL (kept for reloads in sessionStorage, and removed
// from the address bar so it is not copied around by accident).
import type { AppApi } from '../../contract/api';
import { TOKEN_CHECK_PATH, TOKEN_HEADER, TOKEN_PARAM } from '../../contract/wire';
import { type SocketLike, type WsClient, connectWs, socketUrl } from '../../contract/ws-client';

export type Connection = { kind: 'desktop'; api: AppApi } | { kind: 'web'; api: WsClient } | { kind: 'no-token' };

const STORAGE_KEY = 'skillbridge.token';
/** This tab's session (web mode gives each tab its own); sessionStorage is per tab and survives a reload. */
const SESSION_KEY = 'skillbridge.session';

export function takeToken(loc: Location = window.location, store: Storage = window.sessionStorage): string | null {
  const params = new URLSearchParams(loc.search);
  const fromUrl = params.get(TOKEN_PARAM);
  if (fromUrl) {
    store.setItem(STORAGE_KEY, fromUrl);
    params.delete(TOKEN_PARAM);
    const rest = params.toString();
    window.history.replaceState(null, '', `${loc.pathname}${rest ? `?${rest}` : ''}${loc.hash}`);
    return fromUrl;
  }
  return store.getItem(STORAGE_KEY);
}

export async function connect(): Promise<Connection> {
  if (window.api) return { kind: 'desktop', api: window.api };
  const token = takeToken();
  if (!token) return { kind: 'no-token' };
  const store = window.sessionStorage;
  const api = await connectWs(
    // A tab reconnecting in the background says so from the start: its poses come at the hidden rate at once.
    socketUrl(window.location.href, token, store.getItem(SESSION_KEY) ?? undefined, document.visibilityState === 'hidden'),
    (url) => new WebSocket(url) as unknown as SocketLike,
  );
  const keep = (t: string | undefined): void => {
    if (t) store.setItem(SESSION_KEY, t);
  };
  keep(api.session?.session.token);
  api.onSession((s) => keep(s.session.token));
  return { kind: 'web', api };
}

/** The access token this tab was opened with (kept for reloads). */
export function storedToken(store: Storage = window.sessionStorage): string | null {
  return store.getItem(STORAGE_KEY);
}

/**
 * After the socket dropped: does the host answer, and does it still take this
 * tab's token? 'changed' means it restarted with a new one (the person needs the new link).
 */
export async function checkToken(token: string, base: string = window.location.origin): Promise<'ok' | 'changed' | 'down'> {
  try {
    const r = await fetch(`${base}${TOKEN_CHECK_PATH}`, { headers: { [TOKEN_HEADER]: token }, cache: 'no-store' });
    if (r.status === 204) return 'ok';
    if (r.status === 401) return 'changed';
    return 'down';
  } catch {
    return 'down';
  }
}

/** Waits before the n-th reconnection attempt: 1, 2, 4, 8 s, then every 10 s. */
export function backoffMs(attempt: number): number {
  return Math.min(10_000, 1000 * 2 ** Math.max(0, attempt));
}
