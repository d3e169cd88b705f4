// Files a command writes, checked before any work: a folder or a path that
// cannot be a file is the user's mistake (one line, exit 2), not our bug.
import { statSync } from 'node:fs';
import { UsageError } from './args';

/** Throws a UsageError naming `flag` when `path` is a folder. */
export function checkWritableFile(path: string, flag: string): void {
  let isDir = false;
  try {
    isDir = statSync(path).isDirectory();
  } catch {
    return; // not there yet: it is created
  }
  if (isDir) throw new UsageError(`${flag} ${path} is a folder: give a file path, e.g. ${path.replace(/\/+$/, '')}/out${extOf(flag)}`);
}

function extOf(flag: string): string {
  return flag === '--mcap' ? '.mcap' : flag === '--junit' ? '.xml' : flag === '--csv' ? '.csv' : flag === '--out' ? '.html' : '.jsonl';
}
