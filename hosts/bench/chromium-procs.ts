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

/** Chromium's processes below `ancestor` (Playwright starts Chromium as a child of this process). */
function chromiumProcs(ancestor: number): Proc[] {
  if (!existsSync('/proc')) return [];
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
  const out: Proc[] = [];
  const walk = (pid: number): void => {
    for (const k of kids.get(pid) ?? []) {
      try {
        const cmd = readFileSync(`/proc/${k}/cmdline`, 'utf8');
        const kind = cmd.includes('--type=renderer') ? 'renderer' : cmd.includes('--type=gpu-process') ? 'gpu' : 'other';
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
  /** Renderer processes (the page's JavaScript, Babylon, the compositor's main thread). */
  renderer: number;
  /** The GPU process (with SwiftShader, the rasterising itself). */
  gpu: number;
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
