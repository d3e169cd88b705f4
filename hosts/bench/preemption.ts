// How often the measuring thread was switched out involuntarily (another
// process took the core): Linux counts it per thread in /proc/thread-self/status.
// process.resourceUsage() counts every thread of the process (GC helpers, a
// server worker), so it is only the fallback where /proc is missing.
import { openSync, readSync } from 'node:fs';

const KEY = 'nonvoluntary_ctxt_switches:';

/** A file of /proc/thread-self kept open and read from its start on each call; undefined where the kernel has none. */
function procSelfReader(name: string, size: number): () => string | undefined {
  let fd: number | null | undefined;
  const buf = Buffer.alloc(size);
  return () => {
    if (fd === undefined) {
      try {
        fd = openSync(`/proc/thread-self/${name}`, 'r');
      } catch {
        fd = null;
      }
    }
    if (fd === null) return undefined;
    return buf.toString('latin1', 0, readSync(fd, buf, 0, buf.length, 0));
  };
}

const readStatus = procSelfReader('status', 8192);
const readSchedstat = procSelfReader('schedstat', 128);

function threadCount(): number | undefined {
  const s = readStatus();
  const i = s?.indexOf(KEY) ?? -1;
  if (s === undefined || i < 0) return undefined;
  return Number(s.slice(i + KEY.length, s.indexOf('\n', i)));
}

/** Involuntary context switches of the calling thread so far (of the process where /proc is missing). */
export function involuntarySwitches(): number {
  return threadCount() ?? process.resourceUsage().involuntaryContextSwitches;
}

/**
 * Time the calling thread has spent runnable but waiting for a core, in ms
 * (the second field of /proc/thread-self/schedstat; the kernel adds a wait when
 * the thread gets the core back, so a reading on the thread itself is current).
 * Undefined where the kernel does not keep it.
 */
export function runQueueWaitMs(): number | undefined {
  const text = readSchedstat();
  if (text === undefined) return undefined;
  const from = text.indexOf(' ') + 1;
  const ns = Number(text.slice(from, text.indexOf(' ', from)));
  return Number.isFinite(ns) ? ns / 1e6 : undefined;
}
