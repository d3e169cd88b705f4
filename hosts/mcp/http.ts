// Streamable HTTP on 127.0.0.1, at /mcp. Each client session gets its own MCP
// server object over the shared fleet (one robot, many watchers). Every request
// needs the bearer token printed at start (as web mode and robot-api do: any
// local process could otherwise connect, declare elicitation and approve its own
// calls); sessions idle longer than the idle limit are closed. Requests whose
// Host or Origin is not this machine are refused (DNS rebinding), bodies over the
// limit get 413 at once, and a body that is not JSON gets a JSON-RPC parse error.
import { randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { type IncomingMessage, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
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

function sameToken(header: string | undefined, token: string): boolean {
  if (!header?.startsWith('Bearer ')) return false;
  const a = Buffer.from(header.slice(7));
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}

function jsonError(res: ServerResponse, status: number, code: number, message: string): void {
  if (res.headersSent) return;
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code, message } }));
}

async function readBody(req: IncomingMessage, max: number): Promise<{ ok: true; text: string } | { ok: false; bytes: number }> {
  const declared = Number(req.headers['content-length'] ?? NaN);
  if (Number.isFinite(declared) && declared > max) {
    req.resume();
    return { ok: false, bytes: declared };
  }
  const chunks: Buffer[] = [];
  let bytes = 0;
  for await (const chunk of req) {
    bytes += (chunk as Buffer).length;
    if (bytes > max) {
      req.resume();
      return { ok: false, bytes };
    }
    chunks.push(chunk as Buffer);
  }
  return { ok: true, text: Buffer.concat(chunks).toString('utf8') };
}

export async function startMcpHttp(o: {
  port: number;
  makeServer: () => McpServer;
  log?: (line: string) => void;
  maxBytes?: number;
  /** Default: a fresh random token. */
  token?: string;
  /** A session with no request for this long is closed (default 30 min). */
  idleMs?: number;
}): Promise<McpHttpServer> {
  const max = o.maxBytes ?? MAX_MESSAGE_BYTES;
  const token = o.token ?? randomBytes(24).toString('base64url');
  const idleMs = o.idleMs ?? DEFAULT_IDLE_MS;
  const sessions = new Map<string, StreamableHTTPServerTransport>();
  const lastSeen = new Map<string, number>();
  let port = o.port;
  const local = () => new Set([`127.0.0.1:${port}`, `localhost:${port}`]);

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (url.pathname !== '/mcp') return jsonError(res, 404, -32601, `no such path ${url.pathname}; the MCP endpoint is /mcp`);
    if (!local().has(req.headers.host ?? '')) return jsonError(res, 403, -32600, 'Forbidden: the Host header must be this machine');
    const origin = req.headers.origin;
    if (origin && ![...local()].some((h) => origin === `http://${h}`)) {
      return jsonError(res, 403, -32600, `Forbidden: requests from ${origin} are not allowed`);
    }
    if (!sameToken(req.headers.authorization, token))
      return jsonError(res, 401, -32001, 'Unauthorized: send "Authorization: Bearer TOKEN" (the token mcp --http printed)');
    const sid = req.headers['mcp-session-id'];
    const existing = typeof sid === 'string' ? sessions.get(sid) : undefined;
    if (existing && typeof sid === 'string') lastSeen.set(sid, Date.now());
    if (req.method !== 'POST') {
      if (!existing) return jsonError(res, 404, -32001, 'unknown or missing Mcp-Session-Id; start with an initialize request');
      return existing.handleRequest(req, res);
    }
    const body = await readBody(req, max);
    if (!body.ok) return jsonError(res, 413, -32600, `Invalid Request: the body is ${body.bytes} bytes; the limit is ${max} bytes`);
    let parsed: unknown;
    try {
      parsed = JSON.parse(body.text);
    } catch {
      return jsonError(res, 400, -32700, 'Parse error: the body is not valid JSON');
    }
    if (existing) return existing.handleRequest(req, res, parsed);
    if (typeof sid === 'string') return jsonError(res, 404, -32001, `unknown session ${sid.slice(0, 40)}; start a new one with initialize`);
    if (!isInitializeRequest(parsed)) return jsonError(res, 400, -32600, 'Bad Request: no session; the first request must be initialize');
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => {
        sessions.set(id, transport);
        lastSeen.set(id, Date.now());
        o.log?.(`session ${id} opened (${sessions.size} open)`);
      },
    });
    transport.onclose = () => {
      if (transport.sessionId) lastSeen.delete(transport.sessionId);
      if (transport.sessionId && sessions.delete(transport.sessionId)) o.log?.(`session ${transport.sessionId} closed`);
    };
    await o.makeServer().connect(transport);
    await transport.handleRequest(req, res, parsed);
  };

  const http = createServer((req, res) => {
    handle(req, res).catch((e: unknown) => {
      o.log?.(`request failed: ${(e as Error).message}`);
      jsonError(res, 500, -32603, 'Internal error');
    });
  });
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
