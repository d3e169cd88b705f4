// Chromium's processes under the benchmark (Linux /proc): the renderer's resident
// memory, and the CPU time its renderer and GPU processes spend, so a frame's cost
// can be given in CPU milliseconds, which a loaded machine skews far less than fps.
import { existsSync, readFileSync, readdirSync } from 'node:fs';

/** Clock ticks per second of /proc/<pid>/stat's times (USER_HZ: 100 on Linux). */
const TICKS_PER_S = 100;

interface Proc {
  pid: number;
  kind: 'renderer' | 'gpu' | 'other';
}

/** Every process's children, by parent pid (from /proc/<pid>/stat). */
function childrenByParent(): Map<number, number[]> {
  const kids = new Map<number, number[]>();
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const stat = readFileSync(`/proc/${d}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      kids.set(ppid, [...(kids.get(ppid) ?? []), Number(d)]);
    } catch {
      // The process ended while we looked.
    }
  }
  return kids;
}

/** Chromium's processes below `ancestor` (Playwright starts Chromium as a child of this process). */
function chromiumProcs(ancestor: number): Proc[] {
  if (!existsSync('/proc')) return [];
  const kids = childrenByParent();
  const out: Proc[] = [];
  const walk = (pid: number): void => {
    for (const k of kids.get(pid) ?? []) {
      try {
        const cmd = readFileSync(`/proc/${k}/cmdline`, 'utf8');
        // The browser's own pages (its omnibox popup, prewarmed at launch) are not the page measured.
        const kind =
          cmd.includes('--type=renderer') && !cmd.includes('--top-chrome-webui')
            ? 'renderer'
            : cmd.includes('--type=gpu-process')
              ? 'gpu'
              : 'other';
        out.push({ pid: k, kind });
      } catch {
        // Gone.
      }
      walk(k);
    }
  };
  walk(ancestor);
  return out;
}

/** Resident memory of Chromium renderer processes under a process, or null off Linux. */
export function rendererRss(ancestor: number): number | null {
  let total = 0;
  for (const p of chromiumProcs(ancestor)) {
    if (p.kind !== 'renderer') continue;
    try {
      const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${p.pid}/status`, 'utf8'));
      if (m) total += Number(m[1]) / 1024;
    } catch {
      // Gone.
    }
  }
  return total ? Math.round(total) : null;
}

export interface CpuTimes {
  /** Renderer processes (the page's JavaScript, Babylon, the compositor's main thread), not the browser's own WebUI pages. */
  renderer: number;
  /** The GPU process (with SwiftShader, the rasterising itself). */
  gpu: number;
  /** The rest: the browser process, its own WebUI pages (the omnibox popup it prewarms at launch), utilities. */
  other: number;
}

/** CPU milliseconds (user + system) each kind of Chromium process has used so far; null off Linux. */
export function chromiumCpu(ancestor: number): CpuTimes | null {
  const procs = chromiumProcs(ancestor);
  if (!procs.length) return null;
  const t: CpuTimes = { renderer: 0, gpu: 0, other: 0 };
  for (const p of procs) {
    try {
      const stat = readFileSync(`/proc/${p.pid}/stat`, 'utf8');
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      t[p.kind] += ((Number(f[11]) + Number(f[12])) / TICKS_PER_S) * 1000;
    } catch {
      // Gone.
    }
  }
  return t;
}

/**
 * Waits until the browser's own start is over: its processes (all but the page's
 * GPU process) use under `idleShare` of a core in `quietWindows` windows of
 * `windowMs` in a row (one quiet window is not enough: the prewarm can start a
 * moment after the launch), or `maxMs` passed. Chromium prewarms WebUI pages of
 * its own at launch (its omnibox popup: seconds of CPU on this machine), which
 * neither an already-open browser nor the desktop app's window pays while a page
 * loads. Returns the milliseconds waited, or null off Linux.
 */
export async function settleBrowser(
  ancestor: number,
  opts: { windowMs?: number; quietWindows?: number; idleShare?: number; maxMs?: number } = {},
): Promise<number | null> {
  const windowMs = opts.windowMs ?? 300;
  const quietWindows = opts.quietWindows ?? 3;
  const idleShare = opts.idleShare ?? 0.1;
  const maxMs = opts.maxMs ?? 10_000;
  const busy = (): number | null => {
    const t = chromiumCpu(ancestor);
    return t ? t.renderer + t.other : null;
  };
  const start = performance.now();
  const first = busy();
  if (first === null) return null;
  let before: number = first;
  let quiet = 0;
  while (quiet < quietWindows && performance.now() - start < maxMs) {
    await new Promise((r) => setTimeout(r, windowMs));
    const now: number = busy() ?? before;
    quiet = now - before < windowMs * idleShare ? quiet + 1 : 0;
    before = now;
  }
  return Math.round(performance.now() - start);
}

/** CPU milliseconds (user + system) a process and all its descendants have used so far (a host and its workers); null off Linux. */
export function treeCpu(root: number): number | null {
  if (!existsSync(`/proc/${root}/stat`)) return null;
  const kids = childrenByParent();
  let total = 0;
  const walk = (pid: number): void => {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      total += ((Number(f[11]) + Number(f[12])) / TICKS_PER_S) * 1000;
    } catch {
      // Gone.
    }
    for (const k of kids.get(pid) ?? []) walk(k);
  };
  walk(root);
  return total;
}
