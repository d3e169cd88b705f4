// The headline SQL in docs/evaluation.md reproduces the reported headline: for every suite, a
// real small run (the oracle on a sample of the suite's small case set, half its cases replaced by floor:noop's
// results so the figure is neither 0 nor 1, and one an error) gives the same number from
// headlineSql() in SQLite as from the report's headline(); and the page
// quotes exactly that SQL.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sqlite from 'node-sqlite3-wasm';
import { describe, expect, it } from 'vitest';
import { DB_FILE, openResults } from '../eval/results/index';
import { runEval } from '../eval/runner/runner';
import { SUITES } from '../eval/suites/index';
import { headlineSql } from '../eval/report/headline-sql';
import { headline } from '../eval/report/stats';
import { smallCasesCacheDir } from './support/shared-cases';
import { TERMINAL, typedModel } from './support/host-refs';

const README = readFileSync(new URL('../docs/evaluation.md', import.meta.url), 'utf8');

describe.each(SUITES.map((s) => [s.id, s] as const))('the headline SQL of %s', (_id, suite) => {
  it('is quoted in docs/evaluation.md and gives the reported headline on a real mixed run', async () => {
    const sql = headlineSql(suite.report);
    expect(README, `docs/evaluation.md quotes the ${suite.id} headline SQL`).toContain(sql);
    const out = mkdtempSync(join(tmpdir(), `skillbridge-headline-${suite.id}-`));
    const cacheDir = await smallCasesCacheDir(suite);
    const oracle = await runEval({ suite: TERMINAL.suite(suite.id), ...typedModel('oracle'), sample: 8, outDir: out, cacheDir });
    const noop = await runEval({ suite: TERMINAL.suite(suite.id), ...typedModel('floor:noop'), sample: 8, outDir: out, cacheDir });
    // Every case of both decided: a scorer that gives no headline value would be an error, not a 0.
    expect([oracle.summary.errorReasons, noop.summary.errorReasons]).toEqual([[], []]);
    const raw = new sqlite.Database(join(out, DB_FILE));
    try {
      // Every other case of the oracle's run takes floor:noop's result instead.
      const ids = raw
        .all('SELECT DISTINCT case_id FROM results WHERE run_id = ? ORDER BY case_id', [oracle.run.runId])
        .map((r) => String(r['case_id']));
      for (const id of ids.filter((_x, i) => i % 2 === 1)) {
        raw.run('DELETE FROM results WHERE run_id = ? AND case_id = ?', [oracle.run.runId, id]);
        raw.run(
          `INSERT INTO results SELECT ?, case_id, trial, status, success, score, metrics_json, labels_json, duration_ms, model_ms, tokens_in, tokens_out,
             cost_usd, tool_calls, failure_class, error, trace_path, world_hash_start, world_hash_end, recorded_at, error_kind, scorer_version
           FROM results WHERE run_id = ? AND case_id = ?`,
          [oracle.run.runId, noop.run.runId, id],
        );
      }
      // And one case's outcome unknown: an error has no score, so both leave it out.
      raw.run(
        `UPDATE results SET status = 'error', score = NULL, success = NULL, error = 'Could not reach the model', error_kind = 'model-unreachable'
         WHERE run_id = ? AND case_id = ?`,
        [oracle.run.runId, ids[0]!],
      );
      const db = openResults(out, { mode: 'read' });
      const rows = db.results(oracle.run.runId);
      db.close();
      const reported = headline(suite.report, rows).value;
      const fromSql = raw.get(sql, { ':run': oracle.run.runId })?.['headline'] ?? null;
      console.log(
        `${suite.id}: reported ${reported}, SQL ${String(fromSql)}, mean score ${rows.reduce((a, r) => a + (r.score ?? 0), 0) / rows.length}`,
      );
      expect(reported).not.toBeNull();
      expect(Number(fromSql)).toBeCloseTo(reported!, 9);
    } finally {
      raw.close();
    }
  }, 1_500_000);
});
