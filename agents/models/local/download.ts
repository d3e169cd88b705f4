// One HTTP(S) download into a `.part` file: follows redirects (Hugging Face answers with one),
// resumes from the bytes already there with a Range request, starts over when the server
// ignores Range, reports progress, and hashes as it writes so the SHA-256 costs no second
// read. The catalogue's size is a cap, not a hint: a server that declares another size
// (Content-Length, Content-Range) is refused before a byte is read, and one that sends a
// byte more than the size is cut off there. The digest is checked from the stream as it
// ends. A part that failed a check (size, range, digest) is deleted; an abort or a broken
// connection keeps it for the next try (it can only hold bytes under the cap).
import { createHash, type Hash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { rm, stat, truncate } from 'node:fs/promises';
import { type ClientRequest, type IncomingMessage, request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { ModelStoreError, fileError } from './store-errors';

export interface DownloadProgress {
  /** Bytes in the part file so far (including those from an earlier try). */
  received: number;
  /** The whole file's size, when the server or the catalogue says it. */
  total: number | null;
  /** Over the last second or so of this try. */
  bytesPerSecond: number;
}

export interface DownloadOptions {
  url: string;
  part: string;
  /** From the catalogue: the file's size and the most bytes read (a resumed part longer than this starts over). */
  expectedSize: number;
  /** From the catalogue: the file's SHA-256, checked as the stream ends; null: checked by size only. */
  expectedSha256: string | null;
  signal?: AbortSignal;
  onProgress?: (p: DownloadProgress) => void;
  /** One-line notices: resuming, the server not resuming. */
  onNotice?: (line: string) => void;
  /** No answer (headers) within this long means the host cannot be reached. Default 15 s. */
  connectTimeoutMs?: number;
  /** No bytes for this long mid-transfer means the connection is dead. Default 60 s. */
  idleTimeoutMs?: number;
}

export interface DownloadResult {
  bytes: number;
  sha256: string;
  resumedFrom: number;
  restarted: boolean;
}

const UNREACHABLE = new Set(['ENOTFOUND', 'EAI_AGAIN', 'ECONNREFUSED', 'ENETUNREACH', 'EHOSTUNREACH', 'ETIMEDOUT', 'ECONNRESET', 'EPIPE']);

async function partSize(part: string): Promise<number> {
  try {
    return (await stat(part)).size;
  } catch {
    return 0;
  }
}

async function hashFile(path: string, h: Hash): Promise<void> {
  for await (const chunk of createReadStream(path)) h.update(chunk as Buffer);
}

function abortedError(): ModelStoreError {
  return new ModelStoreError('aborted', 'download stopped; the part is kept and the next pull resumes it');
}

/** Sends one GET (with Range from `from` when > 0), following up to 5 redirects. */
function get(url: string, from: number, opts: DownloadOptions, hops = 0): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    let u: URL;
    try {
      u = new URL(url);
    } catch {
      reject(new ModelStoreError('http', `bad download address "${url}"`));
      return;
    }
    if (u.protocol !== 'http:' && u.protocol !== 'https:') {
      reject(new ModelStoreError('http', `download addresses are http(s), got "${u.protocol}"`));
      return;
    }
    const send = u.protocol === 'https:' ? httpsRequest : httpRequest;
    const headers: Record<string, string> = { 'user-agent': 'skillbridge-models', accept: '*/*' };
    if (from > 0) headers['range'] = `bytes=${from}-`;
    let req: ClientRequest | undefined = undefined;
    const onAbort = (): void => {
      req?.destroy();
      reject(abortedError());
    };
    const timer = setTimeout(() => {
      req?.destroy();
      reject(
        new ModelStoreError(
          'unreachable',
          `cannot reach ${u.host} (no answer in ${Math.round((opts.connectTimeoutMs ?? 15_000) / 1000)} s)`,
        ),
      );
    }, opts.connectTimeoutMs ?? 15_000);
    const done = (): void => {
      clearTimeout(timer);
      opts.signal?.removeEventListener('abort', onAbort);
    };
    if (opts.signal?.aborted) {
      done();
      reject(abortedError());
      return;
    }
    opts.signal?.addEventListener('abort', onAbort, { once: true });
    req = send(u, { method: 'GET', headers }, (res) => {
      done();
      const status = res.statusCode ?? 0;
      if ([301, 302, 303, 307, 308].includes(status) && res.headers.location) {
        res.resume();
        if (hops >= 5) return reject(new ModelStoreError('http', `${u.host} redirected more than 5 times`));
        return resolve(get(new URL(res.headers.location, u).toString(), from, opts, hops + 1));
      }
      resolve(res);
    });
    req.on('error', (e: NodeJS.ErrnoException) => {
      done();
      if (opts.signal?.aborted) return reject(abortedError());
      reject(
        UNREACHABLE.has(e.code ?? '')
          ? new ModelStoreError('unreachable', `cannot reach ${u.host} (${e.code})`)
          : new ModelStoreError('http', `download from ${u.host} failed: ${e.message}`),
      );
    });
    req.end();
  });
}

/** Where a 206 answer starts and the whole size, from `Content-Range: bytes START-END/TOTAL`. */
function contentRange(res: IncomingMessage): { start: number; total: number | null } | undefined {
  const m = /^bytes (\d+)-\d+\/(\d+|\*)$/.exec(String(res.headers['content-range'] ?? ''));
  if (!m) return undefined;
  return { start: Number(m[1]), total: m[2] === '*' ? null : Number(m[2]) };
}

