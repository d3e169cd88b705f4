// How much and how long robot-api and mcp --http read of one request, against
// generated clients: a body of random size (under, at and over the cap), sent
// with its length, chunked, or declaring more than the cap, cut into random
// pieces with random pauses, sometimes stalling past the read time, in the body
// or in the headers. Invariants: every request gets an answer; a declared
// length over the cap is 413 before the body is read; a body over the cap is
// 413; a stall is 408; anything else is read and answered by the route; a
// 408/413 closes the connection; the server still answers afterwards.
// CI tries a fixed seed and a small budget; FUZZ_RUNS and FUZZ_SEED try more.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SafetyChain } from '../../agents/runtime/safety';
import { chosenToken } from '../../base/server-token';
import { startMcpHttp } from '../../hosts/mcp/http';
import { startRobotApi } from '../../hosts/robot-api/server';
import type { Robot } from '../../robot/robot';
import { type RawStep, head, rawRequest } from '../support/raw-http';
import { fuzzRuns, fuzzSeed } from './support/budget';

const runs = fuzzRuns;
const seed = (): number => fuzzSeed(34);

const CAP = 4096;
const LIMIT_MS = 300;
const TOKEN = chosenToken('fuzz-server-reads-token', 'test');

interface Door {
  name: string;
  port: number;
  path: string;
  headers: Record<string, string>;
  /** The route's own answer to a body of spaces it read whole. */
  readStatus: number;
  close(): Promise<void>;
}

async function robotApiDoor(): Promise<Door> {
  const robot = {
    info: { name: 'stand-in', capabilities: [] },
    events: { subscribe: () => () => undefined, since: async () => [] },
    perception: { relations: () => [] },
  } as unknown as Robot;
  const s = await startRobotApi({
    robot,
    chain: { guard: () => robot } as unknown as SafetyChain,
    token: TOKEN,
    limits: { maxBodyBytes: CAP, headersTimeoutMs: LIMIT_MS, bodyTimeoutMs: LIMIT_MS },
  });
  // A body of spaces is empty JSON: the unknown query is then looked up (404).
  return {
    name: 'robot-api',
    port: s.port,
    path: '/v1/query/none',
    headers: { authorization: `Bearer ${TOKEN}` },
    readStatus: 404,
    close: s.close,
  };
}

async function mcpDoor(): Promise<Door> {
  const s = await startMcpHttp({
    port: 0,
    token: TOKEN,
    maxBytes: CAP,
    readTimes: { headersTimeoutMs: LIMIT_MS, bodyTimeoutMs: LIMIT_MS },
    makeServer: () => new McpServer({ name: 'fuzz', version: '1' }),
  });
  // A body of spaces is no JSON-RPC message: a parse error (400).
  return {
    name: 'mcp --http',
    port: s.port,
    path: '/mcp',
    headers: { authorization: `Bearer ${TOKEN}`, accept: 'application/json, text/event-stream' },
    readStatus: 400,
    close: s.close,
  };
}

interface Client {
  size: number;
  framing: 'length' | 'chunked' | 'declares-over';
  pieces: number[];
  pauseMs: number;
  /** Where a pause past the read time comes: none, in the headers, or after this many body pieces. */
  stall: 'none' | 'headers' | number;
}

const client: fc.Arbitrary<Client> = fc.record({
  size: fc.oneof(fc.integer({ min: 0, max: CAP }), fc.integer({ min: CAP - 2, max: CAP + 2 }), fc.integer({ min: CAP + 1, max: 4 * CAP })),
  framing: fc.constantFrom<Client['framing']>('length', 'length', 'chunked', 'declares-over'),
  pieces: fc.array(fc.integer({ min: 64, max: 2048 }), { minLength: 1, maxLength: 12 }),
  pauseMs: fc.integer({ min: 0, max: 8 }),
  stall: fc.oneof(
    { weight: 3, arbitrary: fc.constant<'none'>('none') },
    { weight: 1, arbitrary: fc.constant<'headers'>('headers') },
    { weight: 1, arbitrary: fc.integer({ min: 0, max: 6 }) },
  ),
});

