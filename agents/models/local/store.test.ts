// The model store against a loopback download host: full download, resume, checks, faults.
import { existsSync, lstatSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { fakeGguf, type ModelHost, sha256Hex, startModelHost } from '../../../test/support/model-host';
import { CATALOGUE, type CatalogueEntry } from './catalogue';
import type { DownloadProgress } from './download';
import { ModelStore } from './store';
import { ModelStoreError, fileError } from './store-errors';

const BODY = fakeGguf(300_000);
const PATH = '/org/tiny-GGUF/resolve/main/tiny-q4.gguf';

function entry(over: Partial<CatalogueEntry> = {}): CatalogueEntry {
  return {
    ...CATALOGUE[0]!,
    id: 'tiny',
    name: 'Tiny',
    url: `https://huggingface.co${PATH}`,
    sizeBytes: BODY.length,
    sha256: sha256Hex(BODY),
    ...over,
  };
}

let host: ModelHost | undefined;
afterEach(async () => {
  await host?.close();
  host = undefined;
});

function tempDir(): string {
  return mkdtempSync(join(tmpdir(), 'skillbridge-models-'));
}

async function rejection(p: Promise<unknown>): Promise<ModelStoreError> {
  const e = await p.then(
    () => undefined,
    (x: unknown) => x,
  );
  expect(e).toBeInstanceOf(ModelStoreError);
  return e as ModelStoreError;
}

describe('model store', () => {
  it('catalogue: every entry is a Hugging Face .gguf with a size, RAM estimate and licence', () => {
    expect(CATALOGUE.length).toBeGreaterThanOrEqual(4);
    for (const c of CATALOGUE) {
      expect(c.url).toMatch(/^https:\/\/huggingface\.co\/.+\.gguf$/);
      expect(c.ramBytes).toBeGreaterThan(c.sizeBytes);
      expect(c.licence.length).toBeGreaterThan(3);
    }
    expect(new Set(CATALOGUE.map((c) => c.id)).size).toBe(CATALOGUE.length);
  });

  it('pulls a model with progress, checks it and lists it as installed', async () => {
    host = await startModelHost({ [PATH]: BODY }, { trickle: { bytes: 32_768, everyMs: 15 } });
    const dir = tempDir();
    const store = new ModelStore(dir, { catalogue: [entry()], mirror: host.url });
    expect((await store.list())[0]).toMatchObject({ id: 'tiny', installed: false, check: 'sha256', sizeBytes: BODY.length });
    const seen: DownloadProgress[] = [];
    const r = await store.pull('tiny', { onProgress: (p) => seen.push(p) });
    expect(r).toMatchObject({ id: 'tiny', bytes: BODY.length, alreadyInstalled: false, sha256: sha256Hex(BODY), resumedFrom: 0 });
    expect(readFileSync(join(dir, 'tiny.gguf')).equals(BODY)).toBe(true);
    expect(existsSync(join(dir, 'tiny.gguf.part'))).toBe(false);
    expect(seen.length).toBeGreaterThan(2);
    expect(seen.at(-1)).toMatchObject({ received: BODY.length, total: BODY.length });
    expect(seen.map((p) => p.received)).toEqual([...seen.map((p) => p.received)].sort((a, b) => a - b));
    expect((await store.list())[0]).toMatchObject({ installed: true, sizeBytes: BODY.length, partialBytes: 0 });
    expect((await store.pull('tiny')).alreadyInstalled).toBe(true);
  });

  it('follows redirects like Hugging Face resolve links', async () => {
    host = await startModelHost({ [PATH]: BODY });
    const store = new ModelStore(tempDir(), { catalogue: [entry({ url: `https://huggingface.co/redirect${PATH}` })], mirror: host.url });
    await store.pull('tiny');
    expect(host.seen.map((s) => s.split(' ')[1])).toEqual([`/redirect${PATH}`, PATH]);
  });

  it('resumes an interrupted download with a Range request', async () => {
    host = await startModelHost({ [PATH]: BODY }, { cutAfter: 100_000, trickle: { bytes: 10_000, everyMs: 1 } });
    const dir = tempDir();
    const store = new ModelStore(dir, { catalogue: [entry()], mirror: host.url });
    const cut = await rejection(store.pull('tiny'));
    expect(cut.code).toBe('unreachable');
    expect(cut.message).toMatch(/pull again to resume/);
    const kept = lstatSync(join(dir, 'tiny.gguf.part')).size;
    expect(kept).toBeGreaterThan(0);
    expect((await store.list())[0]!.partialBytes).toBe(kept);
    const notices: string[] = [];
    const r = await store.pull('tiny', { onNotice: (n) => notices.push(n) });
    expect(r.resumedFrom).toBe(kept);
    expect(host.seen[1]).toBe(`GET ${PATH} bytes=${kept}-`);
    expect(notices.join('\n')).toMatch(/resuming/);
    expect(readFileSync(join(dir, 'tiny.gguf')).equals(BODY)).toBe(true);
  });

  it('starts over when the server ignores Range', async () => {
    host = await startModelHost({ [PATH]: BODY }, { ranges: false, cutAfter: 50_000, trickle: { bytes: 10_000, everyMs: 1 } });
    const dir = tempDir();
    const store = new ModelStore(dir, { catalogue: [entry()], mirror: host.url });
    await rejection(store.pull('tiny'));
    const notices: string[] = [];
    const r = await store.pull('tiny', { onNotice: (n) => notices.push(n) });
    expect(notices.join('\n')).toMatch(/does not resume.*starting over/);
    expect(r.resumedFrom).toBe(0);
    expect(readFileSync(join(dir, 'tiny.gguf')).equals(BODY)).toBe(true);
  });

  it('a checksum mismatch removes the file and says so', async () => {
    host = await startModelHost({ [PATH]: BODY });
    const dir = tempDir();
    const store = new ModelStore(dir, { catalogue: [entry({ sha256: 'a'.repeat(64) })], mirror: host.url });
    const e = await rejection(store.pull('tiny'));
    expect(e.code).toBe('checksum');
    expect(e.message).toMatch(/checksum mismatch.*removed/);
    expect(existsSync(join(dir, 'tiny.gguf'))).toBe(false);
    expect(existsSync(join(dir, 'tiny.gguf.part'))).toBe(false);
  });

  it('without a published digest the size is checked, and a non-GGUF body is refused', async () => {
    const html = Buffer.from('<html>sign in to download</html>'.padEnd(BODY.length, ' '));
    host = await startModelHost({ [PATH]: html });
    const dir = tempDir();
    const store = new ModelStore(dir, { catalogue: [entry({ sha256: null })], mirror: host.url });
    expect((await store.list())[0]!.check).toBe('size-only');
    const e = await rejection(store.pull('tiny'));
    expect(e.code).toBe('not-gguf');
    expect(existsSync(join(dir, 'tiny.gguf'))).toBe(false);
    const short = new ModelStore(dir, { catalogue: [entry({ sha256: null, sizeBytes: BODY.length + 5 })], mirror: host.url });
    const sized = await rejection(short.pull('tiny'));
    expect(sized.code).toBe('size');
    expect(sized.message).toMatch(/the catalogue says \d+: refused before downloading; the partial file was removed/);
    expect(existsSync(join(dir, 'tiny.gguf.part'))).toBe(false);
  });

  it('404 and an unknown id are one clear line each', async () => {
    host = await startModelHost({});
    const store = new ModelStore(tempDir(), { catalogue: [entry()], mirror: host.url });
    const e = await rejection(store.pull('tiny'));
    expect(e.code).toBe('http');
    expect(e.message).toMatch(/no such file \(HTTP 404\)/);
    const u = await rejection(store.pull('nope'));
    expect(u.code).toBe('unknown-model');
    expect(u.message).toMatch(/Models: tiny/);
  });

  it('an unreachable host fails fast with one line saying how to get the file another way', async () => {
    host = await startModelHost({});
    const port = new URL(host.url).port;
    await host.close();
    host = undefined;
    const store = new ModelStore(tempDir(), { catalogue: [entry()], mirror: `http://127.0.0.1:${port}` });
    const e = await rejection(store.pull('tiny'));
    expect(e.code).toBe('unreachable');
    expect(e.message).toMatch(/^cannot reach 127\.0\.0\.1:\d+ \(ECONNREFUSED\): .*models add FILE/);
    expect(e.message).not.toMatch(/\n/);
  });

  it('abort stops the download, keeps the part, and the next pull resumes it', async () => {
    host = await startModelHost({ [PATH]: BODY }, { trickle: { bytes: 8_192, everyMs: 20 } });
    const dir = tempDir();
    const store = new ModelStore(dir, { catalogue: [entry()], mirror: host.url });
    const ac = new AbortController();
    const e = await rejection(
      store.pull('tiny', {
        signal: ac.signal,
        onProgress: (p) => {
          if (p.received > 40_000) ac.abort();
        },
      }),
    );
    expect(e.code).toBe('aborted');
    const kept = lstatSync(join(dir, 'tiny.gguf.part')).size;
    expect(kept).toBeGreaterThan(0);
    expect(kept).toBeLessThan(BODY.length);
    host.options.trickle = undefined;
    expect((await store.pull('tiny')).resumedFrom).toBe(kept);
    expect(readFileSync(join(dir, 'tiny.gguf')).equals(BODY)).toBe(true);
  });

  it('rm removes the model and any part; rm of nothing says so', async () => {
    host = await startModelHost({ [PATH]: BODY });
    const dir = tempDir();
    const store = new ModelStore(dir, { catalogue: [entry()], mirror: host.url });
    await store.pull('tiny');
    expect((await store.rm('tiny')).removed).toEqual([join(dir, 'tiny.gguf')]);
    expect((await store.list())[0]!.installed).toBe(false);
    expect((await rejection(store.rm('tiny'))).code).toBe('not-installed');
    expect((await rejection(store.rm('../etc'))).code).toBe('bad-name');
  });

  it('add links a .gguf into the folder, recognises a catalogue file, refuses what is not GGUF', async () => {
    const dir = tempDir();
    const elsewhere = tempDir();
    const store = new ModelStore(dir, { catalogue: [entry()] });
    const mine = join(elsewhere, 'My Model Q4.gguf');
    writeFileSync(mine, fakeGguf(5_000, 7));
    const a = await store.add(mine);
    expect(a).toMatchObject({ id: 'My-Model-Q4', how: 'hard-link' });
    expect(readFileSync(a.file).equals(readFileSync(mine))).toBe(true);
    const listed = (await store.list()).find((m) => m.id === 'My-Model-Q4');
    expect(listed).toMatchObject({ source: 'file', installed: true, sizeBytes: 5_000, check: 'none' });
    expect((await store.add(mine)).how).toBe('already-there');
    await store.rm('My-Model-Q4');
    expect(existsSync(mine)).toBe(true);

    const downloadedElsewhere = join(elsewhere, 'tiny-q4.gguf');
    writeFileSync(downloadedElsewhere, BODY);
    expect(await store.add(downloadedElsewhere)).toMatchObject({ id: 'tiny', catalogueId: 'tiny' });
    expect((await store.list())[0]).toMatchObject({ id: 'tiny', installed: true });

    const notModel = join(elsewhere, 'notes.gguf');
    writeFileSync(notModel, 'hello');
    expect((await rejection(store.add(notModel))).code).toBe('not-gguf');
    const v1 = join(elsewhere, 'old.gguf');
    const old = fakeGguf(100);
    old.writeUInt32LE(1, 4);
    writeFileSync(v1, old);
    expect((await rejection(store.add(v1))).message).toMatch(/version 1/);
    expect((await rejection(store.add(join(elsewhere, 'missing.gguf')))).code).toBe('no-file');
  });

  it('a full disk is its own error, saying the download resumes', () => {
    const e = fileError(Object.assign(new Error('no space left on device'), { code: 'ENOSPC' }), 'writing the download');
    expect(e.code).toBe('disk-full');
    expect(e.message).toMatch(/disk is full.*resumes/);
  });

  it('one download of a model at a time across stores sharing the folder; the lock of a process that is gone is taken over', async () => {
    host = await startModelHost({ [PATH]: BODY }, { trickle: { bytes: 16_384, everyMs: 10 } });
    const dir = tempDir();
    const a = new ModelStore(dir, { catalogue: [entry()], mirror: host.url });
    const b = new ModelStore(dir, { catalogue: [entry()], mirror: host.url });
    const first = a.pull('tiny');
    await new Promise((r) => setTimeout(r, 50));
    const e = await rejection(b.pull('tiny'));
    expect(e.code).toBe('busy');
    expect(e.message).toMatch(/another window or process/);
    await first;
    expect(existsSync(join(dir, 'tiny.gguf.part.lock'))).toBe(false);
    await a.rm('tiny');
    writeFileSync(join(dir, 'tiny.gguf.part.lock'), '999999999');
    host.options.trickle = undefined;
    expect((await b.pull('tiny')).bytes).toBe(BODY.length);
  });
});
