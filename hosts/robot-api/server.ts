// The robot HTTP API server: any Robot — the simulator here —
// served over HTTP on 127.0.0.1 with a bearer token, as ALRM serves its arm
// behind a REST server (paper 002 §III.B.C). Info, every query, every skill as a
// job (status, progress, cancel), events as server-sent events, ALRM's eight
// actions by their paper names, and the OpenAPI document generated from the
// same zod schemas the `http` robot source reads with. Every skill and every
// ALRM action passes the safety chain (via 'http').
import { randomBytes } from 'node:crypto';
import { type IncomingMessage, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ApprovalMode } from '../../agents/runtime/approval';
import { type SafetyChain, type SafetyDecision, runToolSafely } from '../../agents/runtime/safety';
import type { Tool } from '../../agents/tools/tool';
import { openApiDocument } from '../../robot/http/openapi';
import {
  ALRM_ACTIONS,
  type ErrorCode,
  type Job,
  PROTOCOL,
  QUERIES,
  type QueryName,
  SKILL_ARGS,
  firstIssue,
} from '../../robot/http/protocol';
import type { Robot } from '../../robot/robot';
import { type SkillCall, type SkillName, callSkill, groupOf } from '../../robot/skills';
import { BodyLimitError, type ReadLimits, answerClientErrors, closeAfter, readBody, serverOptions, targetOf } from '../../base/http-limits';
import { type ServerToken, bearer, sameToken, serverToken } from '../../base/server-token';
import { Jobs } from './jobs';
import { UNSUPPORTED, runQuery } from './queries';

export interface RobotApiOptions {
  robot: Robot;
  chain: SafetyChain;
  /** ALRM's eight tools (agents/tools/sets/alrm), served at /pick, /place…; omitted for robots without an arm. */
  alrm?: readonly Tool[];
  port?: number;
  /** Default: a fresh random token (base/server-token.ts). */
  token?: ServerToken;
  /** How long and how much one request may send (default: headers 10 s, body 10 s, 64 KiB). */
  limits?: Partial<ReadLimits>;
  /** 'deny' serves a read-only robot: every skill is refused. */
  actions?: Extract<ApprovalMode, 'auto' | 'deny'>;
  log?: (line: string) => void;
  onDecision?: (d: SafetyDecision) => void;
}

export interface RobotApiServer {
  url: string;
  port: number;
  token: string;
  openapi: string;
  close(): Promise<void>;
}

const HOST = '127.0.0.1';
const MAX_WAIT_S = 30;
/** A skill's or a query's arguments are a few hundred bytes; no request has reason to take long. */
export const ROBOT_API_LIMITS: ReadLimits = { maxBodyBytes: 64 * 1024, headersTimeoutMs: 10_000, bodyTimeoutMs: 10_000 };

class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorCode,
    message: string,
  ) {
    super(message);
  }
}

async function readJson(req: IncomingMessage, limits: ReadLimits): Promise<unknown> {
  let raw: Buffer;
  try {
    raw = await readBody(req, limits);
  } catch (e) {
    if (e instanceof BodyLimitError) throw new HttpError(e.status, e.status === 413 ? 'too_large' : 'too_slow', e.message);
    throw e;
  }
  const text = raw.toString('utf8').trim();
  if (!text) return {};
  try {
    return JSON.parse(text) as unknown;
  } catch (e) {
    throw new HttpError(400, 'bad_request', `the body is not JSON: ${(e as Error).message}`);
  }
}

function waitParam(url: URL): number {
  const raw = url.searchParams.get('wait');
  if (raw === null) return 0;
  const n = Number(raw);
  if (!Number.isFinite(n) || n < 0)
    throw new HttpError(400, 'bad_request', `wait must be a number of seconds from 0 to ${MAX_WAIT_S}, got "${raw}"`);
  return Math.min(n, MAX_WAIT_S);
}

