// `models pull` reads no more than the catalogue says: a loopback host that
// offers or streams more bytes than the entry's size (24 MB for a 1,000-byte
// entry; the report that found it saw 1.5 GB) is refused before the first byte (a Content-Length over the size) or
// cut off at the size (no Content-Length), a resume whose Content-Range names
// another size is refused, and every refusal deletes the partial file. The
// property test draws hosts (declared length, bytes actually sent, chunking,
// Range support, an earlier part) and checks that the part never holds more
// than the size, a pull succeeds only with the catalogue's bytes, and a refusal
// leaves no part behind.
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { fakeGguf } from '../../../test/support/model-host';
import { CATALOGUE, type CatalogueEntry, CatalogueEntrySchema, MAX_MODEL_BYTES } from './catalogue';
import type { DownloadProgress } from './download';
import { ModelStore } from './store';
import { ModelStoreError } from './store-errors';
import { fuzzRuns, fuzzSeed } from '../../../test/fuzz/support/budget';

const PATH = '/org/tiny-GGUF/resolve/main/tiny-q4.gguf';
const SIZE = 1000;
const FILE = fakeGguf(SIZE);
const sha = (b: Buffer): string => createHash('sha256').update(b).digest('hex');

interface Plan {
  /** What the host says: the file's length, another, or nothing (chunked). */
  declared: 'exact' | 'none' | number;
  /** The bytes it sends: the file, then filler up to this many in all. */
  sends: number;
  chunk: number;
  /** Answers Range with 206 and this total, or ignores Range. */
  ranges: 'honest' | 'ignored' | number;
}

interface Host {
  url: string;
  /** Body bytes the host managed to write before the client stopped reading. */
  written: () => number;
  close(): Promise<void>;
}

