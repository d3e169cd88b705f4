// Paths checked before the code that opens them: one given for evaluation
// results (a results folder, or its results.db) — SQLite waits for ever on a
// file the kernel makes up as it is read (/proc) and writes its tables into an
// empty file; a pipe or a device is no database either — and one given for a
// folder, which must not be a file.
import { closeSync, constants, fstatSync, openSync, readSync, statSync } from 'node:fs';
import path from 'node:path';
import { kindOf } from '../../base/user-file';

// O_NONBLOCK: a named pipe with no writer is not waited on.
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0);

/**
 * Why `p` cannot hold evaluation results, or undefined when it can be tried
 * (a folder, a results database, or nothing yet: the command says what is missing).
 */
export function notResults(p: string, depth = 0): string | undefined {
  let fd: number;
  try {
    fd = openSync(p, OPEN_FLAGS);
  } catch {
    return undefined;
  }
  try {
    const st = fstatSync(fd);
    if (st.isDirectory()) return depth ? 'a folder' : notResults(path.join(p, 'results.db'), 1);
    if (!st.isFile()) return `${kindOf(st)}, not a results database`;
    // A file of some size is the database code's to judge (it names a damaged one); one of none is empty,
    // or a file the kernel makes up as it is read (/proc), which is no database either.
    if (st.size > 0) return undefined;
    const n = readSync(fd, Buffer.alloc(16), 0, 16, 0);
    const where = depth ? `${path.basename(p)} there is ` : '';
    return n === 0 ? `${where}an empty file, not a results database` : `${where}not a results database`;
  } catch {
    return 'it cannot be read as a results database';
  } finally {
    closeSync(fd);
  }
}

/** Why `p` cannot be a folder to read or write in, or undefined when it is one or is not there yet (it is made). */
export function notFolder(p: string): string | undefined {
  try {
    const st = statSync(p);
    if (st.isDirectory()) return undefined;
    return st.isFile() ? 'a file, not a folder' : `${kindOf(st)}, not a folder`;
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    return code === 'ENOTDIR' ? 'a part of the path is not a folder' : undefined;
  }
}
