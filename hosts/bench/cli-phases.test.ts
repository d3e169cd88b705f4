// The call's breakdown (cli-phases.ts): main-thread phases between marks, in order,
// a compile that finished early costs nothing, and ratios are to each round's floor.
import { describe, expect, it } from 'vitest';
import { breakdown, phasesOf } from './cli-phases';

const MARKS = {
  'node-ready': 40,
  'bundle-checked': 50,
  'bundle-loaded': 60,
  'command-loaded': 160,
  'wasm-compiled': 150,
  // Rapier was ready before the scene: waiting for it costs nothing.
  'wasm-instantiated': 165,
  'scene-loaded': 170,
  'world-built': 190,
  settled: 200,
  'tools-ready': 205,
  called: 305,
  printed: 306,
  exit: 310,
};

describe('bench cli breakdown', () => {
  it('splits a call into main-thread phases that sum to the time until exit', () => {
    const p = phasesOf(MARKS, 330)!;
    expect(p.main).toEqual([40, 10, 10, 100, 10, 0, 20, 10, 5, 100, 1, 4]);
    expect(p.main.reduce((a, b) => a + b, 0)).toBe(310);
    expect(p.compileMs).toBe(100);
    expect(p.afterExitMs).toBe(20);
    // A compile started before the bundle check counts from its own start.
    expect(phasesOf({ ...MARKS, 'wasm-compile-started': 42 }, 330)!.compileMs).toBe(108);
  });

  it('takes medians over rounds, each against its own floor, and skips rounds that failed early', () => {
    const b = breakdown([
      { marks: MARKS, wallMs: 330, floorMs: 40 },
      { marks: { ...MARKS, called: 405, printed: 406, exit: 410 }, wallMs: 430, floorMs: 80 },
      { marks: { 'node-ready': 40 }, wallMs: 60, floorMs: 40 },
      { marks: undefined, wallMs: 60, floorMs: 40 },
    ])!;
    const call = b.phases.find((x) => x.name.startsWith('the call itself'))!;
    expect(call.ms).toBe(150); // median of 100 and 200
    expect(call.overFloor).toBe(2.5); // median of 100/40 and 200/80
    expect(b.phases.at(-1)!.name).toMatch(/process exit/);
    expect(b.wasmCompileBackground.ms).toBe(100);
    expect(breakdown([{ marks: undefined, wallMs: 1, floorMs: 1 }])).toBeUndefined();
  });
});
