// The wire under the `http` robot source: one JSON request with a timeout and
// the token, every answer validated against the protocol. Whatever goes wrong —
// nothing listening, a slow answer, a dropped connection, a body that is not
// JSON or not the schema, a wrong token — becomes one RobotConnectionError whose
// message names the robot, the request and the cause.
import { request } from 'node:http';
import type { z } from 'zod';
import { ErrorResponse } from './protocol';

export class RobotConnectionError extends Error {
  override name = 'RobotConnectionError';
  constructor(
    message: string,
    /** unreachable: nothing answered; dropped: the connection broke after the request went out; timeout: too slow; protocol: an answer outside the schema; refused: the robot said no (4xx/5xx). */
    readonly kind: 'unreachable' | 'dropped' | 'timeout' | 'protocol' | 'refused' | 'aborted',
    readonly status?: number,
  ) {
    super(message);
  }
}

export interface WireOptions {
  url: string;
  token: string;
  /** Per request, unless the call gives its own. */
  timeoutMs: number;
}

const MAX_ANSWER = 8 * 1024 * 1024;

export class Wire {
  readonly base: URL;

  constructor(readonly opts: WireOptions) {
    this.base = new URL(opts.url);
  }

  /** Sends one request; resolves with the validated answer and its HTTP status. */
  async call<S extends z.ZodType>(
    method: 'GET' | 'POST',
    path: string,
    body: unknown,
    schema: S,
    o: { timeoutMs?: number; signal?: AbortSignal } = {},
  ): Promise<{ status: number; value: z.output<S> }> {
    const what = `${method} ${path}`;
    const { status, text } = await this.raw(method, path, body, o);
    let json: unknown;
    try {
      json = text ? (JSON.parse(text) as unknown) : undefined;
    } catch {
      throw new RobotConnectionError(
        `the robot at ${this.opts.url} answered ${what} with something that is not JSON (${clip(text)})`,
        'protocol',
        status,
      );
    }
    if (status >= 400) {
      const err = ErrorResponse.safeParse(json);
      const msg = err.success ? err.data.error.message : `HTTP ${status} ${clip(text)}`;
      throw new RobotConnectionError(
        status === 401 ? `the robot at ${this.opts.url} refused the token: ${msg} (set SKILLBRIDGE_ROBOT_TOKEN)` : msg,
        'refused',
        status,
      );
    }
    const parsed = schema.safeParse(json);
    if (!parsed.success) {
      const i = parsed.error.issues[0]!;
      const field = i.path.length ? i.path.map(String).join('.') : '(body)';
      throw new RobotConnectionError(
        `the robot at ${this.opts.url} answered ${what} outside the protocol: ${field}: ${i.message}`,
        'protocol',
        status,
      );
    }
    return { status, value: parsed.data };
  }

  private raw(
    method: string,
    path: string,
    body: unknown,
    o: { timeoutMs?: number; signal?: AbortSignal },
  ): Promise<{ status: number; text: string }> {
    const what = `${method} ${path}`;
    const timeoutMs = o.timeoutMs ?? this.opts.timeoutMs;
    const payload = body === undefined ? undefined : JSON.stringify(body);
    return new Promise((resolve, reject) => {
      if (o.signal?.aborted) return reject(new RobotConnectionError(`${what} was cancelled`, 'aborted'));
      const url = new URL(path, this.base);
      const req = request(url, {
        method,
        headers: {
          authorization: `Bearer ${this.opts.token}`,
          accept: 'application/json',
          ...(payload !== undefined ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) } : {}),
        },
      });
      let settled = false;
      const fail = (e: RobotConnectionError) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        o.signal?.removeEventListener('abort', onAbort);
        req.destroy();
        reject(e);
      };
      const timer = setTimeout(
        () =>
          fail(new RobotConnectionError(`the robot at ${this.opts.url} did not answer ${what} within ${timeoutMs / 1000} s`, 'timeout')),
        timeoutMs,
      );
      const onAbort = () => fail(new RobotConnectionError(`${what} was cancelled`, 'aborted'));
      o.signal?.addEventListener('abort', onAbort, { once: true });
      req.on('error', (e: NodeJS.ErrnoException) => {
        if (e.code === 'ECONNRESET' || e.message === 'socket hang up')
          return fail(new RobotConnectionError(`the connection to the robot at ${this.opts.url} was dropped during ${what}`, 'dropped'));
        const cause = e.code === 'ECONNREFUSED' ? 'nothing is listening there (is robot-api running?)' : e.message;
        fail(new RobotConnectionError(`the robot at ${this.opts.url} could not be reached for ${what}: ${cause}`, 'unreachable'));
      });
      req.on('response', (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (c: Buffer) => {
          size += c.length;
          if (size > MAX_ANSWER)
            fail(new RobotConnectionError(`the robot at ${this.opts.url} answered ${what} with more than 8 MiB`, 'protocol'));
          else chunks.push(c);
        });
        res.on('error', () =>
          fail(new RobotConnectionError(`the connection to the robot at ${this.opts.url} was dropped during ${what}`, 'dropped')),
        );
        res.on('aborted', () =>
          fail(new RobotConnectionError(`the connection to the robot at ${this.opts.url} was dropped during ${what}`, 'dropped')),
        );
        res.on('end', () => {
          if (settled) return;
          settled = true;
          clearTimeout(timer);
          o.signal?.removeEventListener('abort', onAbort);
          resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') });
        });
      });
      req.end(payload);
    });
  }
}

function clip(text: string): string {
  const one = text.replace(/\s+/g, ' ').trim();
  return one.length > 80 ? `${one.slice(0, 80)}…` : one || '(empty)';
}
