// Streamable HTTP on 127.0.0.1, at /mcp. Each client session gets its own MCP
// server object over the shared fleet (one robot, many watchers). Every request
// needs the bearer token printed at start (as web mode and robot-api do: any
// local process could otherwise connect, declare elicitation and approve its own
// calls); sessions are capped (the one over the cap is told so, and when a slot
// frees) and those idle longer than the idle limit are closed. Requests whose
// Host or Origin is not this machine are refused (DNS rebinding), bodies over the
// limit get 413 at once (from their Content-Length, before reading), a request
// trickled past the read time gets 408, and a body that is not JSON gets a
// JSON-RPC parse error.
import { randomUUID } from 'node:crypto';
import { type IncomingMessage, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { BodyLimitError, type ReadLimits, answerClientErrors, closeAfter, readBody, serverOptions, targetOf } from '../../base/http-limits';
import { type ServerToken, bearer, sameToken, serverToken } from '../../base/server-token';
import { MAX_MESSAGE_BYTES } from './stdio';

export interface McpHttpServer {
  url: string;
  port: number;
  /** The bearer token every request must carry. */
  token: string;
  sessions(): number;
  close(): Promise<void>;
}

const DEFAULT_IDLE_MS = 30 * 60_000;
export const DEFAULT_MAX_SESSIONS = 32;
/** A JSON-RPC message is small; the headers and body of one request come within seconds. */
const READ_TIMES = { headersTimeoutMs: 10_000, bodyTimeoutMs: 30_000 };

const errorBody = (code: number, message: string): string => JSON.stringify({ jsonrpc: '2.0', id: null, error: { code, message } });

function jsonError(res: ServerResponse, status: number, code: number, message: string, headers: Record<string, string> = {}): void {
  if (res.headersSent) return;
  // An answer before the body was read ends the connection: the rest is never read.
  if (!res.req.complete) closeAfter(res);
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(errorBody(code, message));
}

export async function startMcpHttp(o: {
  port: number;
  makeServer: () => McpServer;
  log?: (line: string) => void;
  maxBytes?: number;
  /** Default: a fresh random token (base/server-token.ts). */
  token?: ServerToken;
  /** A session with no request for this long is closed (default 30 min). */
  idleMs?: number;
  /** Sessions open at once (default 32); an initialize over the cap gets 503. */
  maxSessions?: number;
  /** How long the headers and the body of one request may take to arrive. */
  readTimes?: Partial<Omit<ReadLimits, 'maxBodyBytes'>>;
}): Promise<McpHttpServer> {
  const max = o.maxBytes ?? MAX_MESSAGE_BYTES;
  const token = serverToken(o.token);
  const idleMs = o.idleMs ?? DEFAULT_IDLE_MS;
  const maxSessions = o.maxSessions ?? DEFAULT_MAX_SESSIONS;
  if (!Number.isSafeInteger(maxSessions) || maxSessions < 1)
    throw new RangeError(`maxSessions must be a whole number of at least 1, got ${maxSessions}`);
  const limits: ReadLimits = { maxBodyBytes: max, ...READ_TIMES, ...o.readTimes };
  const sessions = new Map<string, StreamableHTTPServerTransport>();
  const lastSeen = new Map<string, number>();
  /** Sessions whose initialize is being answered: they hold a slot before they have an id. */
  let opening = 0;
  /** Seconds until the longest-idle session is closed: when a client over the cap may try again. */
  const retryAfterS = (): number => {
    const now = Date.now();
    const soonest = Math.min(...[...lastSeen.values()].map((t) => t + idleMs - now));
    return Math.max(1, Math.ceil((Number.isFinite(soonest) ? soonest : idleMs) / 1000));
  };
  let port = o.port;
  const local = () => new Set([`127.0.0.1:${port}`, `localhost:${port}`]);

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const url = targetOf(req.url, 'http://127.0.0.1');
    if (!url) return jsonError(res, 400, -32600, 'Bad Request: the request target is not a path on this server');
    if (url.pathname !== '/mcp') return jsonError(res, 404, -32601, `no such path ${url.pathname}; the MCP endpoint is /mcp`);
    if (!local().has(req.headers.host ?? '')) return jsonError(res, 403, -32600, 'Forbidden: the Host header must be this machine');
    const origin = req.headers.origin;
    if (origin && ![...local()].some((h) => origin === `http://${h}`)) {
      return jsonError(res, 403, -32600, `Forbidden: requests from ${origin} are not allowed`);
    }
    if (!sameToken(bearer(req.headers.authorization), token))
      return jsonError(res, 401, -32001, 'Unauthorized: send "Authorization: Bearer TOKEN" (the token mcp --http printed)');
    const sid = req.headers['mcp-session-id'];
    const existing = typeof sid === 'string' ? sessions.get(sid) : undefined;
    if (existing && typeof sid === 'string') lastSeen.set(sid, Date.now());
    if (req.method !== 'POST') {
      if (!existing) return jsonError(res, 404, -32001, 'unknown or missing Mcp-Session-Id; start with an initialize request');
      return existing.handleRequest(req, res);
    }
    let text: string;
    try {
      text = (await readBody(req, limits)).toString('utf8');
    } catch (e) {
      if (!(e instanceof BodyLimitError)) throw e;
      return jsonError(res, e.status, -32600, `Invalid Request: ${e.message}`);
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      return jsonError(res, 400, -32700, 'Parse error: the body is not valid JSON');
    }
    if (existing) return existing.handleRequest(req, res, parsed);
    if (typeof sid === 'string') return jsonError(res, 404, -32001, `unknown session ${sid.slice(0, 40)}; start a new one with initialize`);
    if (!isInitializeRequest(parsed)) return jsonError(res, 400, -32600, 'Bad Request: no session; the first request must be initialize');
    if (sessions.size + opening >= maxSessions) {
      const wait = retryAfterS();
      o.log?.(`refused a new session: ${maxSessions} are open`);
      return jsonError(
        res,
        503,
        -32000,
        `Too many sessions: ${maxSessions} are open, the most this server keeps (mcp --max-sessions N). End one (DELETE /mcp with its Mcp-Session-Id) or try again in ${wait} s, when the longest-idle one is closed`,
        { 'retry-after': String(wait) },
      );
    }
    opening++;
    let holding = true;
    const release = (): void => {
      if (holding) opening--;
      holding = false;
    };
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => {
        release();
        sessions.set(id, transport);
        lastSeen.set(id, Date.now());
        o.log?.(`session ${id} opened (${sessions.size} open)`);
      },
    });
    transport.onclose = () => {
      if (transport.sessionId) lastSeen.delete(transport.sessionId);
      if (transport.sessionId && sessions.delete(transport.sessionId)) o.log?.(`session ${transport.sessionId} closed`);
    };
    try {
      await o.makeServer().connect(transport);
      await transport.handleRequest(req, res, parsed);
    } finally {
      // An initialize that did not open a session gives its slot back.
      release();
    }
  };

  const http = createServer(serverOptions(limits), (req, res) => {
    handle(req, res).catch((e: unknown) => {
      o.log?.(`request failed: ${(e as Error).message}`);
      jsonError(res, 500, -32603, 'Internal error');
    });
  });
  answerClientErrors(
    http,
    (status, message) => ({ contentType: 'application/json', body: errorBody(-32600, `Invalid Request: ${message}`) }),
    limits,
  );
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(o.port, '127.0.0.1', () => resolve());
  });
  port = (http.address() as AddressInfo).port;
  const sweep = setInterval(
    () => {
      const now = Date.now();
      for (const [id, t] of sessions) {
        if (now - (lastSeen.get(id) ?? 0) < idleMs) continue;
        o.log?.(`session ${id} idle for ${Math.round(idleMs / 1000)} s: closing it`);
        sessions.delete(id);
        lastSeen.delete(id);
        void t.close().catch(() => undefined);
      }
    },
    Math.max(50, Math.min(60_000, idleMs / 4)),
  );
  sweep.unref();
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    port,
    token,
    sessions: () => sessions.size,
    close: async () => {
      clearInterval(sweep);
      for (const t of sessions.values()) await t.close().catch(() => undefined);
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}
