// `skillbridge mcp --http` as a real process: the SDK's Streamable HTTP client
// against a read-only server, and the requests a browser, a stray page or a
// broken client would send.
import { spawnSync } from 'node:child_process';
import { request } from 'node:http';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, httpServer } from '../../test/support/mcp';

let bearer = '';
function post(url: string, body: string | Buffer, headers: Record<string, string> = {}): Promise<{ status: number; body: string }> {
  const u = new URL(url);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port: u.port,
        path: u.pathname,
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          host: u.host,
          ...(bearer ? { authorization: `Bearer ${bearer}` } : {}),
          ...headers,
        },
      },
      (res) => {
        let text = '';
        res.on('data', (d: Buffer) => (text += d.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** Streams `bytes` of body without a length and never ends it: the answer must not wait for the end. */
function postUnended(url: string, bytes: number): Promise<{ status: number; body: string } | 'no answer'> {
  const u = new URL(url);
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      req.destroy();
      resolve('no answer');
    }, 10_000);
    const req = request(
      {
        host: '127.0.0.1',
        port: u.port,
        path: u.pathname,
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          host: u.host,
          authorization: `Bearer ${bearer}`,
        },
      },
      (res) => {
        let text = '';
        res.on('data', (d: Buffer) => (text += d.toString()));
        res.on('end', () => {
          clearTimeout(timer);
          req.destroy();
          resolve({ status: res.statusCode ?? 0, body: text });
        });
      },
    );
    req.on('error', () => undefined);
    for (let sent = 0; sent < bytes; sent += 65_536) req.write(Buffer.alloc(65_536, 0x20));
  });
}

const auth = (s: { token: string }) => ({ requestInit: { headers: { authorization: `Bearer ${s.token}` } } });

const INIT = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
});

describe('skillbridge mcp --http (a real process, read-only)', () => {
  let server: Awaited<ReturnType<typeof httpServer>>;
  beforeAll(async () => {
    server = await httpServer(['--scene', 'tabletop/fruits', '--read-only']);
    bearer = server.token;
  }, 60_000);
  afterAll(async () => {
    if (server) expect(await server.stop()).toBe(0);
  });

  it('listens on 127.0.0.1 and serves the SDK client; read-only registers no acting tool', async () => {
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    const client = new Client({ name: 'http-test', version: '1' });
    await client.connect(new StreamableHTTPClientTransport(new URL(server.url), auth(server)));
    const { tools } = await client.listTools();
    expect(tools.length).toBeGreaterThan(3);
    expect(tools.every((t) => t.annotations?.readOnlyHint === true)).toBe(true);
    expect(tools.map((t) => t.name)).not.toContain('pick');
    const r = await client.callTool({ name: 'get_objects', arguments: {} });
    expect(r.structuredContent).toMatchObject({ ok: true });
    expect(JSON.stringify(r.content)).toContain('lemon_1');
    const acting = await client.callTool({ name: 'pick', arguments: { object_name: 'lemon' } });
    expect(acting.isError).toBe(true);
    const snap = await client.readResource({ uri: 'skillbridge://robot/snapshot' });
    expect((snap.contents[0] as { text: string }).text).toContain('on(lemon_1');
    await client.close();
  });

  it('refuses requests without the token it printed, or with another', async () => {
    const none = await post(server.url, INIT, { authorization: '' });
    expect(none.status).toBe(401);
    expect(none.body).toContain('Bearer');
    expect((await post(server.url, INIT, { authorization: 'Bearer wrong' })).status).toBe(401);
    const client = new Client({ name: 'no-token', version: '1' });
    await expect(client.connect(new StreamableHTTPClientTransport(new URL(server.url)))).rejects.toThrow();
  });

  it('refuses other hosts and origins, bodies over the limit, bodies that are not JSON, and requests without a session', async () => {
    expect((await post(server.url, INIT, { host: 'evil.example:80' })).status).toBe(403);
    expect((await post(server.url, INIT, { origin: 'http://evil.example' })).status).toBe(403);
    const big = await post(server.url, Buffer.alloc(2_000_000, 0x20));
    expect(big.status).toBe(413);
    expect(big.body).toContain('limit is 1048576');
    // Without a length, and a client that keeps the body open: answered once the limit is passed.
    const streamed = await postUnended(server.url, 2_000_000);
    expect(streamed).toMatchObject({ status: 413 });
    const garbage = await post(server.url, '{not json');
    expect(garbage.status).toBe(400);
    expect(JSON.parse(garbage.body)).toMatchObject({ error: { code: -32700 } });
    const noSession = await post(server.url, JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }));
    expect(noSession.status).toBe(400);
    expect(noSession.body).toContain('initialize');
    const stale = await post(server.url, JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'tools/list' }), { 'mcp-session-id': 'nope' });
    expect(stale.status).toBe(404);
    expect((await post(server.url.replace('/mcp', '/other'), INIT)).status).toBe(404);
    // Still serving after all that.
    expect((await post(server.url, INIT)).status).toBe(200);
  });
});

