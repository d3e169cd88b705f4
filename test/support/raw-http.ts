// A test client that speaks HTTP/1.1 over a bare socket, so a test can send what
// no polite client sends: headers a byte at a time, a body trickled for
// minutes, a Content-Length far over the cap, more body than it declared. It
// records the answer (status and body) and whether the server closed the
// connection, and stops by itself after `giveUpMs` (then `status` is 0).
import { connect } from 'node:net';

export interface RawStep {
  /** Bytes to send now (a string is sent as UTF-8). */
  send: string | Buffer;
  /** Wait this long after sending it. */
  thenWaitMs?: number;
}

export interface RawAnswer {
  status: number;
  body: string;
  /** The server closed the connection (after answering, or without). */
  closed: boolean;
  /** Bytes of the steps that were written before the answer or the close. */
  sent: number;
}

export function rawRequest(port: number, steps: readonly RawStep[], giveUpMs = 10_000): Promise<RawAnswer> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    let text = '';
    let sent = 0;
    let done = false;
    let closed = false;
    const finish = (): void => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      socket.destroy();
      const m = /^HTTP\/1\.1 (\d{3})/.exec(text);
      const bodyAt = text.indexOf('\r\n\r\n');
      const raw = bodyAt >= 0 ? text.slice(bodyAt + 4) : '';
      const chunked = bodyAt >= 0 && /\r\ntransfer-encoding: *chunked/i.test(text.slice(0, bodyAt));
      resolve({ status: m ? Number(m[1]) : 0, body: chunked ? unchunk(raw) : raw, closed, sent });
    };
    const answered = (): boolean => {
      const head = text.indexOf('\r\n\r\n');
      if (head < 0) return false;
      const len = /\r\ncontent-length: *(\d+)/i.exec(text.slice(0, head));
      if (len) return Buffer.byteLength(text.slice(head + 4)) >= Number(len[1]);
      return text.endsWith('\r\n0\r\n\r\n');
    };
    const timer = setTimeout(finish, giveUpMs);
    socket.on('data', (d: Buffer) => {
      text += d.toString('utf8');
      if (answered()) setTimeout(finish, 300);
    });
    socket.on('error', () => undefined);
    socket.on('close', () => {
      closed = true;
      finish();
    });
    socket.once('connect', () => {
      void (async () => {
        for (const step of steps) {
          if (done || socket.destroyed) return;
          const chunk = typeof step.send === 'string' ? Buffer.from(step.send) : step.send;
          socket.write(chunk);
          sent += chunk.length;
          if (step.thenWaitMs) await new Promise((r) => setTimeout(r, step.thenWaitMs));
        }
      })();
    });
  });
}

/** The body of a chunked answer (a test reads small answers: chunks split across reads are joined first). */
function unchunk(raw: string): string {
  let out = '';
  let at = 0;
  for (;;) {
    const eol = raw.indexOf('\r\n', at);
    if (eol < 0) return out;
    const size = parseInt(raw.slice(at, eol), 16);
    if (!Number.isFinite(size) || size === 0) return out;
    out += raw.slice(eol + 2, eol + 2 + size);
    at = eol + 2 + size + 2;
  }
}

/** A request head (request line and headers, with the blank line) for `rawRequest`. */
export function head(method: string, path: string, port: number, headers: Record<string, string | number> = {}): string {
  const lines = [`${method} ${path} HTTP/1.1`, `Host: 127.0.0.1:${port}`, ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`)];
  return `${lines.join('\r\n')}\r\n\r\n`;
}
