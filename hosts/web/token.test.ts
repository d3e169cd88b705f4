// Web mode under the one token rule: a chosen token (groups' or teacher's) that
// breaks it never opens a server, a generated one carries 256 bits, and
// `serve` refuses a bad SKILLBRIDGE_WEB_TOKEN with one line before opening a
// session. No session opens here: the server is refused before it asks.
import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { type ServerToken, TokenError, chosenToken } from '../../base/server-token';
import { BIN } from '../../test/support/mcp';
import { head, rawRequest } from '../../test/support/raw-http';
import type { HostedSession } from './sessions';
import { startWebServer } from './server';

const never = (): Promise<HostedSession> => Promise.reject(new Error('no session in this test'));
const staticDir = mkdtempSync(path.join(tmpdir(), 'sb-web-token-'));

describe('web mode tokens', () => {
  it('refuses a chosen token under 16 characters, for the groups and the teacher', async () => {
    await expect(startWebServer({ openSession: never, staticDir, port: 0, token: 'x' as ServerToken })).rejects.toThrow(TokenError);
    await expect(
      startWebServer({ openSession: never, staticDir, port: 0, classroom: true, teacherToken: 'teacher' as ServerToken }),
    ).rejects.toThrow(/teacher token has 7 characters/);
    const same = chosenToken('the-same-token-for-both', 'test');
    await expect(
      startWebServer({ openSession: never, staticDir, port: 0, classroom: true, token: same, teacherToken: same }),
    ).rejects.toThrow(/must differ/);
  });

  it('generates 256-bit tokens, a different one for the teacher', async () => {
    const server = await startWebServer({ openSession: never, staticDir, port: 0, classroom: true });
    try {
      expect(Buffer.from(server.token, 'base64url')).toHaveLength(32);
      expect(server.teacherUrl).not.toContain(server.token);
    } finally {
      await server.close();
    }
  });

  it('a socket asked for at a target that is no URL ("//", where the token would be read) is refused, and the server stays up', async () => {
    const server = await startWebServer({ openSession: never, staticDir, port: 0 });
    try {
      const upgrade = {
        Upgrade: 'websocket',
        Connection: 'Upgrade',
        'Sec-WebSocket-Key': 'dGhlIHNhbXBsZSBub25jZQ==',
        'Sec-WebSocket-Version': 13,
      };
      for (const target of ['//', `//?token=${server.token}`])
        expect((await rawRequest(server.port, [{ send: head('GET', target, server.port, upgrade) }], 3000)).status).toBe(403);
      expect((await rawRequest(server.port, [{ send: head('GET', '/', server.port) }], 3000)).status).toBe(503);
    } finally {
      await server.close();
    }
  });

  it('serve refuses a short SKILLBRIDGE_WEB_TOKEN with one line naming it, exit 2', () => {
    const r = spawnSync(process.execPath, [BIN, 'serve', '--port', '0'], {
      encoding: 'utf8',
      env: { ...process.env, SKILLBRIDGE_WEB_TOKEN: 'short' },
      timeout: 60_000,
    });
    expect(r.status).toBe(2);
    // (A first run after a source change also says it built the command-line bundle.)
    const lines = r.stderr
      .trim()
      .split('\n')
      .filter((l) => !/command-line bundle/.test(l));
    expect(lines).toEqual([expect.stringMatching(/SKILLBRIDGE_WEB_TOKEN has 5 characters, fewer than 16/)]);
  }, 60_000);
});
