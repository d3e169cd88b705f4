// Web mode: the built renderer over HTTP and the same AppApi over a WebSocket,
// on 127.0.0.1 only. The socket needs the random token printed in the start URL;
// the Host and Origin headers must name this server (no DNS rebinding, no other
// site's page driving the robot). Each socket (a browser tab) gets its own
// session (sessions.ts); its calls and streams are in connection.ts. Pose frames
// go out as binary messages, latest frame wins: a client that falls behind skips
// frames rather than queueing them.
import { readFile, stat } from 'node:fs/promises';
import { type IncomingMessage, type ServerResponse, createServer } from 'node:http';
import type { Duplex } from 'node:stream';
import path from 'node:path';
import { type WebSocket, WebSocketServer } from 'ws';
import { serverOptions, targetOf } from '../../base/http-limits';
import { type ServerToken, sameToken, serverToken } from '../../base/server-token';
import { MAX_REQUEST_BYTES } from '../../contract/limits';
import { CLOSE, SESSION_PARAM, TOKEN_CHECK_PATH, TOKEN_HEADER, TOKEN_PARAM, VIEW_PARAM, WS_PATH } from '../../contract/wire';
import { Connection, type Role } from './connection';
import { CLASS_GRACE_MS, type HostedSession, SessionLimitError, SessionPool } from './sessions';

export interface WebServerOptions {
  /** Opens a session with its own world, for a new tab (web mode: a physics worker). */
  openSession: () => Promise<HostedSession>;
  /** Sessions at once (default 6); a tab over the cap is told so. */
  maxSessions?: number;
  /** How long a session outlives its tab, so a reload reattaches it (default 20 s). */
  graceMs?: number;
  /** The renderer build (vite build output, with index.html). */
  staticDir: string;
  port?: number;
  /** Default: a fresh random token (base/server-token.ts). */
  token?: ServerToken;
  /**
   * Classroom mode: the groups' link gives each tab its own session and no view
   * of the others; the teacher's link (its own token) also lists every group's
   * session and watches any of them read-only.
   */
  classroom?: boolean;
  teacherToken?: ServerToken;
  log?: (line: string) => void;
}

export interface WebServer {
  url: string;
  /** Classroom mode: the teacher's link. */
  teacherUrl: string | null;
  port: number;
  token: string;
  readonly sessions: SessionPool;
  close(): Promise<void>;
}

const HOST = '127.0.0.1';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.wasm': 'application/wasm',
  '.woff2': 'font/woff2',
  '.map': 'application/json',
};

