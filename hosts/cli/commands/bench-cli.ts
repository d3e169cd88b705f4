// skillbridge bench cli: start-up time and memory of the command itself (see hosts/bench/cli-bench.ts).
import { benchCli } from '../../bench/cli-bench';
import type { Parsed } from '../args';
import { type Output, json } from '../output';

export async function cliBenchCommand(p: Parsed, o: Output): Promise<number> {
  const asJson = Boolean(p.flags['json']);
  const r = await benchCli({ runs: p.flags['quick'] ? 5 : 9, onProgress: asJson ? undefined : (l) => o.err(l) });
  if (asJson) {
    json(o, r);
    return 0;
  }
  o.out(`Command-line benchmark (${r.node}, ${r.cpus} cores): medians of ${r.runs} fresh processes each, interleaved`);
  o.out(
    `Load average ${r.loadAvg.start} at start, ${r.loadAvg.end} at end${r.loadAvg.end / r.cpus > 0.5 ? ' (the machine was busy: compare with the floor)' : ''}`,
  );
  const rows: Array<[string, number, number, number, string]> = [
    ['node -e 0 (floor)', r.floorMs, r.cpuMs.floor, r.floorRssMB, ''],
    [r.command.scenes, r.scenesMs, r.cpuMs.scenes, r.scenesRssMB, `target ${r.targets['scenes']}`],
    [r.command.call, r.callMs, r.cpuMs.call, r.callRssMB, `goal ${r.targets['call']}: ${r.callGoal.met ? 'met' : 'not met'}`],
    ['  the same, optimising wasm tier', r.callOptimisingMs, r.cpuMs.callOptimising, r.callOptimisingRssMB, 'SKILLBRIDGE_WASM_OPTIMIZE=1'],
  ];
  const w = Math.max(...rows.map((x) => x[0].length));
  o.out(`${''.padEnd(w)}  wall ms  cpu ms  peak RSS MB`);
  for (const [name, ms, c, mb, note] of rows)
    o.out(`${name.padEnd(w)}  ${String(ms).padStart(7)}  ${String(c).padStart(6)}  ${String(mb).padStart(11)}  ${note}`);
  o.out(`Wall time over the floor (median of each round's ratio): scenes ${r.overFloor.scenes}×, call ${r.overFloor.call}×`);
  o.out(`Bundle freshness check at each start: ${r.bundleCheckMs} ms (${r.bundleInputs} inputs stat'ed)`);
  return 0;
}
