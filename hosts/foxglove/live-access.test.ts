// Who may watch the live Foxglove view: a viewer with the token (in the URL's
// query, as Foxglove and Lichtblick send it, or a Bearer header), a Host header
// naming this machine (DNS rebinding is refused), and an Origin, when there is
// one, from the allowlist. The property test draws handshakes (path, Host,
// Origin, token) and checks that one opens exactly when all four hold, on the
// pure rule and, for a smaller sample, on a real server.
import { spawnSync } from 'node:child_process';
import { FoxgloveClient } from '@foxglove/ws-protocol';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { type ServerToken, TokenError, generateToken } from '../../base/server-token';
import { BIN } from '../../test/support/mcp';
import { FOXGLOVE_ORIGINS, parseOrigin, refusal } from './access';
import { type FoxgloveLive, startFoxgloveLive } from './live';

/** The status a handshake gets: 101 when it opens, else the refusal's status. */
function handshake(port: number, path: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve) => {
    const ws = new WebSocket(`ws://127.0.0.1:${port}${path}`, [FoxgloveClient.SUPPORTED_SUBPROTOCOL], { headers });
    ws.on('open', () => {
      ws.close();
      resolve(101);
    });
    ws.on('unexpected-response', (_req, res) => {
      resolve(res.statusCode ?? 0);
      res.resume();
    });
    ws.on('error', () => resolve(0));
  });
}

const EXTRA = 'https://viewer.example:8443';

interface Case {
  path: string;
  host: string;
  origin: string | undefined;
  token: 'query' | 'header' | 'none' | 'wrong' | 'prefix' | 'both-wrong-query';
}

describe('live Foxglove view access', () => {
  let live: FoxgloveLive;
  beforeAll(async () => {
    live = await startFoxgloveLive({ port: 0, worlds: [], origins: [EXTRA] });
  });
  afterAll(() => live?.close());

  it('needs the token it printed: none or a wrong one is 401, the printed URL opens', async () => {
    const host = { host: `127.0.0.1:${live.port}` };
    expect(live.url).toBe(`ws://127.0.0.1:${live.port}/?token=${live.token}`);
    expect(await handshake(live.port, '/', host)).toBe(401);
    expect(await handshake(live.port, `/?token=${live.token.slice(1)}`, host)).toBe(401);
    expect(await handshake(live.port, `/?token=${live.token}`, host)).toBe(101);
    expect(await handshake(live.port, '/', { ...host, authorization: `Bearer ${live.token}` })).toBe(101);
  });

  it('refuses a Host header that is not this machine (DNS rebinding), with the right token', async () => {
    const path = `/?token=${live.token}`;
    expect(await handshake(live.port, path, { host: `rebind.example:${live.port}` })).toBe(421);
    expect(await handshake(live.port, path, { host: `127.0.0.1:${live.port + 1}` })).toBe(421);
    expect(await handshake(live.port, path, { host: `localhost:${live.port}` })).toBe(101);
  });

  it("allows Foxglove's and this machine's pages and the extra origins, refuses others", async () => {
    const path = `/?token=${live.token}`;
    const host = `127.0.0.1:${live.port}`;
    expect(await handshake(live.port, path, { host, origin: 'https://evil.example' })).toBe(403);
    expect(await handshake(live.port, path, { host, origin: 'null' })).toBe(403);
    for (const origin of ['https://app.foxglove.dev', 'file://', 'http://localhost:8080', 'http://127.0.0.1:5173', EXTRA])
      expect(await handshake(live.port, path, { host, origin })).toBe(101);
  });

  it("the ws-protocol's own client (what Foxglove runs) connects with the printed URL and sees the server", async () => {
    const client = new FoxgloveClient({ ws: new WebSocket(live.url, [FoxgloveClient.SUPPORTED_SUBPROTOCOL]) as never });
    const name = await new Promise<string>((resolve) => client.on('serverInfo', (i) => resolve(i.name)));
    expect(name).toBe('skillbridge');
    client.close();
  });

  it('a handshake opens exactly when path, Host, Origin and token all hold (property)', async () => {
    const port = live.port;
    const token = live.token;
    const gen: fc.Arbitrary<Case> = fc.record({
      path: fc.constantFrom('/', '/x', '//'),
      host: fc.constantFrom(`127.0.0.1:${port}`, `localhost:${port}`, `rebind.example:${port}`, `127.0.0.1:${port + 1}`, '127.0.0.1'),
      origin: fc.option(
        fc.constantFrom(
          ...FOXGLOVE_ORIGINS,
          EXTRA,
          'https://evil.example',
          'null',
          'http://localhost:3000',
          'http://127.0.0.2',
          'https://app.foxglove.dev.evil',
        ),
        { nil: undefined },
      ),
      token: fc.constantFrom<Case['token']>('query', 'header', 'none', 'wrong', 'prefix', 'both-wrong-query'),
    });
    const build = (c: Case) => {
      const query =
        c.token === 'query'
          ? `?token=${token}`
          : c.token === 'wrong' || c.token === 'both-wrong-query'
            ? `?token=${generateToken()}`
            : c.token === 'prefix'
              ? `?token=${token.slice(0, 20)}`
              : '';
      const headers: Record<string, string> = { host: c.host, ...(c.origin !== undefined ? { origin: c.origin } : {}) };
      if (c.token === 'header' || c.token === 'both-wrong-query') headers['authorization'] = `Bearer ${token}`;
      return { url: `${c.path}${query}`, headers };
    };
    const expected = (c: Case): boolean =>
      c.path === '/' &&
      (c.host === `127.0.0.1:${port}` || c.host === `localhost:${port}`) &&
      (c.origin === undefined ||
        ![`https://evil.example`, 'null', 'http://127.0.0.2', 'https://app.foxglove.dev.evil'].includes(c.origin)) &&
      (c.token === 'query' || c.token === 'header');
    fc.assert(
      fc.property(gen, (c) => {
        const r = build(c);
        expect(refusal(r, port, token, [EXTRA]) === undefined).toBe(expected(c));
      }),
      { seed: 34, numRuns: 3000 },
    );
    await fc.assert(
      fc.asyncProperty(gen, async (c) => {
        const r = build(c);
        expect((await handshake(port, r.url, r.headers)) === 101).toBe(expected(c));
      }),
      { seed: 34, numRuns: 60 },
    );
  });
});

