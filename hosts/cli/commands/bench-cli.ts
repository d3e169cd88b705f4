// skillbridge bench cli: start-up time and memory of the command itself (see hosts/bench/cli-bench.ts).
import { type CliBenchResult, ISSUE_FLOOR_MS } from '../../bench/cli-bench';
import type { Parsed } from '../args';
import { type Output, json } from '../output';

export async function cliBenchCommand(p: Parsed, o: Output): Promise<number> {
  const asJson = Boolean(p.flags['json']);
  const { benchCli } = await import('../../bench/cli-bench');
  const r = await benchCli({ runs: p.flags['quick'] ? 5 : 9, onProgress: asJson ? undefined : (l) => o.err(l) });
  if (asJson) {
    json(o, r);
    return 0;
  }
  o.out(`Command-line benchmark (${r.node}, ${r.cpus} cores): medians of ${r.runs} fresh processes each, interleaved`);
  o.out(
    `Load average ${r.loadAvg.start} at start, ${r.loadAvg.end} at end${r.loadAvg.end / r.cpus > 0.5 ? ' (the machine was busy: compare with the floor)' : ''}`,
  );
  const verdict = (g: CliBenchResult['callGoal']) =>
    `${g.met ? 'met' : 'not met'}; ≤ ${g.overFloor}× floor: ${g.metOverFloor ? 'met' : 'not met'}`;
  const rows: Array<[string, number, number, number, number, number, string]> = [
    ['node -e 0 (floor)', r.floorMs, r.cpuMs.floor, r.floorRssMB, r.pageFaults.floor, 1, ''],
    [
      r.command.scenes,
      r.scenesMs,
      r.cpuMs.scenes,
      r.scenesRssMB,
      r.pageFaults.scenes,
      r.overFloor.scenes,
      `target ${r.targets['scenes']}: ${verdict(r.scenesGoal)}`,
    ],
    [
      r.command.call,
      r.callMs,
      r.cpuMs.call,
      r.callRssMB,
      r.pageFaults.call,
      r.overFloor.call,
      `goal ${r.targets['call']}: ${verdict(r.callGoal)}`,
    ],
    [
      '  the same, optimising wasm tier',
      r.callOptimisingMs,
      r.cpuMs.callOptimising,
      r.callOptimisingRssMB,
      r.pageFaults.callOptimising,
      r.overFloor.callOptimising,
      'SKILLBRIDGE_WASM_OPTIMIZE=1',
    ],
    [
      '  the same, Rapier compiled lazily',
      r.callLazyWasmMs,
      r.cpuMs.callLazyWasm,
      r.callLazyWasmRssMB,
      r.pageFaults.callLazyWasm,
      r.overFloor.callLazyWasm,
      'SKILLBRIDGE_WASM_HINTS=0',
    ],
  ];
  const w = Math.max(...rows.map((x) => x[0].length));
  o.out(`${''.padEnd(w)}  wall ms  cpu ms  peak RSS MB  page faults  × floor`);
  for (const [name, ms, c, mb, pf, x, note] of rows)
    o.out(
      `${name.padEnd(w)}  ${String(ms).padStart(7)}  ${String(c).padStart(6)}  ${String(mb).padStart(11)}  ${String(pf).padStart(11)}  ${String(x).padStart(7)}  ${note}`,
    );
  o.out(`Goals were set where the floor took ${ISSUE_FLOOR_MS} ms; "× floor" compares across machines (median of each round's ratio).`);
  const b = r.callBreakdown;
  if (b) {
    o.out(`\nWhere the call's wall time goes (main thread, medians; the phases need not sum to the median wall):`);
    const pw = Math.max(...b.phases.map((x) => x.name.length), b.wasmCompileBackground.name.length);
    for (const x of [...b.phases, b.wasmCompileBackground])
      o.out(`  ${x.name.padEnd(pw)}  ${String(x.ms).padStart(7)} ms  ${x.overFloor.toFixed(2).padStart(5)}× floor`);
  }
  o.out(`Bundle freshness check at each start: ${r.bundleCheckMs} ms (${r.bundleInputs} inputs stat'ed)`);
  return 0;
}
