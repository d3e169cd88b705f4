// The robot's events over server-sent events: one connection per robot, opened
// when the first listener subscribes, reconnected (resuming after the last event
// id, sent as Last-Event-ID), so events keep flowing across a restart of the
// server. The stream is parsed by eventsource-parser, which follows the SSE
// standard (LF, CR and CRLF line ends, comments, `retry`, multi-line data).
// Each stream opens with a `stream` event naming the server's epoch: after a
// restart the ids start again, so a new epoch resets the last id seen instead of
// dropping every event numbered at or below it. Malformed events are dropped.
import { request } from 'node:http';
import { type EventSourceMessage, createParser } from 'eventsource-parser';
import type { RobotEvent } from '../robot';
import { RobotEventSchema, StreamHello } from './protocol';

export interface EventStreamOptions {
  url: string;
  token: string;
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
  connected = false;

  constructor(private readonly o: EventStreamOptions) {}

  start(fromId: number): void {
    this.lastId = fromId;
    this.connect();
  }

  close(): void {
    this.closed = true;
    clearTimeout(this.timer);
    this.current?.destroy();
  }

  private connect(): void {
    if (this.closed) return;
    const url = new URL('/v1/events', this.o.url);
    if (this.lastId >= 0) url.searchParams.set('since', String(this.lastId));
    if (this.epoch) url.searchParams.set('epoch', this.epoch);
    const req = request(url, {
      headers: {
        authorization: `Bearer ${this.o.token}`,
        accept: 'text/event-stream',
        ...(this.lastId >= 0 ? { 'last-event-id': String(this.lastId) } : {}),
      },
    });
    this.current = req;
    const parser = createParser({
      onEvent: (m) => this.dispatch(m),
      onRetry: (ms) => {
        if (Number.isFinite(ms) && ms >= 0) this.retryMs = Math.min(ms, 60_000);
      },
      maxBufferSize: 1024 * 1024,
    });
    req.on('response', (res) => {
      if (res.statusCode !== 200) {
        res.resume();
        this.retry(`HTTP ${res.statusCode}`);
        return;
      }
      this.attempt = 0;
      this.connected = true;
      this.o.onState?.(true);
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => parser.feed(chunk));
      res.on('end', () => this.retry('the stream ended'));
      res.on('error', () => this.retry('the stream broke'));
    });
    req.on('error', (e) => this.retry(e.message));
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
    this.current?.destroy();
    this.current = undefined;
    this.connected = false;
    this.o.onState?.(false, why);
    clearTimeout(this.timer);
    const delay = this.retryMs ?? Math.min(10_000, 250 * 2 ** this.attempt++);
    this.timer = setTimeout(() => this.connect(), delay);
    this.timer.unref?.();
  }
}