function csp(port: number): string {
  return [
    "default-src 'self'",
    "script-src 'self' 'wasm-unsafe-eval'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    `connect-src 'self' ws://${HOST}:${port} ws://localhost:${port}`,
    "worker-src 'self' blob:",
    "object-src 'none'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

export async function startWebServer(opts: WebServerOptions): Promise<WebServer> {
  const token = serverToken(opts.token, 'SKILLBRIDGE_WEB_TOKEN');
  const teacherToken = opts.classroom ? serverToken(opts.teacherToken, 'the teacher token') : null;
  if (teacherToken !== null && teacherToken === token) throw new RangeError('the teacher token must differ from the groups token');
  /** Which token a request carries: the tab's role, or null when it carries neither. */
  const roleOf = (given: string | null): Role | null => {
    if (sameToken(given, token)) return opts.classroom ? 'group' : 'solo';
    if (teacherToken && sameToken(given, teacherToken)) return 'teacher';
    return null;
  };
  const log = opts.log ?? (() => undefined);
  const root = path.resolve(opts.staticDir);
  let port = 0;
  const allowedHosts = (): Set<string> => new Set([`${HOST}:${port}`, `localhost:${port}`]);

  async function serveStatic(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const headers = {
      'X-Content-Type-Options': 'nosniff',
      // The token is in the page URL: never send it on in a Referer.
      'Referrer-Policy': 'no-referrer',
      'X-Frame-Options': 'DENY',
    };
    if (!allowedHosts().has(req.headers.host ?? '')) {
      res.writeHead(421, { ...headers, 'Content-Type': 'text/plain' }).end('wrong Host header\n');
      return;
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { ...headers, Allow: 'GET, HEAD' }).end();
      return;
    }
    let rel: string;
    try {
      rel = decodeURIComponent(new URL(req.url ?? '/', `http://${HOST}`).pathname);
    } catch {
      res.writeHead(400, headers).end();
      return;
    }
    if (rel === TOKEN_CHECK_PATH) {
      // A page that lost its socket asks whether its token still opens this server (it restarted with a new one?).
      const ok = roleOf(String(req.headers[TOKEN_HEADER] ?? '')) !== null;
      res.writeHead(ok ? 204 : 401, { ...headers, 'Cache-Control': 'no-store' }).end();
      return;
    }
    if (rel === '/' || rel === '') rel = '/index.html';
    const file = path.resolve(root, `.${rel}`);
    if (!file.startsWith(root + path.sep)) {
      res.writeHead(403, headers).end();
      return;
    }
    try {
      const s = await stat(file);
      if (!s.isFile()) throw new Error('not a file');
      const body = await readFile(file);
      const ext = path.extname(file);
      res.writeHead(200, {
        ...headers,
        'Content-Type': TYPES[ext] ?? 'application/octet-stream',
        'Cache-Control': rel.startsWith('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache',
        ...(ext === '.html' ? { 'Content-Security-Policy': csp(port) } : {}),
      });
      res.end(req.method === 'HEAD' ? undefined : body);
    } catch {
      if (rel === '/index.html') {
        res.writeHead(503, { ...headers, 'Content-Type': 'text/plain; charset=utf-8' });
        res.end(`The renderer is not built (no ${path.join(root, 'index.html')}). Run "npm run build:renderer", then reload.\n`);
      } else {
        res.writeHead(404, { ...headers, 'Content-Type': 'text/plain' }).end('not found\n');
      }
    }
  }

  // Pages send no bodies: a request's headers come within 10 s and the whole of it within 30 s, or it is dropped.
  const server = createServer(serverOptions({ headersTimeoutMs: 10_000, bodyTimeoutMs: 20_000 }), (req, res) => {
    serveStatic(req, res).catch((e: Error) => {
      log(`http error: ${e.message}`);
      if (!res.headersSent) res.writeHead(500).end();
    });
  });
  // The payload limit is in bytes; a bigger frame or invalid UTF-8 closes that socket (1009, 1007), never the server.
  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_REQUEST_BYTES });
  wss.on('error', (e) => log(`WebSocket server error: ${e.message}`));
  const pool = new SessionPool({
    open: opts.openSession,
    ...(opts.maxSessions !== undefined ? { max: opts.maxSessions } : {}),
    // A class keeps each group's session (its world and runs) through a closed laptop lid or a lost network for the lesson.
    ...(opts.graceMs !== undefined ? { graceMs: opts.graceMs } : opts.classroom ? { graceMs: CLASS_GRACE_MS } : {}),
    log,
  });

  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    // A client that resets mid-handshake must not take the server down with an unhandled 'error'.
    socket.on('error', (e) => log(`socket error during the handshake: ${e.message}`));
    const refuse = (status: number, why: string): void => {
      log(`refused a WebSocket: ${why}`);
      socket.write(`HTTP/1.1 ${status} ${status === 401 ? 'Unauthorized' : 'Forbidden'}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
      socket.destroy();
    };
    const url = targetOf(req.url, `http://${HOST}`);
    if (!url || url.pathname !== WS_PATH) return refuse(403, `path ${url?.pathname ?? String(req.url).slice(0, 80)}`);
    if (!allowedHosts().has(req.headers.host ?? '')) return refuse(403, `Host ${req.headers.host ?? '(none)'}`);
    const origin = req.headers.origin;
    if (origin !== undefined && !allowedHosts().has(origin.replace(/^http:\/\//, ''))) return refuse(403, `Origin ${origin}`);
    if (roleOf(url.searchParams.get(TOKEN_PARAM)) === null) return refuse(401, 'missing or wrong token');
    wss.handleUpgrade(req, socket, head, (ws) => wss.emit('connection', ws, req));
  });

  wss.on('connection', (ws: WebSocket, req: IncomingMessage) => {
    ws.on('error', (e) => log(`socket closed after an error: ${e.message}`));
    const params = new URL(req.url ?? '/', `http://${HOST}`).searchParams;
    const sessionToken = params.get(SESSION_PARAM);
    const role = roleOf(params.get(TOKEN_PARAM)) ?? 'group';
    // Messages that arrive while the session opens wait for it.
    ws.pause();
    pool
      .attach(sessionToken)
      .then(({ hosted, resumed }) => {
        const conn = new Connection(ws, pool, hosted, resumed, log, role, params.get(VIEW_PARAM) === 'hidden');
        hosted.clients.add(conn);
        // The tab may have gone while its session opened.
        if (ws.readyState !== ws.OPEN) pool.detach(conn, hosted);
        ws.resume();
      })
      .catch((e: unknown) => {
        const limit = e instanceof SessionLimitError;
        log(limit ? (e as Error).message : `a session did not open: ${(e as Error).message}`);
        // Resumed, or the peer's closing frame is never read and the close waits for its timeout.
        ws.resume();
        ws.close(limit ? CLOSE.tooManySessions : 1011, ((e as Error).message ?? 'the session did not open').slice(0, 120));
      });
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, HOST, () => resolve());
  });
  const addr = server.address();
  port = typeof addr === 'object' && addr ? addr.port : 0;
  return {
    url: `http://${HOST}:${port}/?${TOKEN_PARAM}=${token}`,
    teacherUrl: teacherToken ? `http://${HOST}:${port}/?${TOKEN_PARAM}=${teacherToken}` : null,
    port,
    token,
    sessions: pool,
    close: async () => {
      for (const c of wss.clients) c.terminate();
      wss.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await pool.closeAll();
    },
  };
}
