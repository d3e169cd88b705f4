// A tiny robot HTTP API server that misbehaves on purpose: it answers with
// garbage, answers slowly, or drops the connection mid-skill, so the `http`
// robot source's faults can be tested without a real robot.
import { type IncomingMessage, type ServerResponse, createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';

export type FakeBehaviour = (req: IncomingMessage, res: ServerResponse, path: string) => void;

export interface FakeRobotServer {
  url: string;
  /** Requests seen, "METHOD /path". */
  seen: string[];
  close(): Promise<void>;
}

/** A valid info answer for a fixed arm, to start from. */
export function fakeInfo(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    protocol: 'skillbridge-robot/1',
    relations: ['on', 'in'],
    info: {
      id: 'fake',
      name: 'Fake arm',
      kind: 'fixed_arm',
      description: 'a test double',
      capabilities: ['arm', 'perception', 'events'],
      scene: { id: 'fake/scene', title: 'Fake', notes: [], userInfo: [], toolSet: 'alrm' },
      arm: { reachM: 0.6, payloadKg: 0.25, gripperOpeningM: 0.08, postures: ['home'] },
      places: [],
      referencePositions: [],
      batteryThresholds: { low: 20, critical: 5 },
      ...overrides,
    },
  };
}

export async function startFakeRobotServer(behave: FakeBehaviour): Promise<FakeRobotServer> {
  const seen: string[] = [];
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://127.0.0.1').pathname;
    seen.push(`${req.method} ${path}`);
    req.resume();
    behave(req, res, path);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'Content-Type': 'application/json' });
  res.end(JSON.stringify(body));
}

/** What the stand-in answers to robot.safety: a JSON body, raw text (`1e999`, not JSON), an HTTP status, no answer, or a dropped line. */
export type SafetyAnswer = { json: unknown; delayMs?: number } | { raw: string } | { status: number } | 'hang' | 'drop';

/** One thing the stand-in did or received, in order, with performance.now() ms. */
export type StandInEntry =
  | { at: number; kind: 'safety'; answer: SafetyAnswer }
  /** The robot's own reading changed (what robot.safety answers from now on). */
  | { at: number; kind: 'answer-set'; answer: SafetyAnswer }
  | { at: number; kind: 'stream-open' }
  | { at: number; kind: 'event'; type: string }
  | { at: number; kind: 'stream-drop' }
  | { at: number; kind: 'restart' }
  | { at: number; kind: 'post'; skill: string; id: string; streamsOpen: number }
  | { at: number; kind: 'cancel'; id: string; known: boolean }
  | { at: number; kind: 'job-end'; id: string; status: string };

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

export interface StandInOptions {
  info?: Record<string, unknown>;
  safety?: SafetyAnswer;
  /** How long a job runs before it succeeds, ms; undefined: until it is cancelled. */
  jobMs?: number;
  /** Sent first on every event stream (`retry: N`), verbatim. */
  retry?: string;
  /** The event stream: open (the default), closed at once after its hello, or answered 404. */
  stream?: 'open' | 'close' | 404;
}

/**
 * A stand-in for an HTTP robot whose every answer a test sets: robot.safety
 * (any body, raw text, a status, no answer, a drop), the event stream (its
 * `retry:`, events, drops), jobs that run until cancelled or for `jobMs`, and
 * restarts on the same port (new epoch, jobs forgotten). It counts what it
 * received and keeps a timeline, so a test checks what reached the robot.
 */
export interface StandInRobot {
  readonly url: string;
  readonly timeline: StandInEntry[];
  /** Requests seen, "METHOD /path". */
  readonly seen: string[];
  /** Event stream connections opened. */
  readonly connections: () => number;
  /** Motion and other jobs posted (POST /v1/skills/…). */
  readonly posts: () => Array<Extract<StandInEntry, { kind: 'post' }>>;
  readonly cancels: () => Array<Extract<StandInEntry, { kind: 'cancel' }>>;
  /** Jobs still running on the robot. */
  readonly running: () => string[];
  set(o: Partial<Pick<StandInOptions, 'safety' | 'jobMs' | 'retry' | 'stream'>>): void;
  /** Sends a robot event (estop_pressed, …) on every open stream. */
  event(type: string): void;
  /** Writes raw text on every open stream. */
  write(text: string): void;
  /** Ends every open stream (the server stays up). */
  dropStreams(): void;
  /** Stops and starts again on the same port: connections cut, a new epoch, every job forgotten. */
  restart(): Promise<void>;
  close(): Promise<void>;
}