/** A host that sends what `plan` says, with backpressure: it writes only as fast as the client reads. */
async function hostile(plan: Plan): Promise<Host> {
  let written = 0;
  const body = Buffer.concat([FILE, Buffer.alloc(Math.max(0, plan.sends - SIZE), 0x41)]).subarray(0, plan.sends);
  const server: Server = createServer((req, res) => {
    req.resume();
    const m = /^bytes=(\d+)-$/.exec(req.headers.range ?? '');
    const from = m && plan.ranges !== 'ignored' ? Number(m[1]) : 0;
    const rest = body.subarray(from);
    const headers: Record<string, string | number> = { 'content-type': 'application/octet-stream' };
    if (plan.declared === 'exact') headers['content-length'] = rest.length;
    else if (typeof plan.declared === 'number') headers['content-length'] = Math.max(0, plan.declared - from);
    if (from > 0)
      headers['content-range'] = `bytes ${from}-${Math.max(from, body.length - 1)}/${plan.ranges === 'honest' ? body.length : plan.ranges}`;
    res.writeHead(from > 0 ? 206 : 200, headers);
    let at = 0;
    const pump = (): void => {
      while (at < rest.length && !res.destroyed) {
        const piece = rest.subarray(at, at + plan.chunk);
        at += piece.length;
        written += piece.length;
        if (!res.write(piece)) return void res.once('drain', pump);
      }
      if (!res.destroyed) res.end();
    };
    pump();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    written: () => written,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

const entry = (): CatalogueEntry => ({
  ...CATALOGUE[0]!,
  id: 'tiny',
  name: 'Tiny',
  url: `https://huggingface.co${PATH}`,
  sizeBytes: SIZE,
  sha256: sha(FILE),
});

let host: Host | undefined;
afterEach(async () => {
  await host?.close();
  host = undefined;
});

async function pull(plan: Plan, dir = mkdtempSync(join(tmpdir(), 'sb-caps-'))) {
  host = await hostile(plan);
  const store = new ModelStore(dir, { catalogue: [entry()], mirror: host.url });
  const seen: DownloadProgress[] = [];
  const result = await store.pull('tiny', { onProgress: (p) => seen.push(p) }).then(
    (r) => ({ ok: true as const, r }),
    (e: unknown) => ({ ok: false as const, e: e as ModelStoreError }),
  );
  const part = join(dir, 'tiny.gguf.part');
  return { result, seen, dir, part, most: Math.max(0, ...seen.map((p) => p.received)) };
}

describe('models pull reads no more than the catalogue says', () => {
  // More than loopback's socket buffers hold, so what the host could write shows what the client read.
  const MUCH = 24_000_000;

  it('refuses a Content-Length over the size before reading a byte (24 MB for a 1,000-byte entry)', async () => {
    const r = await pull({ declared: 'exact', sends: MUCH, chunk: 65_536, ranges: 'honest' });
    expect(r.result.ok).toBe(false);
    const e = (r.result as { e: ModelStoreError }).e;
    expect(e).toBeInstanceOf(ModelStoreError);
    expect(e.code).toBe('size');
    expect(e.message).toMatch(
      /^tiny: the server offers 24000000 bytes, the catalogue says 1000: refused before downloading; the partial file was removed/,
    );
    expect(r.most).toBe(0);
    expect(existsSync(r.part)).toBe(false);
    // The host could not hand over the body: the client hung up instead of reading it.
    expect(host!.written()).toBeLessThan(MUCH);
  });

  it('cuts a body with no Content-Length off at the size and deletes the part', async () => {
    const r = await pull({ declared: 'none', sends: MUCH, chunk: 65_536, ranges: 'honest' });
    expect(r.result.ok).toBe(false);
    const e = (r.result as { e: ModelStoreError }).e;
    expect(e.code).toBe('size');
    expect(e.message).toMatch(/more than the catalogue's 1000 bytes: cut off there; the partial file was removed/);
    expect(r.most).toBeLessThanOrEqual(SIZE);
    expect(existsSync(r.part)).toBe(false);
    expect(host!.written()).toBeLessThan(MUCH);
  });

  it('refuses a resume whose Content-Range names another size, and deletes the part', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sb-caps-'));
    writeFileSync(join(dir, 'tiny.gguf.part'), FILE.subarray(0, 400));
    const r = await pull({ declared: 'exact', sends: 5_000, chunk: 1_000, ranges: 5_000 }, dir);
    expect((r.result as { e: ModelStoreError }).e.code).toBe('size');
    expect(existsSync(r.part)).toBe(false);
  });

  it('a catalogue may not state a size over 64 GiB', () => {
    const r = CatalogueEntrySchema.safeParse({ ...entry(), sizeBytes: MAX_MODEL_BYTES + 1 });
    expect(r.success).toBe(false);
    expect(r.error?.issues[0]?.message).toMatch(/at most 64 GiB/);
  });

  it(
    'whatever the host sends, the part never passes the size and a refusal leaves no part (property)',
    async () => {
      const runs = fuzzRuns(40);
      const plan: fc.Arbitrary<Plan & { earlier: number }> = fc.record({
        declared: fc.oneof(fc.constant<'exact'>('exact'), fc.constant<'none'>('none'), fc.integer({ min: 0, max: 3 * SIZE })),
        sends: fc.oneof(fc.constant(SIZE), fc.integer({ min: 0, max: 3 * SIZE }), fc.integer({ min: SIZE, max: 200_000 })),
        chunk: fc.integer({ min: 1, max: 4096 }),
        ranges: fc.oneof(fc.constant<'honest'>('honest'), fc.constant<'ignored'>('ignored'), fc.integer({ min: 1, max: 3 * SIZE })),
        earlier: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: SIZE + 10 })),
      });
      await fc.assert(
        fc.asyncProperty(plan, async (p) => {
          const dir = mkdtempSync(join(tmpdir(), 'sb-caps-'));
          if (p.earlier > 0) writeFileSync(join(dir, 'tiny.gguf.part'), Buffer.concat([FILE, Buffer.alloc(20)]).subarray(0, p.earlier));
          try {
            const r = await pull(p, dir);
            expect(r.most).toBeLessThanOrEqual(SIZE);
            if (existsSync(r.part)) expect(statSync(r.part).size).toBeLessThanOrEqual(SIZE);
            if (r.result.ok) {
              expect(readFileSync(join(dir, 'tiny.gguf')).equals(FILE)).toBe(true);
              expect(existsSync(r.part)).toBe(false);
            } else {
              expect(r.result.e).toBeInstanceOf(ModelStoreError);
              // A part is kept only for a broken transfer, to resume: never after a failed check.
              if (['size', 'checksum', 'http', 'not-gguf'].includes(r.result.e.code)) expect(existsSync(r.part)).toBe(false);
              expect(existsSync(join(dir, 'tiny.gguf'))).toBe(false);
            }
          } finally {
            await host?.close();
            host = undefined;
          }
        }),
        { seed: fuzzSeed(34), numRuns: runs },
      );
    },
    Math.max(60_000, fuzzRuns(40) * 500),
  );
});
