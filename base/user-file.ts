// The one way the product reads a file a person named (a scene, a script, a
// mapping, a config, a trace…). Opening never blocks: a named pipe, a device, a
// socket or a folder is refused with a reason instead of waiting for a writer for
// ever. The size is capped before and while reading, and a UTF-8 byte-order mark
// (which Windows editors add) is not part of the text.
import { closeSync, constants, fstatSync, openSync, readSync, type Stats } from 'node:fs';

/** The default cap for small JSON inputs (scripts, configs, answers, mappings). */
export const USER_FILE_MAX_BYTES = 16 * 1024 * 1024;

export type UserFileProblem = 'missing' | 'not-a-file' | 'too-large' | 'unreadable';

/** Why a named file could not be read; `reason` is a short phrase ("no such file", "a named pipe (FIFO), not a regular file"). */
export class UserFileError extends Error {
  override name = 'UserFileError';
  constructor(
    readonly path: string,
    readonly problem: UserFileProblem,
    readonly reason: string,
  ) {
    super(`${path}: ${reason}`);
  }
}

export interface ReadOptions {
  /** Largest accepted size in bytes (default USER_FILE_MAX_BYTES). */
  maxBytes?: number;
}

// O_NONBLOCK: opening a FIFO with no writer returns at once (Windows has no such flag and no FIFOs).
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0);

/** What a non-regular file is, in words. */
export function kindOf(st: Stats): string {
  if (st.isDirectory()) return 'a folder';
  if (st.isFIFO()) return 'a named pipe (FIFO)';
  if (st.isSocket()) return 'a socket';
  if (st.isCharacterDevice() || st.isBlockDevice()) return 'a device';
  return 'not a regular file';
}

function notFile(path: string, st: Stats): UserFileError {
  return new UserFileError(path, 'not-a-file', `${kindOf(st)}, not a regular file: give the path of a file`);
}

function tooLarge(path: string, size: number | string, max: number): UserFileError {
  return new UserFileError(path, 'too-large', `the file is ${size} bytes; at most ${max} bytes are read`);
}

function openError(path: string, e: unknown): UserFileError {
  const code = (e as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') return new UserFileError(path, 'missing', 'no such file');
  if (code === 'EACCES' || code === 'EPERM') return new UserFileError(path, 'unreadable', 'permission denied');
  if (code === 'ENOTDIR') return new UserFileError(path, 'missing', 'a part of the path is not a folder');
  return new UserFileError(path, 'unreadable', `cannot read it (${code ?? (e as Error).message})`);
}

/** Text without a leading UTF-8 byte-order mark. */
export function stripBom(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/** Reads a regular file's bytes, at most `maxBytes`; throws UserFileError otherwise. */
export function readUserBytesSync(path: string, opts: ReadOptions = {}): Buffer {
  const max = opts.maxBytes ?? USER_FILE_MAX_BYTES;
  let fd: number;
  try {
    fd = openSync(path, OPEN_FLAGS);
  } catch (e) {
    throw openError(path, e);
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) throw notFile(path, st);
    if (st.size > max) throw tooLarge(path, st.size, max);
    // Read to one byte past the cap: a file that grew since fstat is caught too.
    const buf = Buffer.allocUnsafe(Math.min(st.size, max) + 1);
    let n = 0;
    for (;;) {
      const got = readSync(fd, buf, n, buf.length - n, null);
      if (got === 0) break;
      n += got;
      if (n > max) throw tooLarge(path, `over ${max}`, max);
      if (n === buf.length) break;
    }
    return buf.subarray(0, n);
  } catch (e) {
    if (e instanceof UserFileError) throw e;
    throw openError(path, e);
  } finally {
    closeSync(fd);
  }
}

/** Async form of readUserBytesSync. */
export async function readUserBytes(path: string, opts: ReadOptions = {}): Promise<Buffer> {
  const max = opts.maxBytes ?? USER_FILE_MAX_BYTES;
  let fh;
  try {
    // Loaded here: node:fs/promises brings ~15 internal modules (readline, streams) that a command reading no file never needs.
    const { open } = await import('node:fs/promises');
    fh = await open(path, OPEN_FLAGS);
  } catch (e) {
    throw openError(path, e);
  }
  try {
    const st = await fh.stat();
    if (!st.isFile()) throw notFile(path, st);
    if (st.size > max) throw tooLarge(path, st.size, max);
    const buf = Buffer.allocUnsafe(Math.min(st.size, max) + 1);
    let n = 0;
    for (;;) {
      const { bytesRead } = await fh.read(buf, n, buf.length - n, null);
      if (bytesRead === 0) break;
      n += bytesRead;
      if (n > max) throw tooLarge(path, `over ${max}`, max);
      if (n === buf.length) break;
    }
    return buf.subarray(0, n);
  } catch (e) {
    if (e instanceof UserFileError) throw e;
    throw openError(path, e);
  } finally {
    await fh.close();
  }
}

/** A named file's text (UTF-8, byte-order mark removed). */
export function readUserTextSync(path: string, opts: ReadOptions = {}): string {
  return stripBom(readUserBytesSync(path, opts).toString('utf8'));
}

/** A named file's text (UTF-8, byte-order mark removed). */
export async function readUserText(path: string, opts: ReadOptions = {}): Promise<string> {
  return stripBom((await readUserBytes(path, opts)).toString('utf8'));
}

/** The reason to give after "cannot read X: " for any error from the readers above. */
export function readFailure(e: unknown): string {
  return e instanceof UserFileError ? e.reason : e instanceof Error ? e.message : String(e);
}
