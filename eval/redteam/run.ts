// A red-team run over suites: each suite's cases (the full set from the case
// cache, or a stratified sample), floor:noop on them, then the search; the result
// as a record (record.ts) for the README's table and the next run's champions.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { EvalCase } from '../core/case';
import type { AnySuite } from '../core/suite';
import { WorldPool } from '../core/world';
import { gitCommit } from '../results/index';
import { loadCases, sampleCases } from '../runner/cases';
import type { RedTeamRefs } from './play';
import { RECORD_FORMAT, type RedTeamRecord, championsOf, suiteRecord } from './record';
import { attackSuite, stratified } from './search';

export interface RedTeamOptions {
  suites: readonly AnySuite[];
  /** Cases played at most, per suite. */
  budget: number;
  /** Cases per suite (a sample spread over its categories); default every case. */
  sample?: number;
  seed: number;
  /** Minutes at most, per suite. */
  minutes?: number;
  /** A previous run: its champions are played first. */
  from?: RedTeamRecord;
  refs: RedTeamRefs;
  /** Where a suite's cases come from (default: the case cache, generating when stale). */
  cases?: (suite: AnySuite) => Promise<EvalCase[]>;
  onProgress?: (line: string) => void;
  signal?: AbortSignal;
}

export async function redTeam(o: RedTeamOptions): Promise<RedTeamRecord> {
  const traceDir = mkdtempSync(path.join(tmpdir(), 'skillbridge-red-team-'));
  const record: RedTeamRecord = {
    format: RECORD_FORMAT,
    recordedAt: new Date().toISOString(),
    commit: gitCommit(),
    seed: o.seed,
    budget: o.budget,
    suites: [],
  };
  try {
    for (const suite of o.suites) {
      if (o.signal?.aborted) break;
      const all = o.cases
        ? await o.cases(suite)
        : (await loadCases(suite, { ...(o.onProgress ? { onProgress: o.onProgress } : {}) })).cases;
      const axis = suite.report.categoryAxis;
      const cases = stratified(o.sample && o.sample < all.length ? sampleCases(all, o.sample, o.seed, axis) : all, axis, o.seed);
      const pool = new WorldPool({ seed: o.seed });
      try {
        o.onProgress?.(`${suite.id}: ${cases.length} cases, budget ${o.budget} cases played`);
        const r = await attackSuite(
          suite,
          cases,
          { pool, traceDir, seed: o.seed, refs: o.refs, ...(o.signal ? { signal: o.signal } : {}) },
          {
            budget: o.budget,
            seed: o.seed,
            champions: championsOf(o.from, suite.id),
            ...(o.minutes !== undefined ? { minutes: o.minutes } : {}),
            ...(o.onProgress ? { onProgress: o.onProgress } : {}),
          },
        );
        record.suites.push(suiteRecord(r, all.length));
      } finally {
        await pool.dispose();
      }
    }
  } finally {
    rmSync(traceDir, { recursive: true, force: true });
  }
  return record;
}
