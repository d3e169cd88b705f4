// The robot's doors, attacked from their own schemas: every route of the robot
// HTTP API (read from its OpenAPI document) and every MCP tool (read from
// tools/list), each string given hostile paths, model specs and odd values.
// Invariants per request: no crash (a 5xx, an "internal" or "raised an error"
// answer), an answer in bounded time, nothing outside the allowed folders
// opened, no answer quoting an outside file or a host folder.
import { homedir } from 'node:os';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SafetyChain } from '../../agents/runtime/safety';
import { type Fleet, openFleet } from '../../hosts/mcp/fleet';
import { createMcpServer } from '../../hosts/mcp/server';
import { type RobotApiServer, startRobotApi } from '../../hosts/robot-api/server';
import { openRobot } from '../../robot/sources';
import { fuzzRuns, fuzzSeed } from './support/budget';
import { type JsonSchema, fromSchema, stringLeaves, withLeaf } from './support/from-schema';
import { type HostileContext, canonicalHostile, hostileString } from './support/hostile';
import { HOST_SECRETS, type OpenWatch, type Outside, makeOutside, watchOpens } from './support/outside';

const ANSWER_MS = 20_000;
let outside: Outside;
let watch: OpenWatch;
let ctx: HostileContext;

beforeAll(async () => {
  outside = makeOutside();
  watch = await watchOpens([outside.dir]);
  ctx = { outside, listener: 'http://127.0.0.1:9/v1' };
});
afterAll(() => {
  watch?.close();
  outside?.close();
});

function leaks(text: string): string[] {
  const out: string[] = [];
  if (text.includes(outside.canary)) out.push(`quotes an outside file: ${text.slice(0, 200)}`);
  for (const s of HOST_SECRETS) if (s.test(text)) out.push(`quotes a host file (${s})`);
  for (const f of [process.cwd(), homedir()]) if (text.includes(`${f}/`)) out.push(`names the host folder ${f}: ${text.slice(0, 200)}`);
  return out;
}

const withTimeout = <T>(p: Promise<T>, ms: number): Promise<T | 'timeout'> =>
  Promise.race([p, new Promise<'timeout'>((r) => setTimeout(() => r('timeout'), ms))]);

/** Runs each request of a door: the sweep (each string field × each hostile shape, a rotating share in CI) and random ones. */
async function fuzzDoor(
  doors: Array<{ name: string; schema: JsonSchema }>,
  send: (door: string, body: unknown) => Promise<string[]>,
): Promise<{ tried: number; found: string[] }> {
  const shapes = canonicalHostile(ctx);
  const perField = Math.min(shapes.length, fuzzRuns(3));
  const found: string[] = [];
  let tried = 0;
  let k = 0;
  const one = async (door: string, body: unknown) => {
    tried++;
    const p = await send(door, body);
    const opened = await watch.take();
    if (opened.length) p.push(`touched outside files: ${opened.slice(0, 3).join('; ')}`);
    found.push(...p.map((x) => `${door} ${JSON.stringify(body).slice(0, 200)}: ${x}`));
  };
  for (const d of doors) {
    const [base] = fc.sample(fromSchema(d.schema, { hostile: fc.constant('x'), hostileShare: 0, allKeys: true }), {
      seed: fuzzSeed(34),
      numRuns: 1,
    });
    for (const leaf of stringLeaves(base))
      for (let i = 0; i < perField; i++, k++) await one(d.name, withLeaf(base, leaf, shapes[k % shapes.length]!));
  }
  const request = fc.constantFrom(...doors).chain((d) => fromSchema(d.schema, { hostile: hostileString(ctx) }).map((b) => ({ d, b })));
  await fc.assert(
    fc.asyncProperty(request, async ({ d, b }) => {
      await one(d.name, b);
    }),
    { numRuns: fuzzRuns(60), seed: fuzzSeed(34) },
  );
  return { tried, found };
}

