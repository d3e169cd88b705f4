// bench eval --scale: prints the scaling curve (cases per minute and memory
// against cases in flight and queue workers).
import { type Parsed, UsageError, intFlag, stringFlag } from '../args';
import { type Output, json } from '../output';

export async function scaleBench(p: Parsed, o: Output): Promise<number> {
  const { SUITES } = await import('../../../eval/suites/index');
  const suite = stringFlag(p.flags, 'suite');
  if (suite && !SUITES.some((s) => s.id === suite))
    throw new UsageError(`--suite: unknown suite "${suite}"; suites: ${SUITES.map((s) => s.id).join(', ')}`);
  const latencyMs = intFlag(p.flags, 'latency', 2000, { min: 0, max: 60_000 });
  const asJson = Boolean(p.flags['json']);
  const { benchEvalScale } = await import('../../bench/eval-scale-bench');
  const r = await benchEvalScale({ ...(suite ? { suite } : {}), latencyMs, ...(asJson ? {} : { onProgress: (l: string) => o.err(l) }) });
  if (asJson) {
    json(o, r);
    return 0;
  }
  o.out(
    `Evaluation at scale: ${r.suite}, the oracle's replies after ${r.latencyMs} ms per call (${r.cpus} cores, load ${r.load.toFixed(1)})`,
  );
  o.out('  mode     workers  in flight  cases   seconds  cases/min  speed-up  score  errors  time-limited  peak RSS  MB per extra case');
  const base = r.points.find((x) => x.mode === 'process' && x.concurrency === 1)?.casesPerMinute;
  for (const x of r.points)
    o.out(
      `  ${x.mode.padEnd(8)} ${String(x.workers).padStart(7)}  ${String(x.concurrency * x.workers).padStart(9)}  ${String(x.cases).padStart(5)}  ${x.seconds.toFixed(1).padStart(8)}  ${x.casesPerMinute.toFixed(1).padStart(9)}  ${base ? `${(x.casesPerMinute / base).toFixed(1)}×`.padStart(8) : '       –'}  ${x.score === null ? '    –' : x.score.toFixed(3)}  ${String(x.errors).padStart(6)}  ${String(x.timeLimited).padStart(12)}  ${x.rssPeakMb === null ? '       –' : `${x.rssPeakMb} MB`.padStart(8)}  ${x.mbPerExtraCase === null ? '–' : x.mbPerExtraCase}`,
    );
  if (r.queueSkipped) o.out(`  queue points skipped: ${r.queueSkipped}`);
  o.out('  cases: case × trials run; time-limited: turns that ended at their time limit (counted as misses).');
  o.out(
    'Goal: --concurrency 32 at least 10× the cases per minute of --concurrency 1, at the same score; ≤ 30 MB per extra case in flight.',
  );
  return 0;
}
