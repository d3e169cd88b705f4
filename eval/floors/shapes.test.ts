// The named shapes (./shapes.ts) and floor:wrong on the suites they once beat:
// each stays within 0.1 of floor:noop on the headline and on the metrics it once
// inflated, and the oracle still scores 1. CI plays a stratified seeded sample of
// each suite's small case set (24 cases; ALRM's 54 cases over three models and
// two workflows took minutes); `npm run fuzz` plays the whole set, where a shape
// that scores on one case in ten cannot hide.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { aggregate, headline } from '../report/stats';
import type { ResultRecord } from '../results/index';
import type { AnySuite } from '../core/suite';
import { WorldPool } from '../core/world';
import { runCase } from '../runner/run-case';
import { findSuite } from '../suites/index';
import { sharedSmallCases } from '../../test/support/shared-cases';
import { fuzzRuns, fuzzSeed } from '../../test/fuzz/support/budget';
import { sampleCases } from '../runner/cases';
import { typedModel } from '../../test/support/host-refs';

const traceDir = mkdtempSync(join(tmpdir(), 'skillbridge-shapes-'));
const pool = new WorldPool({ seed: 1 });
afterAll(() => pool.dispose());

/** Each shape where it scored: the suite, its workflow, the models, and the metrics besides the headline to hold. */
const WHERE: Array<{ suite: string; workflow?: string; models: string[]; metrics: string[] }> = [
  { suite: 'etp', models: ['floor:first-branch', 'floor:pack-ids', 'floor:wrong', 'floor:static-answer'], metrics: ['tusr', 'amr', 'csr'] },
  { suite: 'rtw', models: ['floor:static-answer'], metrics: ['mission_success'] },
  { suite: 'alrm', models: ['floor:do-everything'], metrics: [] },
  { suite: 'alrm', workflow: 'alrm/cap', models: ['floor:do-everything'], metrics: [] },
  { suite: 'raider', models: ['floor:verb-only', 'floor:static-answer'], metrics: ['expl', 'grnd', 'pass'] },
];

async function figures(suite: AnySuite, workflow: string, model: string, metrics: string[]): Promise<Record<string, number>> {
  const rows: ResultRecord[] = [];
  const all = await sharedSmallCases(suite);
  const n = fuzzRuns(24);
  for (const c of n >= all.length ? all : sampleCases(all, n, fuzzSeed(1), suite.report.categoryAxis)) {
    const r = await runCase({ suite, case: c, trial: 1, workflow, ...typedModel(model), seed: 1, pool, traceDir });
    rows.push({ ...r.record, labels: c.labels, metrics: r.record.metrics ?? {} } as unknown as ResultRecord);
  }
  const f: Record<string, number> = {
    headline: headline(suite.report, rows).value ?? 0,
    errors: rows.filter((r) => r.status !== 'ok').length,
  };
  for (const k of metrics) {
    if (k === 'pass') f[k] = rows.filter((r) => r.success === true).length / rows.length;
    else {
      const spec = suite.report.metrics[k];
      if (spec) f[k] = aggregate(rows, spec).value ?? 0;
    }
  }
  return f;
}

describe.each(WHERE.map((w) => [`${w.suite}${w.workflow ? ` (${w.workflow})` : ''}`, w] as const))('named shapes on %s', (_n, w) => {
  it(`${w.models.join(', ')} stay within 0.1 of floor:noop; the oracle scores 1`, async () => {
    const suite = findSuite(w.suite)!;
    const workflow = w.workflow ?? suite.defaultWorkflow;
    const oracle = await figures(suite, workflow, 'oracle', w.metrics);
    const noop = await figures(suite, workflow, 'floor:noop', w.metrics);
    const over: string[] = [];
    const all: Record<string, Record<string, number>> = { oracle, 'floor:noop': noop };
    for (const m of w.models) {
      const f = (all[m] = await figures(suite, workflow, m, w.metrics));
      expect(f['errors'], `${m} crashed`).toBe(0);
      for (const k of ['headline', ...w.metrics]) if (f[k]! > noop[k]! + 0.1) over.push(`${m} ${k} ${f[k]} vs noop ${noop[k]}`);
    }
    console.log(`${w.suite} ${workflow} shapes: ${JSON.stringify(all)}`);
    for (const k of ['headline', ...w.metrics]) expect(oracle[k], `oracle ${k}`).toBe(1);
    expect(over).toEqual([]);
  }, 1_800_000);
});
