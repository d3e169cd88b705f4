// How often the measuring thread was switched out involuntarily (another
// process took the core): Linux counts it per thread in /proc/thread-self/status.
// process.resourceUsage() counts every thread of the process (GC helpers, a
// server worker), so it is only the fallback where /proc is missing.
import { openSync, readSync } from 'node:fs';

const KEY = 'nonvoluntary_ctxt_switches:';
let fd: number | null | undefined;
const buf = Buffer.alloc(8192);

function threadCount(): number | undefined {
  if (fd === undefined) {
    try {
      fd = openSync('/proc/thread-self/status', 'r');
    } catch {
      fd = null;
    }
  }
  if (fd === null) return undefined;
  const n = readSync(fd, buf, 0, buf.length, 0);
  const s = buf.toString('latin1', 0, n);
  const i = s.indexOf(KEY);
  return i < 0 ? undefined : Number(s.slice(i + KEY.length, s.indexOf('\n', i)));
}

/** Involuntary context switches of the calling thread so far (of the process where /proc is missing). */
export function involuntarySwitches(): number {
  return threadCount() ?? process.resourceUsage().involuntaryContextSwitches;
}

let schedFd: number | null | undefined;
const schedBuf = Buffer.alloc(128);

/**
 * Time the calling thread has spent runnable but waiting for a core, in ms
 * (the second field of /proc/thread-self/schedstat; the kernel adds a wait when
 * the thread gets the core back, so a reading on the thread itself is current).
 * Undefined where the kernel does not keep it.
 */
export function runQueueWaitMs(): number | undefined {
  if (schedFd === undefined) {
    try {
      schedFd = openSync('/proc/thread-self/schedstat', 'r');
    } catch {
      schedFd = null;
    }
  }
  if (schedFd === null) return undefined;
  const n = readSync(schedFd, schedBuf, 0, schedBuf.length, 0);
  const text = schedBuf.toString('latin1', 0, n);
  const from = text.indexOf(' ') + 1;
  const ns = Number(text.slice(from, text.indexOf(' ', from)));
  return Number.isFinite(ns) ? ns / 1e6 : undefined;
}
