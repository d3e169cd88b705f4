// Runs a Node process and measures it from outside: wall time from spawn to exit,
// and its peak resident memory (reported by the child itself through
// rusage-preload.cjs, since Node gives no child resource usage).
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const SKILLBRIDGE_BIN = fileURLToPath(new URL('../../bin/skillbridge.js', import.meta.url));
const PRELOAD = fileURLToPath(new URL('./rusage-preload.cjs', import.meta.url));

export interface ProcessRun {
  ms: number;
  /** Peak RSS (MB); NaN when the child did not report it (it was killed). */
  rssMB: number;
  /** CPU time of the child, user + system over all its threads (ms); NaN when not reported. */
  cpuMs: number;
  /** Minor page faults until the exit event (each a 4 kB page touched for the first time); NaN when not reported. */
  minorFaults: number;
  /** Under SKILLBRIDGE_PHASES=1, the command's marks (ms since the process began; see base/phase.ts). */
  marks?: Record<string, number>;
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Variables that would change how the measured command starts; the caller sets them on purpose or not at all. */
const STARTUP_VARS = [
  'SKILLBRIDGE_FROM_SOURCES',
  'SKILLBRIDGE_WASM_OPTIMIZE',
  'SKILLBRIDGE_WASM_HINTS',
  'SKILLBRIDGE_RAPIER',
  'SKILLBRIDGE_PHASES',
  'NODE_OPTIONS',
];

export function runNode(args: string[], env: Record<string, string> = {}): Promise<ProcessRun> {
  const base = { ...process.env };
  for (const k of STARTUP_VARS) delete base[k];
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn(process.execPath, ['-r', PRELOAD, ...args], {
      env: { ...base, ...env },
      stdio: ['ignore', 'pipe', 'pipe', 'pipe'],
    });
    const chunks: Record<'out' | 'err' | 'rss', Buffer[]> = { out: [], err: [], rss: [] };
    child.stdout!.on('data', (b: Buffer) => chunks.out.push(b));
    child.stderr!.on('data', (b: Buffer) => chunks.err.push(b));
    (child.stdio[3] as NodeJS.ReadableStream).on('data', (b: Buffer) => chunks.rss.push(b));
    let ms = NaN;
    child.on('error', reject);
    child.on('exit', () => (ms = performance.now() - t0));
    // The pipes may still hold output after the exit: results are read once they close.
    child.on('close', (code) => {
      const usage = parseUsage(Buffer.concat(chunks.rss).toString());
      resolve({
        ms: Number.isNaN(ms) ? performance.now() - t0 : ms,
        rssMB: usage.maxRSS / 1024,
        cpuMs: usage.cpuMs,
        minorFaults: usage.minorFaults,
        ...(usage.marks ? { marks: usage.marks } : {}),
        code,
        stdout: Buffer.concat(chunks.out).toString(),
        stderr: Buffer.concat(chunks.err).toString(),
      });
    });
  });
}

function parseUsage(text: string): { maxRSS: number; cpuMs: number; minorFaults: number; marks?: Record<string, number> } {
  try {
    const u = JSON.parse(text) as { maxRSS?: unknown; cpuMs?: unknown; minorFaults?: unknown; marks?: unknown };
    const marks =
      u.marks && typeof u.marks === 'object'
        ? Object.fromEntries(Object.entries(u.marks).filter((e): e is [string, number] => typeof e[1] === 'number'))
        : undefined;
    return {
      maxRSS: typeof u.maxRSS === 'number' ? u.maxRSS : NaN,
      cpuMs: typeof u.cpuMs === 'number' ? u.cpuMs : NaN,
      minorFaults: typeof u.minorFaults === 'number' ? u.minorFaults : NaN,
      ...(marks ? { marks } : {}),
    };
  } catch {
    return { maxRSS: NaN, cpuMs: NaN, minorFaults: NaN };
  }
}

export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  if (!s.length) return NaN;
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}
