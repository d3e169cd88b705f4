// Stale-lock recovery. node-sqlite3-wasm locks a database by creating the
// directory `<file>.lock` for the length of a statement or transaction, so a
// process killed mid-write leaves that directory behind and every later open
// would report "database is locked" for ever. Each process that opens the file
// registers itself in `<file>.owners/<pid>-<thread>`; a lock left while no
// registered process is alive is stale and is removed, after which SQLite rolls
// back the dead writer's hot journal on its next read: nothing committed is lost.
import { mkdirSync, readdirSync, rmSync, rmdirSync, statSync, writeFileSync } from 'node:fs';
import { threadId } from 'node:worker_threads';

function ownersDir(file: string): string {
  return `${file}.owners`;
}

function entry(file: string): string {
  return `${ownersDir(file)}/${process.pid}-${threadId}`;
}

export function registerOwner(file: string): void {
  mkdirSync(ownersDir(file), { recursive: true });
  writeFileSync(entry(file), new Date().toISOString());
}

export function unregisterOwner(file: string): void {
  rmSync(entry(file), { force: true });
  try {
    rmdirSync(ownersDir(file)); // only succeeds when no other owner is left
  } catch {
    // other owners remain, or already gone
  }
}

function alive(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Removes a lock left by processes that are gone; true when it did. Call before opening. */
export function clearStaleLock(file: string): boolean {
  const lock = `${file}.lock`;
  try {
    if (!statSync(lock).isDirectory()) return false;
  } catch {
    return false;
  }
  let live = 0;
  let owners: string[] = [];
  try {
    owners = readdirSync(ownersDir(file));
  } catch {
    // no owners registered: whoever locked it is gone (or predates registration)
  }
  for (const name of owners) {
    const pid = Number(name.split('-')[0]);
    if (Number.isInteger(pid) && alive(pid)) live++;
    else rmSync(`${ownersDir(file)}/${name}`, { force: true });
  }
  if (live > 0) return false;
  rmSync(lock, { recursive: true, force: true });
  return true;
}