/** Deletes the part and says why: it failed a check, so no later pull may resume from it. */
async function refused(part: string, code: 'size' | 'checksum' | 'http', message: string): Promise<never> {
  await rm(part, { force: true });
  throw new ModelStoreError(code, `${message}; the partial file was removed`);
}

/** The SHA-256 the stream gave, checked against the catalogue's (a mismatch deletes the part). */
async function checked(part: string, digest: string, expected: string | null): Promise<string> {
  if (expected !== null && digest !== expected)
    return refused(part, 'checksum', `checksum mismatch (SHA-256 ${digest}, expected ${expected})`);
  return digest;
}

export async function download(opts: DownloadOptions): Promise<DownloadResult> {
  const cap = opts.expectedSize;
  let from = await partSize(opts.part);
  if (from > cap) {
    await truncate(opts.part, 0).catch(() => undefined);
    from = 0;
  }
  const hash = createHash('sha256');
  // A part already at full size was downloaded but not checked (e.g. the app closed): check it.
  if (from > 0 && from === cap) {
    await hashFile(opts.part, hash);
    return { bytes: from, sha256: await checked(opts.part, hash.digest('hex'), opts.expectedSha256), resumedFrom: from, restarted: false };
  }
  let res = await get(opts.url, from, opts);
  let restarted = false;
  let status = res.statusCode ?? 0;
  if (status === 416 && from > 0) {
    // The server cannot serve from where the part ends (the file changed?): start over.
    res.resume();
    opts.onNotice?.(`the server cannot resume from byte ${from}; starting over`);
    from = 0;
    restarted = true;
    res = await get(opts.url, 0, opts);
    status = res.statusCode ?? 0;
  }
  const declared = res.headers['content-length'] === undefined ? null : Number(res.headers['content-length']);
  if (status === 206) {
    const range = contentRange(res);
    if (!range || range.start !== from) {
      res.destroy();
      return refused(opts.part, 'http', `the server answered a resume with the wrong range (${String(res.headers['content-range'])})`);
    }
    if ((range.total !== null && range.total !== cap) || (declared !== null && declared !== cap - from)) {
      res.destroy();
      return refused(
        opts.part,
        'size',
        `the server offers a file of ${range.total ?? '?'} bytes (${declared ?? '?'} from byte ${from}), the catalogue says ${cap}: refused before downloading`,
      );
    }
    opts.onNotice?.(`resuming at ${from} bytes`);
  } else if (status === 200) {
    if (from > 0) {
      opts.onNotice?.('the server does not resume downloads (no Range support); starting over');
      restarted = true;
      from = 0;
    }
    if (declared !== null && declared !== cap) {
      res.destroy();
      return refused(opts.part, 'size', `the server offers ${declared} bytes, the catalogue says ${cap}: refused before downloading`);
    }
  } else {
    res.resume();
    const host = new URL(opts.url).host;
    throw new ModelStoreError(
      'http',
      status === 404 ? `${host} has no such file (HTTP 404): ${opts.url}` : `${host} answered HTTP ${status} for ${opts.url}`,
    );
  }
  const total = cap;
  if (from > 0) await hashFile(opts.part, hash);

  let received = from;
  const started = Date.now();
  let windowStart = started;
  let windowBytes = 0;
  let rate = 0;
  let fullWindow = false;
  let lastReport = 0;
  const report = (force: boolean): void => {
    const now = Date.now();
    // Until a whole second has passed, the rate is the average since this try began.
    if (now - windowStart >= 1000) {
      rate = (windowBytes * 1000) / (now - windowStart);
      windowStart = now;
      windowBytes = 0;
      fullWindow = true;
    } else if (!fullWindow && now > started) rate = ((received - from) * 1000) / (now - started);
    if (force || now - lastReport >= 100) {
      lastReport = now;
      opts.onProgress?.({ received, total, bytesPerSecond: Math.round(rate) });
    }
  };
  const counter = new Transform({
    transform(chunk: Buffer, _enc, cb) {
      // Not a byte past the catalogue's size reaches the disk.
      if (received + chunk.length > cap) return cb(new ModelStoreError('size', `the server sent more than the catalogue's ${cap} bytes`));
      hash.update(chunk);
      received += chunk.length;
      windowBytes += chunk.length;
      report(false);
      cb(null, chunk);
    },
  });
  res.setTimeout(opts.idleTimeoutMs ?? 60_000, () =>
    res.destroy(new ModelStoreError('unreachable', 'the download stalled (no data for a minute)')),
  );
  const out = createWriteStream(opts.part, { flags: from > 0 ? 'a' : 'w' });
  let endedEarly = false;
  res.on('aborted', () => (endedEarly = true));
  try {
    await pipeline(res, counter, out, opts.signal ? { signal: opts.signal } : {});
  } catch (e) {
    if (opts.signal?.aborted) throw abortedError();
    if (e instanceof ModelStoreError && e.code === 'size') return refused(opts.part, 'size', `${e.message}: cut off there`);
    if (e instanceof ModelStoreError) throw e;
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOSPC' || code === 'EDQUOT' || code === 'EACCES' || code === 'EROFS') throw fileError(e, 'writing the download');
    throw new ModelStoreError('unreachable', `the connection broke after ${received} bytes; pull again to resume`);
  }
  if (endedEarly || received < total)
    throw new ModelStoreError('unreachable', `the connection broke after ${received} of ${total} bytes; pull again to resume`);
  report(true);
  return { bytes: received, sha256: await checked(opts.part, hash.digest('hex'), opts.expectedSha256), resumedFrom: from, restarted };
}
