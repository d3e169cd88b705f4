// The user's models folder as a store: what is there (catalogue models, installed or not, and
// any other .gguf), pulling a catalogue model (resumable, checked), removing one, and adding a
// .gguf from elsewhere. One file per model, `<dir>/<ID>.gguf`, so `local:ID` (models-dir.ts)
// finds whatever the store put there.
//
// Adding a file links it rather than copying gigabytes: a hard link when the file is on the
// same disk (costs nothing and survives the original being moved or deleted), else a symbolic
// link, else a copy. Removing an added model removes only the folder's entry, never the file
// it was added from (a hard link's other name stays; a symbolic link's target is untouched).
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { copyFile, link, lstat, mkdir, readFile, readdir, realpath, rename, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { CATALOGUE, type CatalogueEntry, catalogueEntry } from './catalogue';
import { type DownloadProgress, download } from './download';
import { readGgufVersion } from './gguf-header';
import { defaultModelsDir } from './models-dir';
import { ModelStoreError, fileError } from './store-errors';

export interface StoredModel {
  id: string;
  /** The catalogue's name, or the file's. */
  name: string;
  source: 'catalogue' | 'file';
  installed: boolean;
  /** Where `local:ID` loads from. */
  file: string;
  /** On disk when installed; the catalogue's size otherwise. */
  sizeBytes: number | null;
  /** Bytes of an unfinished download (0: none). */
  partialBytes: number;
  /** How a pull checks this model: a published SHA-256, its size only ("unverified"), or not at all (a file of yours). */
  check: 'sha256' | 'size-only' | 'none';
  /** Where a symbolic link points (an added file on another disk). */
  linkedTo?: string;
  catalogue?: CatalogueEntry;
}

export interface PullOptions {
  signal?: AbortSignal;
  onProgress?: (p: DownloadProgress) => void;
  onNotice?: (line: string) => void;
  connectTimeoutMs?: number;
}

export interface PullResult {
  id: string;
  file: string;
  bytes: number;
  alreadyInstalled: boolean;
  /** null when the catalogue has no digest: checked by size only. */
  sha256: string | null;
  resumedFrom: number;
}

export interface AddResult {
  id: string;
  file: string;
  how: 'hard-link' | 'symlink' | 'copy' | 'already-there';
  /** The catalogue model the file turned out to be (same size and digest), if any. */
  catalogueId?: string;
}

export interface ModelStoreOptions {
  catalogue?: readonly CatalogueEntry[];
  /** Replaces `https://huggingface.co` in download addresses: a classroom or company mirror. */
  mirror?: string;
}

const NAME = /^[A-Za-z0-9][A-Za-z0-9._ -]*$/;

async function sizeOf(path: string): Promise<number | null> {
  try {
    return (await stat(path)).size;
  } catch {
    return null;
  }
}

async function sha256Of(path: string): Promise<string> {
  const h = createHash('sha256');
  for await (const chunk of createReadStream(path)) h.update(chunk as Buffer);
  return h.digest('hex');
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * One download of a model at a time across windows, sessions (worker threads) and processes
 * sharing the folder: a lock file holding the downloader's pid. A lock left by a process that
 * is gone is taken over.
 */
async function lockPart(lock: string, id: string): Promise<void> {
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      await writeFile(lock, String(process.pid), { flag: 'wx' });
      return;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw fileError(e, `locking ${lock}`);
    }
    const pid = Number(await readFile(lock, 'utf8').catch(() => ''));
    if (Number.isInteger(pid) && pid > 0 && alive(pid)) break;
    await rm(lock, { force: true });
  }
  throw new ModelStoreError(
    'busy',
    `${id} is already being downloaded (by another window or process); wait for it, or remove ${lock} if none is`,
  );
}

/** A file's name as a model id: its base name without .gguf, with only safe characters. */
export function idFromFile(file: string): string {
  const id = basename(file)
    .replace(/\.gguf$/i, '')
    .replace(/[^A-Za-z0-9._-]+/g, '-')
    .replace(/^[-._]+/, '');
  return id || 'model';
}

export class ModelStore {
  readonly catalogue: readonly CatalogueEntry[];
  private readonly mirror: string | undefined;
  private readonly pulling = new Set<string>();

