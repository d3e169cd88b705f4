// Files a command writes, checked before any work: a folder, a named pipe or a
// socket cannot be a file (opening a pipe would wait for a reader for ever), and
// a path that leads through a file cannot be written. That is the user's mistake
// (one line, exit 2), not our bug. A missing folder is made. Devices such as
// /dev/null stay allowed; a write error on one stops the run later.
import { type Stats, mkdirSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { kindOf } from '../../base/user-file';
import { UsageError } from './args';

/** Throws a UsageError naming `flag` when `path` is a folder, a named pipe or a socket. */
export function checkWritableFile(path: string, flag: string): void {
  let st: Stats;
  try {
    st = statSync(path);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code !== 'ENOENT')
      throw new UsageError(
        `${flag} ${path}: ${code === 'ENOTDIR' ? 'a part of the path is not a folder' : `cannot write there (${code ?? (e as Error).message})`}`,
      );
    // Not there yet: it is created, in a folder made for it as every output's is.
    try {
      mkdirSync(dirname(resolve(path)), { recursive: true });
    } catch (m) {
      const c = (m as NodeJS.ErrnoException).code;
      throw new UsageError(
        `${flag} ${path}: cannot make its folder (${c === 'ENOTDIR' || c === 'EEXIST' ? 'a part of the path is not a folder' : (c ?? (m as Error).message)})`,
      );
    }
    return;
  }
  if (st.isDirectory()) {
    throw new UsageError(`${flag} ${path} is a folder: give a file path, e.g. ${path.replace(/\/+$/, '')}/out${extOf(flag)}`);
  }
  if (st.isFIFO() || st.isSocket()) throw new UsageError(`${flag} ${path} is ${kindOf(st)}: give the path of a regular file`);
}

function extOf(flag: string): string {
  return flag === '--mcap' ? '.mcap' : flag === '--junit' ? '.xml' : flag === '--csv' ? '.csv' : flag === '--out' ? '.html' : '.jsonl';
}
