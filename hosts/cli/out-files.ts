// Files a command writes, checked before any work: a folder, a named pipe or a
// socket cannot be a file (opening a pipe would wait for a reader for ever). That
// is the user's mistake (one line, exit 2), not our bug. Devices such as
// /dev/null stay allowed; a write error on one stops the run later.
import { type Stats, statSync } from 'node:fs';
import { kindOf } from '../../base/user-file';
import { UsageError } from './args';

/** Throws a UsageError naming `flag` when `path` is a folder, a named pipe or a socket. */
export function checkWritableFile(path: string, flag: string): void {
  let st: Stats;
  try {
    st = statSync(path);
  } catch {
    return; // not there yet: it is created
  }
  if (st.isDirectory()) {
    throw new UsageError(`${flag} ${path} is a folder: give a file path, e.g. ${path.replace(/\/+$/, '')}/out${extOf(flag)}`);
  }
  if (st.isFIFO() || st.isSocket()) throw new UsageError(`${flag} ${path} is ${kindOf(st)}: give the path of a regular file`);
}

function extOf(flag: string): string {
  return flag === '--mcap' ? '.mcap' : flag === '--junit' ? '.xml' : flag === '--csv' ? '.csv' : flag === '--out' ? '.html' : '.jsonl';
}
