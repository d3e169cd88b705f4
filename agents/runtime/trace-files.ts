// Opening trace files. A conversation writes one trace file per turn, and
// creating a file is the costliest call a turn's trace makes: on a busy disk
// the create waits for the file system's journal (here, at load 17: 0.29 ms
// median, 1 ms p99, against 0.04 / 0.24 ms for a rename in the same folder).
// So once a folder has had a turn's trace, the next file is created ahead, on
// libuv's thread pool, under a hidden name, and the next turn renames it to its
// own name and keeps the open descriptor. Records still go to that file with
// synchronous writes, so a killed process keeps every record up to its last
// event; what a killed process can leave besides is one empty hidden spare,
// which no reader takes for a trace (spares are removed at a normal exit, and
// the next process to write traces in that folder removes those of processes
// that are gone).
import { close, closeSync, mkdirSync, open, openSync, readdir, renameSync, unlink, unlinkSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

/** Folders made (or found) already: a conversation opens one trace file per turn in the same one. */
const MADE_DIRS = new Set<string>();

/** Opens for appending, making the folder first unless this process made or found it already. */
export function openAppend(path: string): number {
  const dir = dirname(path);
  if (MADE_DIRS.has(dir)) {
    try {
      return openSync(path, 'a');
    } catch (e) {
      // Removed since: make it again.
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
      MADE_DIRS.delete(dir);
    }
  }
  mkdirSync(dir, { recursive: true });
  MADE_DIRS.add(dir);
  return openSync(path, 'a');
}

/** The name a spare trace file has until a turn takes it: hidden, and not a `.jsonl` name. */
export const isSpareTraceName = (name: string): boolean => /^\.trace-spare-\d+-[a-z0-9]+\.part$/.test(basename(name));

interface Spare {
  path: string;
  /** Undefined while the thread pool is still creating it. */
  fd: number | undefined;
  dropped: boolean;
}

/** At most one spare per folder, for the last few folders used (a server's sessions each have one). */
const SPARES = new Map<string, Spare>();
const MAX_FOLDERS = 8;
let exitHook = false;

/** Counts for the benchmarks: turns that took a spare, and those that created their file themselves. */
export const spareStats = { taken: 0, created: 0 };

function drop(s: Spare): void {
  s.dropped = true;
  if (s.fd !== undefined) close(s.fd, () => unlink(s.path, () => undefined));
  s.fd = undefined;
}

/** Closes and removes every spare now (at exit; tests; a host about to remove its trace folders). */
export function removeTraceSpares(): void {
  for (const s of SPARES.values()) {
    s.dropped = true;
    try {
      if (s.fd !== undefined) closeSync(s.fd);
    } catch {
      // Closed already.
    }
    try {
      unlinkSync(s.path);
    } catch {
      // Never made, or removed with its folder.
    }
  }
  SPARES.clear();
}

/** Folders checked for spares that killed processes left. */
const SWEPT = new Set<string>();

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    // EPERM: it runs, as another user.
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/** Removes, off the thread, the spares in `dir` whose process is gone (killed before it could remove them). */
function sweep(dir: string): void {
  if (SWEPT.has(dir)) return;
  SWEPT.add(dir);
  readdir(dir, (err, names) => {
    if (err) return;
    for (const n of names) {
      const pid = isSpareTraceName(n) ? Number(n.split('-')[2]) : NaN;
      if (Number.isInteger(pid) && pid !== process.pid && !alive(pid)) unlink(join(dir, n), () => undefined);
    }
  });
}

/** Starts creating the next spare for `dir` on the thread pool (no-op when one is made or on its way). */
function prepare(dir: string): void {
  if (SPARES.has(dir)) return;
  sweep(dir);
  if (!exitHook) {
    exitHook = true;
    process.once('exit', removeTraceSpares);
  }
  const s: Spare = {
    path: join(dir, `.trace-spare-${process.pid}-${Math.random().toString(36).slice(2, 10)}.part`),
    fd: undefined,
    dropped: false,
  };
  SPARES.set(dir, s);
  if (SPARES.size > MAX_FOLDERS) {
    const [oldDir, old] = SPARES.entries().next().value as [string, Spare];
    SPARES.delete(oldDir);
    drop(old);
  }
  open(s.path, 'a', (err, fd) => {
    if (err) {
      if (SPARES.get(dir) === s) SPARES.delete(dir);
      return;
    }
    if (s.dropped) close(fd, () => unlink(s.path, () => undefined));
    else s.fd = fd;
  });
}

/**
 * Opens `path` (a new trace file) for appending: by renaming the folder's
 * spare when one is ready, else by creating it. Then starts the folder's next
 * spare, so the next turn's trace finds one.
 */
export function openTraceFile(path: string): number {
  const dir = dirname(path);
  const s = SPARES.get(dir);
  let fd: number | undefined;
  if (s?.fd !== undefined) {
    SPARES.delete(dir);
    try {
      renameSync(s.path, path);
      fd = s.fd;
      spareStats.taken++;
    } catch {
      // The spare or its folder went away: create the file as usual.
      s.dropped = true;
      close(s.fd, () => undefined);
    }
  }
  if (fd === undefined) {
    fd = openAppend(path);
    spareStats.created++;
  }
  prepare(dir);
  return fd;
}
