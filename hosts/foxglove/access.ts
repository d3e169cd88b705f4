// Who may watch the live Foxglove view. A viewer must show three things: the
// token (in the URL's query, `ws://127.0.0.1:8765/?token=…`, the only part of a
// connection Foxglove and Lichtblick let a person type; or `Authorization:
// Bearer`), a Host header naming this machine (a page that rebinds its own name
// to 127.0.0.1 is refused), and an Origin, when it sends one, from the
// allowlist below. Apart from live.ts so the CLI can check settings without
// loading the server.
import type { IncomingMessage } from 'node:http';
import { type ServerToken, bearer, sameToken } from '../../base/server-token';

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
