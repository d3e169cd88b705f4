// Many cases in flight in one process (--concurrency): each case leases a world
// of its own, so running eight at once against a model with latency gives the
// same rows as running them one by one — scores, metrics, tool calls, start
// and end world hashes — and the model server never sees a conversation the
// oracle did not have.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openResults } from '../results/index';
import { runEval } from '../runner/runner';
import { type OracleServer, recordOracleReplies, startOracleServer } from '../../test/support/oracle-server';
import { TERMINAL, typedModel } from '../../test/support/host-refs';

const fresh = () => mkdtempSync(path.join(tmpdir(), 'skillbridge-scale-'));

async function rows(sel: { suite: string; filter?: string }, spec: string, concurrency: number, jobs = 1) {
  const out = fresh();
  const r = await runEval({ ...sel, suite: TERMINAL.suite(sel.suite), ...typedModel(spec), outDir: out, jobs, scale: { concurrency } });
  const db = openResults(out, { mode: 'read' });
  const got = db
    .results(r.run.runId)
    .map((x) => ({
      caseId: x.caseId,
      status: x.status,
      score: x.score,
      metrics: x.metrics,
      toolCalls: x.toolCalls,
      start: x.worldHashStart,
      end: x.worldHashEnd,
    }))
    .sort((a, b) => (a.caseId < b.caseId ? -1 : 1));
  db.close();
  return { rows: got, figures: r.timings.scale, summary: r.summary };
}

describe.each([{ suite: 'alrm', filter: 'boxes/3' }, { suite: 'rtw' }])('--concurrency on $suite', (sel) => {
  let srv: OracleServer;
  beforeAll(async () => {
    srv = await startOracleServer(await recordOracleReplies(sel), 100);
  }, 300_000);
  afterAll(() => srv?.close());

  it('eight cases in flight give the same rows as one at a time', async () => {
    const one = await rows(sel, srv.spec, 1);
    const eight = await rows(sel, srv.spec, 8);
    expect(srv.misses()).toBe(0);
    expect(one.summary.errors).toBe(0);
    expect(one.summary.score).toBe(1);
    expect(one.figures.maxInFlight).toBe(1);
    expect(eight.figures.maxInFlight).toBeGreaterThan(1);
    expect(eight.figures.mbPerCaseInFlight).not.toBeNull();
    expect(eight.rows).toEqual(one.rows);
  }, 600_000);
});
