// Settled worlds kept as files in the user's cache folder, so a one-shot command
// (`skillbridge call`) restores the scene at rest instead of stepping it there.
//
// A file is named and checked by a hash of everything the settled world follows
// from (the built world's physics, the step count, the Rapier build: see
// sim/world/settled.ts), so a changed scene, seed or program finds no file rather
// than a wrong one. Its bytes are trusted only when their own hash matches too: a
// truncated or damaged file is ignored and written anew. Any failure to read or
// write just means stepping, as without a cache.
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';
import type { SettleStart, SettledStore } from '../../sim/world/sim-world';

const MAGIC = Buffer.from('SBSETTLED1\n');
const DIGEST = 32;
/** Files kept; the oldest go first. A scene's settled world is 50–500 kB. */
const KEEP = 64;

/**
 * The user's cache folder for skillbridge: SKILLBRIDGE_CACHE_DIR, else the
 * platform's (XDG_CACHE_HOME or ~/.cache, ~/Library/Caches, %LOCALAPPDATA%).
 */
export function userCacheDir(env: Readonly<Record<string, string | undefined>> = process.env): string {
  if (env['SKILLBRIDGE_CACHE_DIR']) return env['SKILLBRIDGE_CACHE_DIR'];
  if (process.platform === 'win32' && env['LOCALAPPDATA']) return path.join(env['LOCALAPPDATA'], 'skillbridge', 'Cache');
  if (process.platform === 'darwin') return path.join(homedir(), 'Library', 'Caches', 'skillbridge');
  return path.join(env['XDG_CACHE_HOME'] || path.join(homedir(), '.cache'), 'skillbridge');
}

function keyOf(start: SettleStart): Buffer {
  return createHash('sha256').update(`${start.rapier}\n${start.steps}\n`).update(start.physics).digest();
}

function sha256(bytes: Uint8Array): Buffer {
  return createHash('sha256').update(bytes).digest();
}

export class SettledFiles implements SettledStore {
  readonly dir: string;

  constructor(dir = path.join(userCacheDir(), 'settled-worlds')) {
    this.dir = dir;
  }

  private file(key: Buffer): string {
    return path.join(this.dir, `${key.toString('hex').slice(0, 32)}.bin`);
  }

  load(start: SettleStart): Uint8Array | undefined {
    const key = keyOf(start);
    let bytes: Buffer;
    try {
      bytes = readFileSync(this.file(key));
    } catch {
      return undefined;
    }
    // Layout: MAGIC, the full key, the payload's hash, the payload.
    const head = MAGIC.length + 2 * DIGEST;
    if (bytes.length <= head || !bytes.subarray(0, MAGIC.length).equals(MAGIC)) return undefined;
    if (!bytes.subarray(MAGIC.length, MAGIC.length + DIGEST).equals(key)) return undefined;
    const payload = bytes.subarray(head);
    if (!sha256(payload).equals(bytes.subarray(MAGIC.length + DIGEST, head))) return undefined;
    return new Uint8Array(payload);
  }

  save(start: SettleStart, settled: Uint8Array): void {
    const key = keyOf(start);
    const file = this.file(key);
    const tmp = `${file}.${process.pid}.tmp`;
    try {
      mkdirSync(this.dir, { recursive: true });
      writeFileSync(tmp, Buffer.concat([MAGIC, key, sha256(settled), settled]));
      // A rename: a process reading at the same time sees the old file or the whole new one.
      renameSync(tmp, file);
      this.prune();
    } catch {
      // A read-only or full disk: the next run steps again.
      try {
        rmSync(tmp, { force: true });
      } catch {
        // Nothing was written.
      }
    }
  }

  private prune(): void {
    const files = readdirSync(this.dir).filter((f) => f.endsWith('.bin'));
    if (files.length <= KEEP) return;
    const aged = files.map((f) => {
      const p = path.join(this.dir, f);
      return { p, t: statSync(p, { throwIfNoEntry: false })?.mtimeMs ?? 0 };
    });
    aged.sort((a, b) => a.t - b.t);
    for (const { p } of aged.slice(0, aged.length - KEEP)) rmSync(p, { force: true });
  }
}

/** The store a one-shot command uses; none when SKILLBRIDGE_NO_CACHE is set. */
export function settledFilesFor(env: Readonly<Record<string, string | undefined>> = process.env): SettledStore | undefined {
  return env['SKILLBRIDGE_NO_CACHE'] ? undefined : new SettledFiles(path.join(userCacheDir(env), 'settled-worlds'));
}