  constructor(
    readonly dir: string = defaultModelsDir(),
    opts: ModelStoreOptions = {},
  ) {
    this.catalogue = opts.catalogue ?? CATALOGUE;
    this.mirror = opts.mirror?.replace(/\/+$/, '');
  }

  fileFor(id: string): string {
    return join(this.dir, `${id}.gguf`);
  }

  /** The address a catalogue entry is downloaded from (the mirror's when one is set). */
  urlFor(entry: CatalogueEntry): string {
    return this.mirror ? entry.url.replace(/^https:\/\/huggingface\.co/, this.mirror) : entry.url;
  }

  async list(): Promise<StoredModel[]> {
    let names: string[] = [];
    try {
      names = await readdir(this.dir);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw fileError(e, `reading ${this.dir}`);
    }
    const out: StoredModel[] = [];
    for (const c of this.catalogue) {
      const file = this.fileFor(c.id);
      const size = await sizeOf(file);
      const linkedTo = await this.linkTarget(file);
      out.push({
        id: c.id,
        name: c.name,
        source: 'catalogue',
        installed: size !== null,
        file,
        sizeBytes: size ?? c.sizeBytes,
        partialBytes: (await sizeOf(`${file}.part`)) ?? 0,
        check: c.sha256 ? 'sha256' : 'size-only',
        ...(linkedTo ? { linkedTo } : {}),
        catalogue: c,
      });
    }
    for (const n of names.sort()) {
      if (!/\.gguf$/i.test(n)) continue;
      const id = n.replace(/\.gguf$/i, '');
      if (catalogueEntry(id, this.catalogue) && n === `${id}.gguf`) continue;
      const file = join(this.dir, n);
      const linkedTo = await this.linkTarget(file);
      const size = await sizeOf(file);
      out.push({
        id,
        name: id,
        source: 'file',
        installed: size !== null,
        file,
        sizeBytes: size,
        partialBytes: 0,
        check: 'none',
        ...(linkedTo ? { linkedTo } : {}),
      });
    }
    return out;
  }

  private async linkTarget(file: string): Promise<string | undefined> {
    try {
      if ((await lstat(file)).isSymbolicLink()) return await realpath(file).catch(() => '(missing)');
    } catch {
      /* not there */
    }
    return undefined;
  }

  private entry(id: string): CatalogueEntry {
    const e = catalogueEntry(id, this.catalogue);
    if (!e)
      throw new ModelStoreError(
        'unknown-model',
        `no model "${id}" in the catalogue. Models: ${this.catalogue.map((c) => c.id).join(', ')}. A .gguf of your own: skillbridge models add FILE`,
      );
    return e;
  }

  async pull(id: string, opts: PullOptions = {}): Promise<PullResult> {
    const entry = this.entry(id);
    const file = this.fileFor(id);
    const installed = await sizeOf(file);
    if (installed !== null) return { id, file, bytes: installed, alreadyInstalled: true, sha256: null, resumedFrom: 0 };
    if (this.pulling.has(id)) throw new ModelStoreError('busy', `${id} is already being downloaded`);
    this.pulling.add(id);
    try {
      await mkdir(this.dir, { recursive: true }).catch((e: unknown) => {
        throw fileError(e, `creating ${this.dir}`);
      });
      const part = `${file}.part`;
      const url = this.urlFor(entry);
      await lockPart(`${part}.lock`, id);
      try {
        return await this.fetchChecked(id, entry, part, file, url, opts);
      } finally {
        await rm(`${part}.lock`, { force: true });
      }
    } finally {
      this.pulling.delete(id);
    }
  }

