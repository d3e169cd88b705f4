// An HTTP robot's e-stop reaches the safety chain whatever the stream looks like:
// CRLF line ends (allowed by the SSE standard), comments and `retry`, and a
// server restart whose event ids start again. The robot here answers
// robot.safety with a stale-free "released" that lags the stream, so only the
// event stream can stop the `place`.
import { type IncomingMessage, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { SafetyChain } from './index';
import { fakeInfo, sendJson } from '../../../test/support/fake-robot-server';
import { HttpRobot } from '../../../robot/http/http-robot';

interface Fake {
  url: string;
  port: number;
  placed: number;
  close(): Promise<void>;
}

type Stream = (res: ServerResponse, req: IncomingMessage) => void;

async function fake(stream: Stream, port = 0, info = fakeInfo(), counter = { placed: 0 }): Promise<Fake & { counter: { placed: number } }> {
  const server = createServer((req, res) => {
    req.resume();
    const path = new URL(req.url ?? '/', 'http://127.0.0.1').pathname;
    if (path === '/v1/info') return sendJson(res, 200, info);
    if (path === '/v1/events') {
      res.writeHead(200, { 'Content-Type': 'text/event-stream' });
      return stream(res, req);
    }
    if (path === '/v1/query/robot.safety') return sendJson(res, 200, { value: { estop: { state: 'released', ageS: 0.1 }, maxAgeS: 2 } });
    if (path === '/v1/query/events.since') return sendJson(res, 200, { value: [] });
    if (path === '/v1/query/robot.time') return sendJson(res, 200, { value: 1 });
    if (path === '/v1/skills/arm.place') {
      counter.placed++;
      return sendJson(res, 200, {
        job: {
          id: 'j',
          skill: 'arm.place',
          args: {},
          status: 'succeeded',
          progress: { elapsedS: 0 },
          outcome: { ok: true, summary: 'placed' },
        },
      });
    }
    sendJson(res, 404, { error: { code: 'not_found', message: path } });
  });
  await new Promise<void>((r) => server.listen(port, '127.0.0.1', () => r()));
  const p = (server.address() as AddressInfo).port;
  const f = {
    url: `http://127.0.0.1:${p}`,
    port: p,
    counter,
    get placed() {
      return counter.placed;
    },
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
  open.push(f);
  return f;
}

const open: Fake[] = [];
afterEach(async () => {
  for (const f of open.splice(0)) await f.close().catch(() => undefined);
});

const ev = (id: number, type: string, nl = '\n') =>
  [`id: ${id}`, 'event: robot', `data: ${JSON.stringify({ id, time: id, type, text: type, data: {} })}`, '', ''].join(nl);
const hello = (epoch: string, nl = '\n') => ['event: stream', `data: ${JSON.stringify({ epoch })}`, '', ''].join(nl);

async function until(cond: () => boolean, ms = 4000): Promise<void> {
  for (let t = 0; t < ms && !cond(); t += 50) await new Promise((r) => setTimeout(r, 50));
}

describe('an HTTP robot e-stop on the event stream blocks the next place', () => {
  it('with CRLF line ends, comments and retry', async () => {
    const f = await fake((res) => {
      res.write(': a comment\r\nretry: 500\r\n\r\n');
      res.write(hello('a', '\r\n'));
      setTimeout(() => res.write(ev(1, 'estop_pressed', '\r\n')), 100);
    });
    const robot = await HttpRobot.open({ url: f.url, token: 't', timeoutMs: 2000 });
    const chain = new SafetyChain(robot);
    const guarded = chain.guard({ via: 'direct' });
    const seen: string[] = [];
    robot.events.subscribe((e) => seen.push(e.type));
    await until(() => seen.length > 0);
    expect(seen).toEqual(['estop_pressed']);
    const out = await guarded.arm!.place({ kind: 'object', id: 'bowl_1' });
    expect(out).toMatchObject({ ok: false, code: 'estop' });
    expect(f.placed).toBe(0);
    chain.dispose();
    robot.close();
  }, 30_000);

  it('after the robot server restarts and its event ids start again', async () => {
    const first = await fake((res) => {
      res.write(hello('before'));
      res.write(ev(1, 'person_said'));
      res.write(ev(2, 'estop_pressed'));
      res.write(ev(3, 'estop_released'));
    });
    const robot = await HttpRobot.open({ url: first.url, token: 't', timeoutMs: 2000 });
    const chain = new SafetyChain(robot);
    const guarded = chain.guard({ via: 'direct' });
    const seen: string[] = [];
    robot.events.subscribe((e) => seen.push(`${e.id}:${e.type}`));
    await until(() => seen.length >= 3);
    expect(await guarded.arm!.place({ kind: 'object', id: 'bowl_1' })).toMatchObject({ ok: true });
    const queries: string[] = [];
    await first.close();
    // The restarted server numbers its events from 1 again.
    const second = await fake(
      (res, req) => {
        queries.push(`${req.url}|${String(req.headers['last-event-id'])}`);
        res.write(hello('after'));
        res.write(ev(1, 'estop_pressed'));
      },
      first.port,
      fakeInfo(),
      first.counter,
    );
    await until(() => seen.length >= 4, 15_000);
    expect(seen.at(-1)).toBe('1:estop_pressed');
    expect(queries[0]).toMatch(/since=3&epoch=before\|3$/);
    const out = await guarded.arm!.place({ kind: 'object', id: 'bowl_1' });
    expect(out).toMatchObject({ ok: false, code: 'estop' });
    expect(second.placed).toBe(1);
    chain.dispose();
    robot.close();
  }, 40_000);

  it('reads the robot’s e-stop with its age, and accepts a declared not_reported only when accepted', async () => {
    const stale = await fake(() => undefined);
    const robot = await HttpRobot.open({ url: stale.url, token: 't', timeoutMs: 2000 });
    // This fake reports an age of 0.1 s against a maximum of 2 s.
    expect(await robot.safety()).toMatchObject({ estop: { state: 'released', freshness: 'fresh' }, maxAgeS: 2 });
    robot.close();
    const none = await fake(() => undefined, 0, fakeInfo({ estop: 'not_reported', capabilities: ['arm', 'perception'] }));
    const quiet = await HttpRobot.open({ url: none.url, token: 't', timeoutMs: 2000 });
    expect((await quiet.safety()).estop.state).toBe('not_reported');
    expect(await new SafetyChain(quiet).guard({ via: 'direct' }).arm!.place({ kind: 'object', id: 'b' })).toMatchObject({
      ok: false,
      summary: expect.stringMatching(/--accept-no-estop/),
    });
    expect(none.placed).toBe(0);
    expect(
      await new SafetyChain(quiet, { acceptNoEstop: true }).guard({ via: 'direct' }).arm!.place({ kind: 'object', id: 'b' }),
    ).toMatchObject({
      ok: true,
    });
    quiet.close();
  }, 30_000);
});

describe('an HTTP robot job that never ends', () => {
  it('is cancelled after its timeout plus the stated grace and fails saying the robot state is unknown', async () => {
    const cancels: string[] = [];
    const running = { job: { id: 'j9', skill: 'arm.pick', args: {}, status: 'running', progress: { elapsedS: 0 }, outcome: null } };
    const server = createServer((req, res) => {
      req.resume();
      const path = new URL(req.url ?? '/', 'http://127.0.0.1').pathname;
      if (path === '/v1/info') return sendJson(res, 200, fakeInfo());
      // Green, so the motion is posted (an HTTP robot posts none on a safety state it cannot read).
      if (path === '/v1/query/robot.safety') return sendJson(res, 200, { value: { estop: { state: 'released', ageS: 0 }, maxAgeS: 2 } });
      if (path === '/v1/events') return void res.writeHead(200, { 'Content-Type': 'text/event-stream' }).write(': open\n\n');
      if (path.endsWith('/cancel')) {
        cancels.push(path);
        return sendJson(res, 200, running); // the robot does not confirm it stopped
      }
      // Every answer says "still running", after the long-poll the client asked for.
      const wait = Number(new URL(req.url ?? '/', 'http://127.0.0.1').searchParams.get('wait') ?? 0);
      setTimeout(() => sendJson(res, 202, running), Math.min(wait, 1) * 1000);
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const robot = await HttpRobot.open({ url, token: 't', timeoutMs: 2000, skillTimeoutS: 0.5 });
    const t0 = performance.now();
    const out = await robot.arm!.pick('x');
    const took = (performance.now() - t0) / 1000;
    expect(out).toMatchObject({
      ok: false,
      code: 'timeout',
      summary: expect.stringMatching(/did not end within 1 s \(\+10 s grace\) and was cancelled.*state .* is unknown/),
    });
    expect(cancels).toEqual(['/v1/jobs/j9/cancel']);
    expect(took).toBeLessThan(25);
    robot.close();
    server.closeAllConnections();
    await new Promise<void>((r) => server.close(() => r()));
  }, 40_000);
});
