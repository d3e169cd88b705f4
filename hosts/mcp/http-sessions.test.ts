// mcp --http's own limits, in process: the token on every request, and sessions
// that expire when idle (a client that went away does not keep its approvals).
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { describe, expect, it } from 'vitest';
import { startMcpHttp } from './http';

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
