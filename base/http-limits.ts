// How long and how much an HTTP server of ours reads from one client: the
// headers within a few seconds, the body within a few more, and a body no
// larger than the cap, refused from its Content-Length
// before a byte of it is read. A client that trickles a request for minutes gets
// 408, one that sends too much gets 413; both close the connection, so the rest
// of a trickle is never read. Responses (a long poll, an event stream) are not
// limited: only what the client sends is.
import type { IncomingMessage, Server, ServerOptions, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';

export interface ReadLimits {
  /** The largest request body, in bytes. */
  maxBodyBytes: number;
  /** The request line and headers must arrive within this long. */
  headersTimeoutMs: number;
  /** The body must have arrived this long after the headers. */
  bodyTimeoutMs: number;
}

/** Why a body was not read: 408 (too slow) or 413 (too large), with a sentence for the client. */
export class BodyLimitError extends Error {
  override name = 'BodyLimitError';
  constructor(
    readonly status: 408 | 413,
    message: string,
  ) {
    super(message);
  }
}

const seconds = (ms: number): string => `${Math.round(ms / 100) / 10} s`;

/**
 * createServer's options for these limits. Node checks its own timers only every
 * `connectionsCheckingInterval` (30 s by default); a short interval makes its
 * headers deadline hold to about a second. Node's whole-request deadline is a
 * backstop a little after ours (readBody answers first, with a message).
 */
export function serverOptions(l: Omit<ReadLimits, 'maxBodyBytes'>): ServerOptions {
  const checkMs = Math.max(100, Math.min(1000, Math.floor(l.headersTimeoutMs / 4)));
  return {
    headersTimeout: l.headersTimeoutMs,
    requestTimeout: l.headersTimeoutMs + l.bodyTimeoutMs + 2 * checkMs,
    connectionsCheckingInterval: checkMs,
  };
}

/**
 * Answers the requests Node refuses before our handler sees them (headers too
 * slow, too large, malformed) with `render`'s body instead of Node's bare status
 * line. A socket whose response has begun is closed as it is.
 */
export function answerClientErrors(
  server: Server,
  render: (status: number, message: string) => { contentType: string; body: string },
  l: Omit<ReadLimits, 'maxBodyBytes'>,
): void {
  const answering = new WeakMap<Socket, ServerResponse>();
  server.on('request', (req: IncomingMessage, res: ServerResponse) => answering.set(req.socket, res));
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Duplex) => {
    const res = answering.get(socket as Socket);
    if (!socket.writable || res?.headersSent) return void socket.destroy();
    const [status, reason, message] =
      err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [
            408,
            'Request Timeout',
            res
              ? `the request did not arrive within ${seconds(l.headersTimeoutMs + l.bodyTimeoutMs)}`
              : `the request headers did not arrive within ${seconds(l.headersTimeoutMs)}`,
          ]
        : err.code === 'HPE_HEADER_OVERFLOW'
          ? [431, 'Request Header Fields Too Large', 'the request headers are too large']
          : [400, 'Bad Request', 'the request is not valid HTTP/1.1'];
    const { contentType, body } = render(status, message);
    const head = `HTTP/1.1 ${status} ${reason}\r\nContent-Type: ${contentType}\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n`;
    socket.end(head + body, () => socket.destroy());
  });
}

/**
 * Reads a request's body under the limits: refused at once when its
 * Content-Length is over the cap, cut at the first byte over it, and given up
 * when it has not fully arrived `bodyTimeoutMs` after `startedAt` (the headers).
 */
export function readBody(req: IncomingMessage, l: ReadLimits, startedAt: number = performance.now()): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const declared = req.headers['content-length'];
    const tooLarge = (bytes: string) => new BodyLimitError(413, `the request body is ${bytes} bytes; the limit is ${l.maxBodyBytes} bytes`);
    if (declared !== undefined && Number(declared) > l.maxBodyBytes) return reject(tooLarge(declared));
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const finish = (error?: Error): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
      req.off('close', onClose);
      if (error) {
        // Nothing more of this request is read: the answer closes the connection.
        req.pause();
        reject(error);
      } else resolve(Buffer.concat(chunks));
    };
    const onData = (c: Buffer): void => {
      size += c.length;
      if (size > l.maxBodyBytes) return finish(tooLarge(`over ${l.maxBodyBytes}`));
      chunks.push(c);
    };
    const onEnd = (): void => finish();
    const onError = (e: Error): void => finish(e);
    const onClose = (): void => finish(new Error('the client closed the connection before the body ended'));
    const timer = setTimeout(
      () => finish(new BodyLimitError(408, `the request body did not arrive within ${seconds(l.bodyTimeoutMs)} (${size} bytes came)`)),
      Math.max(0, startedAt + l.bodyTimeoutMs - performance.now()),
    );
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
    req.on('close', onClose);
  });
}

/** An answer sent before the body was read closes the connection (Node ends it once the answer is out): the unread rest is dropped. */
export function closeAfter(res: ServerResponse): void {
  res.setHeader('Connection', 'close');
}

/**
 * A request's target as a URL on this server, or undefined when it is none: a
 * target such as "//" is a network-path reference with an empty host, which
 * `new URL` refuses by throwing (in an 'upgrade' handler, an uncaught throw).
 */
export function targetOf(raw: string | undefined, base: string): URL | undefined {
  try {
    return new URL(raw ?? '/', base);
  } catch {
    return undefined;
  }
}
