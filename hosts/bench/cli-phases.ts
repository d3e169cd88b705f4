// Where one `skillbridge call` spends its time, from the marks the command records
// under SKILLBRIDGE_PHASES=1 (base/phase.ts, bin/skillbridge.js; collected by
// rusage-preload.cjs). Each phase is the main thread's time between two marks, in
// the order a call runs; the wasm compile runs on V8's background threads from its
// start in bin/skillbridge.js and is listed apart (its wait, if any, is inside "Rapier ready").
import { round } from '../../sim/math';
import { median } from './processes';

export interface CliPhase {
  name: string;
  /** Median over the rounds (ms). */
  ms: number;
  /** ms over the same round's `node -e 0` wall time (median of the rounds' ratios). */
  overFloor: number;
}

/** Main-thread phases of a call, in order: [name, the mark it ends at]. The first starts at the process's time origin. */
const SEQUENCE: Array<[string, string]> = [
  ['node start (until the first user code)', 'node-ready'],
  ['bin/skillbridge.js and the bundle check', 'bundle-checked'],
  ['bundle entry load (parse, top level)', 'bundle-loaded'],
  ['call command load (its chunks, zod, tool sets)', 'command-loaded'],
  ['scene load', 'scene-loaded'],
  ['Rapier ready (JS glue, wait for the compile, instantiate)', 'wasm-instantiated'],
  ['world build (bodies, robot, catalogue)', 'world-built'],
  ['settling (0.5 s of physics)', 'settled'],
  ['tool lookup and argument check', 'tools-ready'],
  ['the call itself (skill, physics steps)', 'called'],
  ['facts and printing', 'printed'],
  ['exit handlers', 'exit'],
];

export type Marks = Record<string, number>;

/** One round's phases (ms), or undefined when a mark is missing (the command failed early). */
export function phasesOf(marks: Marks, wallMs: number): { main: number[]; compileMs: number; afterExitMs: number } | undefined {
  const main: number[] = [];
  let at = 0;
  for (const [, mark] of SEQUENCE) {
    const t = marks[mark];
    if (t === undefined) return undefined;
    // The compile may finish before the scene is loaded: then waiting for it costs nothing.
    const end = Math.max(at, t);
    main.push(end - at);
    at = end;
  }
  // Without its own mark (an older bin/skillbridge.js) the compile started at the bundle check.
  const from = marks['wasm-compile-started'] ?? marks['bundle-checked'];
  const to = marks['wasm-compiled'];
  return {
    main,
    compileMs: from !== undefined && to !== undefined ? to - from : NaN,
    afterExitMs: Math.max(0, wallMs - at),
  };
}

export interface CliBreakdown {
  phases: CliPhase[];
  /** The wasm compile on background threads, from its start until the module is ready (overlaps the phases above). */
  wasmCompileBackground: CliPhase;
}

/** Medians over rounds: each round's phases against that round's floor. */
export function breakdown(rounds: Array<{ marks: Marks | undefined; wallMs: number; floorMs: number }>): CliBreakdown | undefined {
  const per = rounds.flatMap((r) => {
    const p = r.marks ? phasesOf(r.marks, r.wallMs) : undefined;
    return p ? [{ ...p, floorMs: r.floorMs }] : [];
  });
  if (!per.length) return undefined;
  const phase = (name: string, xs: Array<{ ms: number; floorMs: number }>): CliPhase => ({
    name,
    ms: round(median(xs.map((x) => x.ms)), 1),
    overFloor: round(median(xs.map((x) => x.ms / x.floorMs)), 3),
  });
  const phases = SEQUENCE.map(([name], i) =>
    phase(
      name,
      per.map((p) => ({ ms: p.main[i]!, floorMs: p.floorMs })),
    ),
  );
  phases.push(
    phase(
      'process exit (after the exit handlers)',
      per.map((p) => ({ ms: p.afterExitMs, floorMs: p.floorMs })),
    ),
  );
  return {
    phases,
    wasmCompileBackground: phase(
      'wasm compile on background threads (overlaps)',
      per.map((p) => ({ ms: p.compileMs, floorMs: p.floorMs })),
    ),
  };
}