  /** Downloads into the part (capped at the catalogue's size, its digest checked), checks the header, then renames it into place. */
  private async fetchChecked(
    id: string,
    entry: CatalogueEntry,
    part: string,
    file: string,
    url: string,
    opts: PullOptions,
  ): Promise<PullResult> {
    let got;
    try {
      got = await download({
        url,
        part,
        expectedSize: entry.sizeBytes,
        expectedSha256: entry.sha256,
        ...(opts.signal ? { signal: opts.signal } : {}),
        ...(opts.onProgress ? { onProgress: opts.onProgress } : {}),
        ...(opts.onNotice ? { onNotice: opts.onNotice } : {}),
        ...(opts.connectTimeoutMs ? { connectTimeoutMs: opts.connectTimeoutMs } : {}),
      });
    } catch (e) {
      if (e instanceof ModelStoreError && e.code === 'unreachable' && /^cannot reach/.test(e.message))
        throw new ModelStoreError(
          'unreachable',
          `${e.message}: no internet here? Download ${url} another way and run "skillbridge models add FILE"`,
        );
      // Size and digest are checked as the bytes arrive (download.ts); a refusal names the model.
      if (e instanceof ModelStoreError && (e.code === 'size' || e.code === 'checksum'))
        throw new ModelStoreError(e.code, `${id}: ${e.message}${e.code === 'size' ? ' (the server may have changed the file)' : ''}`);
      throw e;
    }
    try {
      await readGgufVersion(part);
    } catch (e) {
      await rm(part, { force: true });
      throw e;
    }
    await rename(part, file).catch((e: unknown) => {
      throw fileError(e, `moving ${part} into place`);
    });
    return {
      id,
      file,
      bytes: got.bytes,
      alreadyInstalled: false,
      sha256: entry.sha256 ? got.sha256 : null,
      resumedFrom: got.resumedFrom,
    };
  }

  /** Removes a model's file (and any unfinished download); an added file's original stays. */
  async rm(id: string): Promise<{ id: string; removed: string[] }> {
    if (!NAME.test(id) || id.includes('..'))
      throw new ModelStoreError('bad-name', `"${id}" is not a model id (see skillbridge models list)`);
    if (this.pulling.has(id)) throw new ModelStoreError('busy', `${id} is being downloaded: stop the download first`);
    const file = this.fileFor(id);
    const removed: string[] = [];
    for (const f of [file, `${file}.part`, `${file}.part.lock`]) {
      let there = false;
      try {
        await lstat(f);
        there = true;
      } catch {
        /* not there */
      }
      if (!there) continue;
      await rm(f, { force: true }).catch((e: unknown) => {
        throw fileError(e, `removing ${f}`);
      });
      removed.push(f);
    }
    if (removed.length === 0) throw new ModelStoreError('not-installed', `no model "${id}" in ${this.dir} (see skillbridge models list)`);
    return { id, removed };
  }

  /** Brings a .gguf from elsewhere into the folder (see the top of this file for how). */
  async add(source: string, opts: { name?: string } = {}): Promise<AddResult> {
    const from = resolve(source);
    await readGgufVersion(from);
    const size = (await stat(from)).size;
    let catalogueId: string | undefined;
    if (!opts.name) {
      // A catalogue model fetched another way (offline): take its id when size and digest agree.
      const candidates = this.catalogue.filter((c) => c.sizeBytes === size);
      if (candidates.length > 0) {
        const digest = candidates.some((c) => c.sha256) ? await sha256Of(from) : null;
        catalogueId = candidates.find((c) => c.sha256 === null || c.sha256 === digest)?.id;
      }
    }
    const id = opts.name ?? catalogueId ?? idFromFile(from);
    if (!NAME.test(id) || /\.gguf$/i.test(id))
      throw new ModelStoreError('bad-name', `--name "${id}": use letters, digits, ".", "_" and "-", without .gguf`);
    const file = this.fileFor(id);
    const there = await stat(file).catch(() => undefined);
    if (there) {
      const src = await stat(from);
      if (there.ino === src.ino && there.dev === src.dev)
        return { id, file, how: 'already-there', ...(catalogueId ? { catalogueId } : {}) };
      throw new ModelStoreError(
        'exists',
        `a model "${id}" is already in ${this.dir}: remove it first (skillbridge models rm ${id}) or give --name`,
      );
    }
    await mkdir(this.dir, { recursive: true }).catch((e: unknown) => {
      throw fileError(e, `creating ${this.dir}`);
    });
    let how: AddResult['how'];
    try {
      await link(from, file);
      how = 'hard-link';
    } catch {
      try {
        await symlink(from, file);
        how = 'symlink';
      } catch {
        await copyFile(from, file).catch(async (e: unknown) => {
          await rm(file, { force: true });
          throw fileError(e, `copying ${from} into ${dirname(file)}`);
        });
        how = 'copy';
      }
    }
    return { id, file, how, ...(catalogueId ? { catalogueId } : {}) };
  }
}