describe('the robot HTTP API, fuzzed from its OpenAPI document', () => {
  let server: RobotApiServer;
  let close: () => Promise<void>;
  beforeAll(async () => {
    const opened = await openRobot({ kind: 'sim', scene: 'tabletop/fruits', seed: 1 });
    server = await startRobotApi({ robot: opened.robot, chain: new SafetyChain(opened.robot) });
    close = () => opened.close();
  }, 60_000);
  afterAll(async () => {
    await server?.close();
    await close?.();
  });

  it('answers every route with no crash, in bounded time, quoting nothing of the host', async () => {
    const doc = (await (await fetch(server.openapi)).json()) as {
      paths: Record<string, { post?: { requestBody?: { content: { 'application/json': { schema: JsonSchema } } } } }>;
    };
    const doors = Object.entries(doc.paths)
      .filter(([, p]) => p.post?.requestBody)
      .map(([path, p]) => ({ name: path, schema: p.post!.requestBody!.content['application/json'].schema }));
    expect(doors.length).toBeGreaterThan(20);
    const { tried, found } = await fuzzDoor(doors, async (path, body) => {
      const res = await withTimeout(
        fetch(`${server.url}${path}${path.startsWith('/v1/skills/') ? '?wait=0' : ''}`, {
          method: 'POST',
          headers: { authorization: `Bearer ${server.token}`, 'content-type': 'application/json' },
          body: JSON.stringify(body),
        }).then(
          async (r) => ({ status: r.status, text: await r.text() }),
          (e: unknown) => ({ status: 0, text: `${(e as Error).message} (${String((e as { cause?: unknown }).cause)})` }),
        ),
        ANSWER_MS,
      );
      if (res === 'timeout') return [`no answer within ${ANSWER_MS / 1000} s`];
      const p = leaks(res.text);
      if (res.status === 0) p.push(`no HTTP answer: ${res.text.slice(0, 200)}`);
      if (res.status >= 500 && res.status !== 501) p.push(`answered ${res.status}: ${res.text.slice(0, 200)}`);
      // A job it started ends before the next request.
      const job = /"id":"([\w-]+)"/.exec(res.text)?.[1];
      if (job && path.startsWith('/v1/skills/'))
        await fetch(`${server.url}/v1/jobs/${job}/cancel`, { method: 'POST', headers: { authorization: `Bearer ${server.token}` } });
      return p;
    });
    expect(tried).toBeGreaterThan(50);
    expect(found.slice(0, 12)).toEqual([]);
  }, 600_000);
});

describe('the MCP server, fuzzed from its tools/list', () => {
  let fleet: Fleet;
  let client: Client;
  beforeAll(async () => {
    fleet = await openFleet([{ name: 'robot', source: { kind: 'sim', scene: 'kitchen', seed: 1 } }], { readOnly: false });
    const server = createMcpServer({ fleet, approve: 'auto', version: 'fuzz' });
    const [a, b] = InMemoryTransport.createLinkedPair();
    client = new Client({ name: 'fuzz', version: '1' });
    await Promise.all([server.connect(a), client.connect(b)]);
  }, 60_000);
  afterAll(async () => {
    await client?.close();
    await fleet?.close();
  });

  it('answers every tool with no crash, in bounded time, quoting nothing of the host', async () => {
    const { tools } = await client.listTools();
    const doors = tools.map((t) => ({ name: t.name, schema: t.inputSchema as JsonSchema }));
    const { tried, found } = await fuzzDoor(doors, async (name, args) => {
      const r = await withTimeout(
        client.callTool({ name, arguments: args as Record<string, unknown> }, undefined, { timeout: ANSWER_MS }).then(
          (x) => JSON.stringify(x),
          (e: unknown) => `error: ${(e as Error).message}`,
        ),
        ANSWER_MS + 1000,
      );
      if (r === 'timeout') return [`no answer within ${ANSWER_MS / 1000} s`];
      const p = leaks(r);
      if (/raised an error|internal error/i.test(r)) p.push(`crashed: ${r.slice(0, 300)}`);
      return p;
    });
    expect(tried).toBeGreaterThan(50);
    expect(found.slice(0, 12)).toEqual([]);
  }, 600_000);
});
