// bench eval: the oracle through every suite (--jobs 2 by default), as
// `skillbridge eval` runs it, with a warm case cache: wall seconds per suite and
// the harness overhead per case (everything but the model and the robot's skills:
// restoring the snapshot, hashing, opening the conversation, scoring, the trace,
// the database row). Results go to a throwaway folder. The targets:
// raider (all cases) ≤ 60 s and alrm ≤ 120 s with --jobs 2, overhead ≤ 200 ms.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { loadCases } from '../../eval/runner/cases';
import { runEval } from '../../eval/runner/runner';
import { TERMINAL } from '../service/host-policy';
import { SUITES, findSuite } from '../../eval/suites/index';

export interface EvalBenchSuite {
  id: string;
  cases: number;
  oracleSeconds: number;
  overheadMsPerCase: number;
  /** The oracle's headline score, printed beside the timings. */
  score: number | null;
  restoreMsPerCase: number;
  recordMsPerCase: number;
  robotMsPerCase: number;
  /** Seconds to generate the cases when the cache was cold (null: it was warm). */
  generatedSeconds: number | null;
  /** CPU seconds the process spent on the run (all threads): less sensitive than wall time to a busy machine. */
  cpuSeconds: number;
}

export interface EvalBenchResult {
  suites: EvalBenchSuite[];
  jobs: number;
  node: string;
  cpus: number;
  /** The 1-minute load average before and after: the machine is shared, so figures are noisy. */
  loadBefore: number;
  loadAfter: number;
}

export async function benchEval(o: { suites?: string[]; jobs?: number; onProgress?: (l: string) => void } = {}): Promise<EvalBenchResult> {
  const ids = o.suites ?? SUITES.map((s) => s.id);
  const jobs = o.jobs ?? 2;
  const loadBefore = os.loadavg()[0]!;
  const out: EvalBenchSuite[] = [];
  for (const id of ids) {
    const suite = findSuite(id);
    if (!suite) throw new Error(`unknown suite "${id}"`);
    // The cache is warmed first (generation is once per code version, not part of a run).
    const { generatedMs } = await loadCases(suite, { ...(o.onProgress ? { onProgress: o.onProgress } : {}) });
    const dir = mkdtempSync(join(os.tmpdir(), 'skillbridge-bench-eval-'));
    try {
      o.onProgress?.(`${id}: oracle, --jobs ${jobs}`);
      const started = performance.now();
      const cpu0 = process.cpuUsage();
      const r = await runEval({ suite: TERMINAL.suite(id), model: TERMINAL.model('oracle'), files: TERMINAL.files(), jobs, outDir: dir });
      const seconds = (performance.now() - started) / 1000;
      const cpu = process.cpuUsage(cpu0);
      const t = r.timings;
      out.push({
        id,
        cases: r.summary.cases,
        oracleSeconds: Math.round(seconds * 10) / 10,
        overheadMsPerCase: Math.round(t.meanOverheadMs + t.meanRecordMs),
        score: r.summary.score,
        restoreMsPerCase: Math.round(t.meanRestoreMs * 10) / 10,
        recordMsPerCase: Math.round(t.meanRecordMs),
        robotMsPerCase: Math.round(t.meanToolMs),
        generatedSeconds: generatedMs === null ? null : Math.round(generatedMs / 100) / 10,
        cpuSeconds: Math.round((cpu.user + cpu.system) / 1e5) / 10,
      });
      o.onProgress?.(`${id}: ${r.summary.cases} cases in ${seconds.toFixed(1)} s, score ${r.summary.score}`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  return { suites: out, jobs, node: process.version, cpus: os.cpus().length, loadBefore, loadAfter: os.loadavg()[0]! };
}
