// robot-api's doors against a client that does not play fair: a chosen token
// under the rule (a one-character token is refused), headers or a body trickled
// past the read time (408), a declared or streamed body over the cap (413,
// answered before the body is read), each with a JSON error and the connection
// closed. A stand-in robot: nothing here reaches a skill.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SafetyChain } from '../../agents/runtime/safety';
import type { Robot } from '../../robot/robot';
import { head, rawRequest } from '../../test/support/raw-http';
import { type ServerToken, TokenError, chosenToken } from '../../base/server-token';
import { type RobotApiServer, startRobotApi } from './server';

function standInRobot(): { robot: Robot; chain: SafetyChain } {
  const robot = {
    info: { name: 'stand-in', capabilities: [] },
    events: { subscribe: () => () => undefined, since: async () => [] },
    perception: { relations: () => [] },
  } as unknown as Robot;
  const chain = { guard: () => robot } as unknown as SafetyChain;
  return { robot, chain };
}

const LIMITS = { maxBodyBytes: 4096, headersTimeoutMs: 400, bodyTimeoutMs: 400 };

describe('robot-api token rule', () => {
  it('refuses a one-character chosen token and generates 256-bit ones', async () => {
    const { robot, chain } = standInRobot();
    await expect(startRobotApi({ robot, chain, token: 'x' as ServerToken })).rejects.toThrow(TokenError);
    const server = await startRobotApi({ robot, chain });
    try {
      expect(Buffer.from(server.token, 'base64url').length).toBeGreaterThanOrEqual(16);
      const wrong = await fetch(`${server.url}/v1/info`, { headers: { authorization: `Bearer ${server.token.slice(0, -1)}` } });
      expect(wrong.status).toBe(401);
    } finally {
      await server.close();
    }
  });
});

describe('robot-api read limits', () => {
  let server: RobotApiServer;
  const token = chosenToken('read-limits-token-0001', 'test');
  const auth = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  beforeAll(async () => {
    const { robot, chain } = standInRobot();
    server = await startRobotApi({ robot, chain, token, limits: LIMITS });
  });
  afterAll(() => server?.close());

  it('answers a body trickled past the read time with 408 and closes', async () => {
    const r = await rawRequest(server.port, [
      { send: head('POST', '/v1/query/none', server.port, { ...auth, 'content-length': 100 }) },
      ...Array.from({ length: 40 }, () => ({ send: ' ', thenWaitMs: 50 })),
    ]);
    expect(r.status).toBe(408);
    expect(JSON.parse(r.body)).toMatchObject({
      error: { code: 'too_slow', message: expect.stringMatching(/did not arrive within 0\.4 s/) },
    });
    expect(r.closed).toBe(true);
    expect(r.sent).toBeLessThan(head('POST', '/v1/query/none', server.port, { ...auth, 'content-length': 100 }).length + 40);
  });

  it('answers headers trickled past the headers time with 408', async () => {
    const line = head('GET', '/v1/info', server.port, auth);
    const r = await rawRequest(
      server.port,
      [...line].map((c) => ({ send: c, thenWaitMs: 20 })),
      8000,
    );
    expect(r.status).toBe(408);
    expect(JSON.parse(r.body)).toMatchObject({ error: { code: 'too_slow' } });
    expect(r.closed).toBe(true);
  });

  it('refuses a declared Content-Length over the cap before reading the body (413)', async () => {
    const r = await rawRequest(
      server.port,
      [{ send: head('POST', '/v1/query/none', server.port, { ...auth, 'content-length': 10_000_000 }) }],
      3000,
    );
    expect(r.status).toBe(413);
    expect(JSON.parse(r.body)).toMatchObject({
      error: { code: 'too_large', message: expect.stringMatching(/10000000 bytes; the limit is 4096/) },
    });
    expect(r.closed).toBe(true);
  });

  it('cuts a chunked body at the first byte over the cap (413)', async () => {
    const chunk = (n: number) => `${n.toString(16)}\r\n${'x'.repeat(n)}\r\n`;
    const r = await rawRequest(server.port, [
      { send: head('POST', '/v1/query/none', server.port, { ...auth, 'transfer-encoding': 'chunked' }) },
      ...Array.from({ length: 20 }, () => ({ send: chunk(1000), thenWaitMs: 5 })),
    ]);
    expect(r.status).toBe(413);
    expect(r.closed).toBe(true);
  });

  it('answers a request target that is no URL ("//") with 400, not a 500', async () => {
    const r = await rawRequest(server.port, [{ send: head('GET', '//', server.port, auth) }]);
    expect(r.status).toBe(400);
    expect(JSON.parse(r.body)).toMatchObject({ error: { code: 'bad_request' } });
  });

  it('reads a small body sent at once (the query name is then looked up: 404)', async () => {
    const body = '{"a":1}';
    const r = await rawRequest(server.port, [
      { send: head('POST', '/v1/query/none', server.port, { ...auth, 'content-length': body.length }) + body },
    ]);
    expect(r.status).toBe(404);
  });
});
