// The robot's events over server-sent events: one connection per robot, opened
// when the first listener subscribes, reconnected with backoff (resuming after
// the last event id), so events keep flowing from robot to agent across a
// restart of the server. Malformed events are dropped, not fatal.
import { request } from 'node:http';
import type { RobotEvent } from '../robot';
import { RobotEventSchema } from './protocol';

export interface EventStreamOptions {
  url: string;
  token: string;
  onEvent: (e: RobotEvent) => void;
  /** Other SSE events (job, safety), raw. */
  onOther?: (event: string, data: unknown) => void;
  onState?: (connected: boolean, why?: string) => void;
}

export class SseClient {
  private lastId = -1;
  private closed = false;
  private attempt = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private current: { destroy(): void } | undefined;

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
    const req = request(url, { headers: { authorization: `Bearer ${this.o.token}`, accept: 'text/event-stream' } });
    this.current = req;
    let buffer = '';
    req.on('response', (res) => {
      if (res.statusCode !== 200) {
        res.resume();
        this.retry(`HTTP ${res.statusCode}`);
        return;
      }
      this.attempt = 0;
      this.o.onState?.(true);
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        buffer += chunk;
        let i: number;
        while ((i = buffer.indexOf('\n\n')) >= 0) {
          this.dispatch(buffer.slice(0, i));
          buffer = buffer.slice(i + 2);
        }
        if (buffer.length > 1024 * 1024) buffer = '';
      });
      res.on('end', () => this.retry('the stream ended'));
      res.on('error', () => this.retry('the stream broke'));
    });
    req.on('error', (e) => this.retry(e.message));
    req.end();
  }

  private dispatch(block: string): void {
    let event = 'message';
    const data: string[] = [];
    for (const line of block.split('\n')) {
      if (line.startsWith('event:')) event = line.slice(6).trim();
      else if (line.startsWith('data:')) data.push(line.slice(5).trimStart());
    }
    if (!data.length) return;
    let value: unknown;
    try {
      value = JSON.parse(data.join('\n'));
    } catch {
      return;
    }
    if (event === 'robot') {
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
    this.o.onState?.(false, why);
    clearTimeout(this.timer);
    const delay = Math.min(10_000, 250 * 2 ** this.attempt++);
    this.timer = setTimeout(() => this.connect(), delay);
    this.timer.unref?.();
  }
}