/**
 * The steps a client sends, the body bytes it sends before a stall (or all of
 * them), and whether anything of the request was still to come after the stall
 * (a chunked body's last chunk is followed by its terminator).
 */
function plan(door: Door, c: Client): { steps: RawStep[]; beforeStall: number; stalled: boolean } {
  const body = Buffer.alloc(c.size, 0x20);
  const length: Record<string, number> =
    c.framing === 'length' ? { 'content-length': c.size } : c.framing === 'declares-over' ? { 'content-length': CAP + 1 + c.size } : {};
  c.framing === 'length' ? { 'content-length': c.size } : c.framing === 'declares-over' ? { 'content-length': CAP + 1 + c.size } : {};
  const framing: Record<string, string> = c.framing === 'chunked' ? { 'transfer-encoding': 'chunked' } : {};
  const text = head('POST', door.path, door.port, { ...door.headers, 'content-type': 'application/json', ...length, ...framing });
  const steps: RawStep[] = [];
  if (c.stall === 'headers') {
    steps.push({ send: text.slice(0, 20), thenWaitMs: 3 * LIMIT_MS }, { send: text.slice(20) });
  } else steps.push({ send: text });
  let at = 0;
  let beforeStall = c.size;
  let stalled = false;
  // Pauses that are not stalls add up to well under the read time.
  const count = Math.ceil(c.size / Math.min(...c.pieces));
  const pause = count * c.pauseMs < LIMIT_MS / 4 ? c.pauseMs : 0;
  for (let i = 0; at < c.size; i++) {
    const n = Math.min(c.pieces[i % c.pieces.length]!, c.size - at);
    const piece = body.subarray(at, at + n);
    at += n;
    const stallHere = typeof c.stall === 'number' && c.stall === i;
    if (stallHere) {
      beforeStall = at;
      stalled = at < c.size || c.framing === 'chunked';
    }
    steps.push({
      send: c.framing === 'chunked' ? `${n.toString(16)}\r\n${piece.toString()}\r\n` : piece,
      thenWaitMs: stallHere ? 3 * LIMIT_MS : pause,
    });
  }
  if (c.framing === 'chunked') steps.push({ send: '0\r\n\r\n' });
  return { steps, beforeStall, stalled };
}

/** What the server must answer this client. */
function expected(door: Door, c: Client, beforeStall: number, stalled: boolean): number {
  if (c.stall === 'headers') return 408;
  if (c.framing === 'declares-over') return 413;
  if (c.framing === 'length' && c.size > CAP) return 413;
  // A chunked body over the cap is cut where it passes the cap, if that comes before a stall.
  if (c.size > CAP && (!stalled || beforeStall > CAP)) return 413;
  // A pause after the last byte of the request is no stall: it had all arrived.
  if (stalled) return 408;
  return door.readStatus;
}

describe.each([
  ['robot-api', robotApiDoor],
  ['mcp --http', mcpDoor],
])('%s reads requests under its limits (property)', (_name, open) => {
  let door: Door;
  beforeAll(async () => {
    door = await open();
  });
  afterAll(() => door?.close());

  it(
    'answers every generated client as its size, framing and pauses say',
    async () => {
      await fc.assert(
        fc.asyncProperty(client, async (c) => {
          const { steps, beforeStall, stalled } = plan(door, c);
          const r = await rawRequest(door.port, steps, 5000);
          const want = expected(door, c, beforeStall, stalled);
          expect({ status: r.status, client: c }).toMatchObject({ status: want });
          if (want === 408 || want === 413) expect(r.closed).toBe(true);
          const after = await rawRequest(door.port, [{ send: head('GET', '/nowhere', door.port, door.headers) }], 5000);
          expect(after.status).toBe(404);
        }),
        { seed: seed(), numRuns: runs(24) },
      );
      // A stall costs about a second; a longer run (FUZZ_RUNS) gets the time it needs.
    },
    Math.max(60_000, runs(24) * 2500),
  );
});