describe('live Foxglove view settings', () => {
  it('refuses a short chosen token and an origin with a path', async () => {
    await expect(startFoxgloveLive({ port: 0, worlds: [], token: 'x' as ServerToken })).rejects.toThrow(TokenError);
    expect(() => parseOrigin('https://viewer.example/app')).toThrow(/no path, e\.g\. https:\/\/viewer\.example$/);
    expect(parseOrigin('http://127.0.0.1:8080')).toBe('http://127.0.0.1:8080');
  });

  it('skillbridge foxglove refuses a bad SKILLBRIDGE_FOXGLOVE_TOKEN or _ORIGINS with one line, exit 2', () => {
    const run = (env: Record<string, string>) =>
      spawnSync(process.execPath, [BIN, 'foxglove', '--scene', 'tabletop/fruits', '--port', '0'], {
        encoding: 'utf8',
        env: { ...process.env, ...env },
        timeout: 60_000,
      });
    const lines = (s: string) =>
      s
        .trim()
        .split('\n')
        .filter((l) => !/command-line bundle/.test(l));
    const token = run({ SKILLBRIDGE_FOXGLOVE_TOKEN: 'x' });
    expect(token.status).toBe(2);
    expect(lines(token.stderr)).toEqual([expect.stringMatching(/SKILLBRIDGE_FOXGLOVE_TOKEN has 1 characters, fewer than 16/)]);
    const origins = run({ SKILLBRIDGE_FOXGLOVE_ORIGINS: 'viewer.example' });
    expect(origins.status).toBe(2);
    expect(lines(origins.stderr)).toEqual([expect.stringMatching(/SKILLBRIDGE_FOXGLOVE_ORIGINS: "viewer.example" is not an origin/)]);
  }, 60_000);
});