export async function startRobotApi(opts: RobotApiOptions): Promise<RobotApiServer> {
  const { robot, chain } = opts;
  const token = serverToken(opts.token);
  const limits: ReadLimits = { ...ROBOT_API_LIMITS, ...opts.limits };
  const log = opts.log ?? (() => undefined);
  const mode = opts.actions ?? 'auto';
  const alrm = new Map((opts.alrm ?? []).map((t) => [t.name, t] as const));
  const toolState = new Map<string, unknown>();
  const clients = new Set<ServerResponse>();
  let port = 0;
  let seq = 0;
  // New at each start: a client that saw another epoch replays this server's events from the first.
  const epoch = randomBytes(8).toString('hex');

  const broadcast = (event: string, data: unknown, id?: number): void => {
    const text = `${id !== undefined ? `id: ${id}\n` : ''}event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
    for (const c of clients) c.write(text);
  };
  const report = (d: SafetyDecision): void => {
    opts.onDecision?.(d);
    broadcast('safety', d);
    if (d.verdict !== 'allow') log(`safety ${d.verdict} ${d.skill}: ${d.reason}`);
  };
  const jobs = new Jobs(robot, (job: Job) => broadcast('job', job));
  const unsubscribe = robot.events.subscribe((e) => broadcast('robot', e, e.id));
  const guarded = chain.guard({ via: 'http', approval: mode, report });

  const send = (res: ServerResponse, status: number, body: unknown): void => {
    const text = JSON.stringify(body);
    res.writeHead(status, {
      'Content-Type': 'application/json; charset=utf-8',
      'Cache-Control': 'no-store',
      'X-Content-Type-Options': 'nosniff',
    });
    res.end(text);
  };

  /** A client that waits on a job and goes away before the answer takes the job with it. */
  const cancelIfLeft = (res: ServerResponse, id: string): void => {
    res.once('close', () => {
      if (!res.writableFinished) {
        log(`job ${id}: the waiting client went away; cancelling it`);
        jobs.abandon(id);
      }
    });
  };

  async function startSkill(name: SkillName, body: unknown, url: URL, res: ServerResponse): Promise<{ status: number; body: unknown }> {
    const parsed = SKILL_ARGS[name].safeParse(body);
    if (!parsed.success) throw new HttpError(400, 'bad_request', firstIssue(parsed.error, `${name}:`));
    const group = groupOf(name);
    if (group && !robot[group])
      throw new HttpError(
        501,
        'unsupported',
        `${robot.info.name} has no ${group} capability (it has: ${robot.info.capabilities.join(', ')})`,
      );
    const call = { skill: name, args: parsed.data } as SkillCall;
    const job = await jobs.start(call, (signal) => callSkill(guarded, call, signal));
    const wait = waitParam(url);
    if (wait > 0) cancelIfLeft(res, job.id);
    const now = wait > 0 ? await jobs.get(job.id, wait) : job;
    return { status: now!.status === 'running' ? 202 : 200, body: { job: now } };
  }

  async function route(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = targetOf(req.url, `http://${HOST}`);
    if (!url) throw new HttpError(400, 'bad_request', 'the request target is not a path on this server');
    const path = url.pathname;
    if (req.headers.host !== `${HOST}:${port}` && req.headers.host !== `localhost:${port}`)
      throw new HttpError(421, 'wrong_host', 'wrong Host header: this server answers to 127.0.0.1 only');
    if (path === '/openapi.json' && req.method === 'GET') return send(res, 200, openApiDocument(`http://${HOST}:${port}`));
    const given = bearer(req.headers.authorization) ?? (path === '/v1/events' ? url.searchParams.get('token') : undefined);
    if (!sameToken(given, token))
      throw new HttpError(401, 'unauthorized', 'missing or wrong token: send "Authorization: Bearer TOKEN" (the token robot-api printed)');

    if (req.method === 'GET' && path === '/v1/info')
      return send(res, 200, { protocol: PROTOCOL, info: robot.info, relations: [...robot.perception.relations()] });
    if (req.method === 'GET' && path === '/v1/events') return openStream(req, res, url);
    const jobMatch = /^\/v1\/jobs\/([\w-]+)(\/cancel)?$/.exec(path);
    if (jobMatch) {
      const cancel = Boolean(jobMatch[2]);
      if (req.method !== (cancel ? 'POST' : 'GET')) throw new HttpError(405, 'bad_request', `use ${cancel ? 'POST' : 'GET'} for ${path}`);
      const wait = waitParam(url);
      if (!cancel && wait > 0) cancelIfLeft(res, jobMatch[1]!);
      const job = cancel ? await jobs.cancel(jobMatch[1]!) : await jobs.get(jobMatch[1]!, wait);
      if (!job) throw new HttpError(404, 'not_found', `no job "${jobMatch[1]}" (jobs are kept for the last 200 skills)`);
      return send(res, 200, { job });
    }
    if (req.method !== 'POST') throw new HttpError(404, 'not_found', `no ${req.method} ${path}; see /openapi.json`);
    const body = await readJson(req, limits);
    if (path.startsWith('/v1/query/')) {
      const name = path.slice('/v1/query/'.length);
      if (!Object.hasOwn(QUERIES, name))
        throw new HttpError(404, 'not_found', `no query "${name}"; queries: ${Object.keys(QUERIES).join(', ')}`);
      const q = name as QueryName;
      const parsed = QUERIES[q].args.safeParse(body);
      if (!parsed.success) throw new HttpError(400, 'bad_request', firstIssue(parsed.error, `${q}:`));
      let value: unknown;
      try {
        value = await runQuery(robot, q, parsed.data);
      } catch (e) {
        // The robot's own answer to a query it cannot do (an unknown relation, a missing object).
        throw new HttpError(422, 'query_failed', (e as Error).message ?? String(e));
      }
      if (value === UNSUPPORTED)
        throw new HttpError(
          501,
          'unsupported',
          `${robot.info.name} cannot answer ${q} (capabilities: ${robot.info.capabilities.join(', ')})`,
        );
      return send(res, 200, { value: value ?? null });
    }
    if (path.startsWith('/v1/skills/')) {
      const name = path.slice('/v1/skills/'.length);
      if (!Object.hasOwn(SKILL_ARGS, name))
        throw new HttpError(404, 'not_found', `no skill "${name}"; skills: ${Object.keys(SKILL_ARGS).join(', ')}`);
      const r = await startSkill(name as SkillName, body, url, res);
      return send(res, r.status, r.body);
    }
    const action = path.slice(1);
    if ((ALRM_ACTIONS as readonly string[]).includes(action)) {
      const tool = alrm.get(action);
      if (!tool) throw new HttpError(501, 'unsupported', `${robot.info.name} does not serve ALRM's ${action} (it needs an arm)`);
      const r = await runToolSafely(chain, tool, body, {
        via: 'http',
        gate: { policy: { information: 'auto', action: mode } },
        state: toolState,
        report,
      });
      if (r.status === 'invalid_arguments') throw new HttpError(400, 'bad_request', r.result.content.replace(/\n/g, ' '));
      return send(res, 200, { ok: r.result.ok, result: r.result.content, ...(r.result.data !== undefined ? { data: r.result.data } : {}) });
    }
    throw new HttpError(404, 'not_found', `no POST ${path}; see /openapi.json`);
  }

  function openStream(req: IncomingMessage, res: ServerResponse, url: URL): void {
    res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-store', Connection: 'keep-alive' });
    res.write(`: ${PROTOCOL} events\n\n`);
    res.write(`event: stream\ndata: ${JSON.stringify({ epoch })}\n\n`);
    const other = url.searchParams.get('epoch');
    const since = other !== null && other !== epoch ? 0 : Number(url.searchParams.get('since') ?? req.headers['last-event-id'] ?? NaN);
    if (Number.isInteger(since) && since >= 0) {
      void robot.events.since(since).then((past) => {
        for (const e of past) res.write(`id: ${e.id}\nevent: robot\ndata: ${JSON.stringify(e)}\n\n`);
      });
    }
    clients.add(res);
    const ping = setInterval(() => res.write(`: ping ${++seq}\n\n`), 15_000);
    ping.unref();
    req.on('close', () => {
      clearInterval(ping);
      clients.delete(res);
    });
  }

  const server = createServer(serverOptions(limits), (req, res) => {
    route(req, res).catch((e: unknown) => {
      if (res.headersSent) return void res.end();
      // An answer before the body was read (401, 408, 413…) ends the connection: the rest is never read.
      if (!req.complete) closeAfter(res);
      if (e instanceof HttpError) return send(res, e.status, { error: { code: e.code, message: e.message } });
      log(`internal error: ${(e as Error).stack ?? String(e)}`);
      send(res, 500, { error: { code: 'internal', message: `the robot API failed: ${(e as Error).message ?? String(e)}` } });
    });
  });
  answerClientErrors(
    server,
    (status, message) => ({
      contentType: 'application/json; charset=utf-8',
      body: JSON.stringify({ error: { code: status === 408 ? 'too_slow' : status === 431 ? 'too_large' : 'bad_request', message } }),
    }),
    limits,
  );
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, HOST, () => resolve());
  });
  port = (server.address() as AddressInfo).port;
  const url = `http://${HOST}:${port}`;
  return {
    url,
    port,
    token,
    openapi: `${url}/openapi.json`,
    close: async () => {
      unsubscribe();
      jobs.dispose();
      for (const c of clients) c.end();
      clients.clear();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
