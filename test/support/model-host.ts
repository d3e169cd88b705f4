// A loopback stand-in for a model download host (Hugging Face): serves files by path with
// Range support like the real one (206 + Content-Range), a redirect like its `resolve` links,
// 404 for anything else, and faults on request: no Range support, a connection cut after N
// bytes, a slow trickle (to watch progress or abort mid-way).
import { createHash } from 'node:crypto';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ModelHostOptions {
  /** Answer Range requests with 206 (default) or ignore them with a full 200. */
  ranges?: boolean;
  /** Cut the connection after this many body bytes, on the first request only. */
  cutAfter?: number;
  /** Send the body in chunks of this size, this many ms apart (default: all at once). */
  trickle?: { bytes: number; everyMs: number };
}

export interface ModelHost {
  url: string;
  /** "GET /path range" for each request, range "-" when none. */
  seen: string[];
  options: ModelHostOptions;
  close(): Promise<void>;
}

/** Bytes that start like a GGUF v3 file, then a deterministic filler. */
export function fakeGguf(size: number, seed = 1): Buffer {
  const b = Buffer.alloc(size);
  b.write('GGUF', 0, 'latin1');
  b.writeUInt32LE(3, 4);
  let x = seed;
  for (let i = 8; i < size; i++) {
    x = (x * 1103515245 + 12345) >>> 0;
    b[i] = x >>> 24;
  }
  return b;
}

export const sha256Hex = (b: Buffer): string => createHash('sha256').update(b).digest('hex');

export async function startModelHost(files: Record<string, Buffer>, options: ModelHostOptions = {}): Promise<ModelHost> {
  const seen: string[] = [];
  let requests = 0;
  const send = (res: ServerResponse, body: Buffer, first: boolean): void => {
    const cut = first && options.cutAfter !== undefined ? options.cutAfter : undefined;
    const limit = cut ?? body.length;
    const step = options.trickle?.bytes ?? body.length;
    let at = 0;
    const next = (): void => {
      if (res.destroyed) return;
      if (at >= limit) {
        if (cut !== undefined && cut < body.length) res.destroy();
        else res.end();
        return;
      }
      const end = Math.min(at + step, limit);
      res.write(body.subarray(at, end));
      at = end;
      if (options.trickle) setTimeout(next, options.trickle.everyMs);
      else next();
    };
    next();
  };
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://127.0.0.1').pathname;
    const range = req.headers.range ?? '-';
    seen.push(`${req.method} ${path} ${range}`);
    req.resume();
    if (path.startsWith('/redirect/')) {
      res.writeHead(302, { location: path.slice('/redirect'.length) });
      res.end();
      return;
    }
    const body = files[path];
    if (!body) {
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end('Entry not found');
      return;
    }
    const first = requests++ === 0;
    const m = /^bytes=(\d+)-$/.exec(range);
    if (m && options.ranges !== false) {
      const start = Number(m[1]);
      if (start >= body.length) {
        res.writeHead(416, { 'content-range': `bytes */${body.length}` });
        res.end();
        return;
      }
      res.writeHead(206, { 'content-length': body.length - start, 'content-range': `bytes ${start}-${body.length - 1}/${body.length}` });
      send(res, body.subarray(start), first);
      return;
    }
    res.writeHead(200, { 'content-length': body.length, 'content-type': 'application/octet-stream' });
    send(res, body, first);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    options,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
