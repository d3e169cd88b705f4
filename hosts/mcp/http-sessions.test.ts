// mcp --http's own limits, in process: the token on every request (under the one
// token rule), sessions that expire when idle (a client that went away does not
// keep its approvals), a cap on sessions open at once (the one over it is told
// why and when to retry, also when many initialize at the same moment), and a
// request trickled past the read time (408).
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { describe, expect, it } from 'vitest';
import { type ServerToken, TokenError } from '../../base/server-token';
import { head, rawRequest } from '../../test/support/raw-http';
import { type McpHttpServer, startMcpHttp } from './http';

const makeServer = () => {
  const s = new McpServer({ name: 'test', version: '1' });
  s.registerTool('ping', { description: 'ping' }, () => ({ content: [{ type: 'text', text: 'pong' }] }));
  return s;
};

describe('mcp --http sessions', () => {
  it('closes a session idle past the limit; the client must start again', async () => {
    const http = await startMcpHttp({ port: 0, makeServer, idleMs: 300 });
    try {
      const client = new Client({ name: 'idle', version: '1' });
      await client.connect(
        new StreamableHTTPClientTransport(new URL(http.url), { requestInit: { headers: { authorization: `Bearer ${http.token}` } } }),
      );
      expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['ping']);
      expect(http.sessions()).toBe(1);
      await expect.poll(() => http.sessions(), { timeout: 3000, interval: 50 }).toBe(0);
      await expect(client.listTools()).rejects.toThrow();
      await client.close().catch(() => undefined);
    } finally {
      await http.close();
    }
  });

  it('refuses a request without the token before reading it', async () => {
    const http = await startMcpHttp({ port: 0, makeServer });
    try {
      const res = await fetch(http.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
      expect(res.status).toBe(401);
      expect(http.token.length).toBeGreaterThanOrEqual(24);
    } finally {
      await http.close();
    }
  });
});

const INIT = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
});

const initialize = (http: McpHttpServer) =>
  fetch(http.url, {
    method: 'POST',
    headers: { authorization: `Bearer ${http.token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: INIT,
  });

async function connected(http: McpHttpServer): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> {
  const client = new Client({ name: 'capped', version: '1' });
  const transport = new StreamableHTTPClientTransport(new URL(http.url), {
    requestInit: { headers: { authorization: `Bearer ${http.token}` } },
  });
  await client.connect(transport);
  return { client, transport };
}

describe('mcp --http token and caps', () => {
  it('refuses a one-character chosen token', async () => {
    await expect(startMcpHttp({ port: 0, makeServer, token: 'x' as ServerToken })).rejects.toThrow(TokenError);
  });

  it('caps the sessions open at once; the one over the cap gets 503 saying why and when, and a freed slot is taken again', async () => {
    const http = await startMcpHttp({ port: 0, makeServer, maxSessions: 2 });
    try {
      const a = await connected(http);
      const b = await connected(http);
      expect(http.sessions()).toBe(2);
      const over = await initialize(http);
      expect(over.status).toBe(503);
      expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(0);
      const body = (await over.json()) as { error: { message: string } };
      expect(body.error.message).toMatch(/^Too many sessions: 2 are open.*--max-sessions N.*DELETE \/mcp/);
      await expect(connected(http)).rejects.toThrow();
      expect(http.sessions()).toBe(2);
      await a.transport.terminateSession();
      await expect.poll(() => http.sessions()).toBe(1);
      const c = await connected(http);
      expect((await c.client.listTools()).tools.map((t) => t.name)).toEqual(['ping']);
      await Promise.all([a.client, b.client, c.client].map((x) => x.close()));
    } finally {
      await http.close();
    }
  });

  it('holds the cap when many clients initialize at the same moment', async () => {
    const http = await startMcpHttp({ port: 0, makeServer, maxSessions: 3 });
    try {
      const statuses = (await Promise.all(Array.from({ length: 12 }, () => initialize(http)))).map((r) => r.status);
      expect(statuses.filter((s) => s === 200)).toHaveLength(3);
      expect(statuses.filter((s) => s === 503)).toHaveLength(9);
      expect(http.sessions()).toBe(3);
    } finally {
      await http.close();
    }
  });

  it('answers a body or headers trickled past the read time with 408', async () => {
    const http = await startMcpHttp({ port: 0, makeServer, readTimes: { headersTimeoutMs: 400, bodyTimeoutMs: 400 } });
    try {
      const auth = {
        authorization: `Bearer ${http.token}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      };
      const body = await rawRequest(http.port, [
        { send: head('POST', '/mcp', http.port, { ...auth, 'content-length': INIT.length }) },
        ...[...INIT].map((c) => ({ send: c, thenWaitMs: 40 })),
      ]);
      expect(body.status).toBe(408);
      expect(JSON.parse(body.body)).toMatchObject({
        error: { code: -32600, message: expect.stringMatching(/did not arrive within 0\.4 s/) },
      });
      expect(body.closed).toBe(true);
      const headers = await rawRequest(
        http.port,
        [...head('POST', '/mcp', http.port, auth)].map((c) => ({ send: c, thenWaitMs: 15 })),
      );
      expect(headers.status).toBe(408);
      expect(headers.closed).toBe(true);
      expect(http.sessions()).toBe(0);
      // A target that is no URL is the client's mistake (400), not ours (500).
      expect((await rawRequest(http.port, [{ send: head('POST', '//', http.port, { ...auth, 'content-length': 0 }) }])).status).toBe(400);
    } finally {
      await http.close();
    }
  });
});