interface StandInJob {
  id: string;
  skill: string;
  args: unknown;
  status: 'running' | 'succeeded' | 'failed' | 'cancelled';
  startedAt: number;
  outcome: unknown;
  timer?: ReturnType<typeof setTimeout>;
  waiters: Array<() => void>;
}

export async function startStandInRobot(opts: StandInOptions = {}): Promise<StandInRobot> {
  const o: StandInOptions = { safety: { json: { estop: { state: 'released', ageS: 0 }, maxAgeS: 2 } }, stream: 'open', ...opts };
  const info = opts.info ?? fakeInfo();
  const timeline: StandInEntry[] = [];
  const seen: string[] = [];
  const streams = new Set<ServerResponse>();
  let jobs = new Map<string, StandInJob>();
  let seq = 0;
  let eventId = 0;
  let epoch = 'e0';
  let connections = 0;
  const log = (e: DistributiveOmit<StandInEntry, 'at'>): void => void timeline.push({ at: performance.now(), ...e } as StandInEntry);

  const jobJson = (j: StandInJob) => ({
    id: j.id,
    skill: j.skill,
    args: j.args,
    status: j.status,
    progress: { elapsedS: (performance.now() - j.startedAt) / 1000 },
    outcome: j.outcome,
  });
  const end = (j: StandInJob, status: StandInJob['status'], outcome: unknown): void => {
    if (j.status !== 'running') return;
    clearTimeout(j.timer);
    j.status = status;
    j.outcome = outcome;
    log({ kind: 'job-end', id: j.id, status });
    for (const w of j.waiters.splice(0)) w();
  };
  /** Answers with the job now, or when it ends, or after `wait` seconds. */
  const answerJob = (res: ServerResponse, j: StandInJob, wait: number, status = 200): void => {
    if (j.status !== 'running' || wait <= 0) return sendJson(res, status, { job: jobJson(j) });
    const send = () => {
      clearTimeout(t);
      if (!res.writableEnded) sendJson(res, status, { job: jobJson(j) });
    };
    const t = setTimeout(send, wait * 1000);
    j.waiters.push(send);
    res.on('close', () => clearTimeout(t));
  };
  const answerSafety = (res: ServerResponse): void => {
    const a = o.safety!;
    log({ kind: 'safety', answer: a });
    if (a === 'hang') return;
    if (a === 'drop') return void res.socket?.destroy();
    if ('status' in a) return sendJson(res, a.status, { error: { code: 'not_found', message: 'robot.safety' } });
    const text = 'raw' in a ? a.raw : JSON.stringify({ value: a.json });
    const send = () => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(text);
    };
    if ('delayMs' in a && a.delayMs) setTimeout(send, a.delayMs);
    else send();
  };

  const handle = (req: IncomingMessage, res: ServerResponse): void => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const path = url.pathname;
    seen.push(`${req.method} ${path}`);
    const wait = Number(url.searchParams.get('wait') ?? 0) || 0;
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString('utf8')));
    req.on('end', () => {
      if (path === '/v1/info') return sendJson(res, 200, info);
      if (path === '/v1/events') {
        if (o.stream === 404) return sendJson(res, 404, { error: { code: 'not_found', message: path } });
        connections++;
        log({ kind: 'stream-open' });
        res.writeHead(200, { 'Content-Type': 'text/event-stream' });
        if (o.retry !== undefined) res.write(`retry: ${o.retry}\n\n`);
        res.write(`event: stream\ndata: ${JSON.stringify({ epoch })}\n\n`);
        if (o.stream === 'close') {
          res.end();
          return log({ kind: 'stream-drop' });
        }
        streams.add(res);
        res.on('close', () => streams.delete(res));
        return;
      }
      if (path === '/v1/query/robot.safety') return answerSafety(res);
      if (path === '/v1/query/events.since') return sendJson(res, 200, { value: [] });
      if (path === '/v1/query/events.lastId') return sendJson(res, 200, { value: eventId });
      if (path === '/v1/query/robot.time') return sendJson(res, 200, { value: performance.now() / 1000 });
      const skill = /^\/v1\/skills\/([\w.]+)$/.exec(path);
      if (skill && req.method === 'POST') {
        const j: StandInJob = {
          id: `j${++seq}`,
          skill: skill[1]!,
          args: body ? (JSON.parse(body) as unknown) : {},
          status: 'running',
          startedAt: performance.now(),
          outcome: null,
          waiters: [],
        };
        jobs.set(j.id, j);
        log({ kind: 'post', skill: j.skill, id: j.id, streamsOpen: streams.size });
        if (o.jobMs !== undefined) j.timer = setTimeout(() => end(j, 'succeeded', { ok: true, summary: `${j.skill} done` }), o.jobMs);
        return answerJob(res, j, wait, 202);
      }
      const job = /^\/v1\/jobs\/([\w-]+)(\/cancel)?$/.exec(path);
      if (job) {
        const j = jobs.get(job[1]!);
        if (job[2]) log({ kind: 'cancel', id: job[1]!, known: !!j });
        if (!j) return sendJson(res, 404, { error: { code: 'not_found', message: `no job "${job[1]}"` } });
        if (job[2]) {
          end(j, 'cancelled', { ok: false, code: 'aborted', summary: `${j.skill} was cancelled` });
          return sendJson(res, 200, { job: jobJson(j) });
        }
        return answerJob(res, j, wait);
      }
      sendJson(res, 404, { error: { code: 'not_found', message: path } });
    });
  };

  let server = createServer(handle);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as AddressInfo;
  const stop = async (): Promise<void> => {
    for (const s of streams) s.destroy();
    streams.clear();
    for (const j of jobs.values()) clearTimeout(j.timer);
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
  const send = (text: string): void => {
    for (const s of streams) s.write(text);
  };
  return {
    url: `http://127.0.0.1:${port}`,
    timeline,
    seen,
    connections: () => connections,
    posts: () => timeline.filter((e): e is Extract<StandInEntry, { kind: 'post' }> => e.kind === 'post'),
    cancels: () => timeline.filter((e): e is Extract<StandInEntry, { kind: 'cancel' }> => e.kind === 'cancel'),
    running: () => [...jobs.values()].filter((j) => j.status === 'running').map((j) => j.id),
    set: (next) => {
      if (next.safety !== undefined) log({ kind: 'answer-set', answer: next.safety });
      Object.assign(o, next);
    },
    event: (type) => {
      eventId++;
      log({ kind: 'event', type });
      send(`id: ${eventId}\nevent: robot\ndata: ${JSON.stringify({ id: eventId, time: eventId, type, text: type, data: {} })}\n\n`);
    },
    write: send,
    dropStreams: () => {
      if (streams.size) log({ kind: 'stream-drop' });
      for (const s of streams) s.destroy();
      streams.clear();
    },
    restart: async () => {
      log({ kind: 'restart' });
      await stop();
      jobs = new Map();
      epoch = `e${timeline.length}`;
      eventId = 0;
      server = createServer(handle);
      await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', () => resolve()));
    },
    close: stop,
  };
}

export interface CountingProxy {
  readonly url: string;
  /** Requests that reached the robot through the proxy, "METHOD /path". */
  readonly seen: string[];
  /** Motion and other jobs posted (POST /v1/skills/…). */
  readonly skills: () => string[];
  close(): Promise<void>;
}

/**
 * A loopback proxy in front of a real robot API (robot-api over a simulator):
 * everything passes through unchanged (the Host header set to the robot's),
 * and every request is counted, so a test proves what reached the robot.
 */
export async function startCountingProxy(target: string): Promise<CountingProxy> {
  const to = new URL(target);
  const seen: string[] = [];
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://127.0.0.1').pathname;
    seen.push(`${req.method} ${path}`);
    const out = request(
      { host: to.hostname, port: to.port, path: req.url, method: req.method, headers: { ...req.headers, host: to.host } },
      (up) => {
        res.writeHead(up.statusCode ?? 502, up.headers);
        up.pipe(res);
      },
    );
    out.on('error', () => res.destroy());
    res.on('close', () => out.destroy());
    req.pipe(out);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    skills: () => seen.filter((s) => s.startsWith('POST /v1/skills/')),
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
