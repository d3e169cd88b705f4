// The robot's events over server-sent events: one connection per robot, opened
// when the first listener subscribes, reconnected (resuming after the last event
// id, sent as Last-Event-ID), so events keep flowing across a restart of the
// server. The stream is parsed by eventsource-parser, which follows the SSE
// standard (LF, CR and CRLF line ends, comments, `retry`, multi-line data).
// Each stream opens with a `stream` event naming the server's epoch: after a
// restart the ids start again, so a new epoch resets the last id seen instead of
// dropping every event numbered at or below it. Malformed events are dropped.
// Reconnects back off exponentially between a floor and a cap whatever the
// server's `retry:` says (`retry: 0` would otherwise reconnect in a tight loop);
// the backoff starts again only after a connection that stayed up.
import { request } from 'node:http';
import { type EventSourceMessage, createParser } from 'eventsource-parser';
import type { RobotEvent } from '../robot';
import { RobotEventSchema, StreamHello } from './protocol';

/** The shortest wait before a reconnect, ms, whatever the server's `retry:` says. */
export const RETRY_FLOOR_MS = 500;
/** The longest wait before a reconnect, ms. */
export const RETRY_CAP_MS = 15_000;
/** A connection up this long starts the backoff again from the floor. */
const STABLE_MS = 15_000;

/** The wait before reconnect number `attempt` (0 first): doubling from the floor, at least the server's advice, at most the cap. */
export function reconnectDelay(attempt: number, serverRetryMs: number | undefined): number {
  const backoff = RETRY_FLOOR_MS * 2 ** Math.min(attempt, 16);
  return Math.min(RETRY_CAP_MS, Math.max(RETRY_FLOOR_MS, serverRetryMs ?? 0, backoff));
}

export interface EventStreamOptions {
  url: string;
  token: string;
  /** How long the server may take to answer a connect before it is tried again, ms. */
  connectTimeoutMs?: number;
  onEvent: (e: RobotEvent) => void;
  /** Other SSE events (job, safety), raw. */
  onOther?: (event: string, data: unknown) => void;
  onState?: (connected: boolean, why?: string) => void;
  /** The server restarted (a new epoch): state read before is no longer the robot's. */
  onRestart?: (epoch: string) => void;
}

export class SseClient {
  private lastId = -1;
  private epoch: string | undefined;
  private closed = false;
  private attempt = 0;
  /** The server's `retry` advice, ms. */
  private retryMs: number | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private current: { destroy(): void } | undefined;
  private connectedAt: number | undefined;
  connected = false;
  /** Why the stream is not connected (the last failure), for a person. */
  why: string | undefined = 'not connected yet';
  private settleFirst: (() => void) | undefined;
  /** Resolves when the first connect has succeeded or failed. */
  readonly firstAttempt = new Promise<void>((r) => (this.settleFirst = r));

  constructor(private readonly o: EventStreamOptions) {}

  start(fromId: number): void {
    this.lastId = fromId;
    this.connect();
  }

  close(): void {
    this.closed = true;
    clearTimeout(this.timer);
    const req = this.current;
    this.current = undefined;
    this.connected = false;
    req?.destroy();
  }

  private connect(): void {
    if (this.closed) return;
    const url = new URL('/v1/events', this.o.url);
    if (this.lastId >= 0) url.searchParams.set('since', String(this.lastId));
    if (this.epoch) url.searchParams.set('epoch', this.epoch);
    const req = request(url, {
      // Its own socket, never pooled: the stream's socket is unref'd, a pooled one would carry that to other requests.
      agent: false,
      headers: {
        authorization: `Bearer ${this.o.token}`,
        accept: 'text/event-stream',
        ...(this.lastId >= 0 ? { 'last-event-id': String(this.lastId) } : {}),
      },
    });
    this.current = req;
    // The stream alone does not keep a process alive (a one-shot `call` ends when its work does).
    req.on('socket', (sock) => sock.unref());
    const connectTimer = setTimeout(
      () => this.current === req && this.retry(`no answer to the connect within ${(this.o.connectTimeoutMs ?? 10_000) / 1000} s`),
      this.o.connectTimeoutMs ?? 10_000,
    );
    connectTimer.unref?.();
    const parser = createParser({
      onEvent: (m) => this.dispatch(m),
      onRetry: (ms) => {
        if (Number.isFinite(ms) && ms >= 0) this.retryMs = ms;
      },
      maxBufferSize: 1024 * 1024,
    });
    req.on('response', (res) => {
      clearTimeout(connectTimer);
      if (this.current !== req) return void res.resume();
      if (res.statusCode !== 200) {
        res.resume();
        this.retry(`HTTP ${res.statusCode}`);
        return;
      }
      this.connected = true;
      this.connectedAt = performance.now();
      this.why = undefined;
      this.o.onState?.(true);
      this.settleFirst?.();
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        if (this.current === req) parser.feed(chunk);
      });
      res.on('end', () => this.current === req && this.retry('the stream ended'));
      res.on('error', () => this.current === req && this.retry('the stream broke'));
      res.on('aborted', () => this.current === req && this.retry('the stream broke'));
    });
    req.on('error', (e) => {
      clearTimeout(connectTimer);
      if (this.current === req) this.retry(e.message);
    });
    req.end();
  }

  private dispatch(m: EventSourceMessage): void {
    let value: unknown;
    try {
      value = JSON.parse(m.data);
    } catch {
      return;
    }
    const event = m.event ?? 'message';
    if (event === 'stream') {
      const hello = StreamHello.safeParse(value);
      if (!hello.success) return;
      if (this.epoch !== undefined && hello.data.epoch !== this.epoch) {
        this.lastId = -1;
        this.o.onRestart?.(hello.data.epoch);
      }
      this.epoch = hello.data.epoch;
    } else if (event === 'robot') {
      const e = RobotEventSchema.safeParse(value);
      if (!e.success || e.data.id <= this.lastId) return;
      this.lastId = e.data.id;
      this.o.onEvent(e.data);
    } else this.o.onOther?.(event, value);
  }

  private retry(why: string): void {
    if (this.closed) return;
    const req = this.current;
    this.current = undefined;
    req?.destroy();
    if (this.connectedAt !== undefined && performance.now() - this.connectedAt >= STABLE_MS) this.attempt = 0;
    this.connectedAt = undefined;
    this.connected = false;
    this.why = why;
    this.o.onState?.(false, why);
    this.settleFirst?.();
    clearTimeout(this.timer);
    const delay = reconnectDelay(this.attempt++, this.retryMs);
    this.timer = setTimeout(() => this.connect(), delay);
    this.timer.unref?.();
  }
}