describe('skillbridge mcp --http with approval (a real process)', () => {
  let server: Awaited<ReturnType<typeof httpServer>>;
  beforeAll(async () => {
    server = await httpServer(['--scene', 'tabletop/fruits']);
  }, 60_000);
  afterAll(async () => {
    if (server) expect(await server.stop()).toBe(0);
  });

  it("asks by elicitation on the call's own stream, and each session keeps its own client", async () => {
    const asked: string[] = [];
    const client = new Client({ name: 'http-approver', version: '1' }, { capabilities: { elicitation: {} } });
    client.setRequestHandler(ElicitRequestSchema, (req) => {
      asked.push(req.params.message);
      return { action: 'accept', content: { approve: true } };
    });
    await client.connect(new StreamableHTTPClientTransport(new URL(server.url), auth(server)));
    const other = new Client({ name: 'http-no-forms', version: '1' });
    await other.connect(new StreamableHTTPClientTransport(new URL(server.url), auth(server)));
    const refused = await other.callTool({ name: 'pick', arguments: { object_name: 'lemon' } });
    expect(refused.isError).toBe(true);
    expect(JSON.stringify(refused.content)).toContain('--approve auto');
    const r = await client.callTool({ name: 'pick', arguments: { object_name: 'lemon' } });
    expect(r.structuredContent).toMatchObject({ ok: true });
    expect(asked).toHaveLength(1);
    expect(asked[0]).toContain('pick({"object_name":"lemon"})');
    // Both sessions see one robot: the one that was not allowed to act sees the lemon held.
    const snap = await other.readResource({ uri: 'skillbridge://robot/snapshot' });
    expect((snap.contents[0] as { text: string }).text).toContain('holding: lemon_1');
    await client.close();
    await other.close();
  });
});

describe('skillbridge mcp: bad settings', () => {
  const run = (args: string[]) => spawnSync(process.execPath, [BIN, 'mcp', ...args], { encoding: 'utf8', input: '' });

  it('answers each with one line and exit 2 (JSON under --json), before serving anything', () => {
    const scene = run(['--scene', 'nowhere']);
    expect(scene.status).toBe(2);
    expect(scene.stderr.trim().split('\n')).toHaveLength(1);
    expect(scene.stderr).toContain('nowhere');
    expect(scene.stdout).toBe('');
    const approve = run(['--scene', 'tabletop/fruits', '--approve', 'maybe']);
    expect(approve.status).toBe(2);
    expect(approve.stderr).toContain('--approve must be one of ask, auto, deny');
    const name = run(['--scene', 'arm=tabletop/fruits,arm=farm']);
    expect(name.stderr).toContain('"arm" is used twice');
    // --json is the HTTP server's (stdout carries the protocol on stdio).
    const file = run(['--http', '0', '--robots', '/nonexistent/robots.json', '--json']);
    expect(file.status).toBe(2);
    expect(JSON.parse(file.stdout)).toMatchObject({ error: { code: 'usage', message: expect.stringContaining('no such file') } });
    const set = run(['--scene', 'farm', '--set', 'alrm']);
    expect(set.status).toBe(2);
    expect(set.stderr).toContain('alrm');
  }, 60_000);
});
