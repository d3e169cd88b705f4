// The suites' self-test: on a small generated sample of every suite,
// the oracle scores 100 % (a case it cannot solve is a broken case, named in
// the failure), every floor stays under its bound, specs resolve, and the same
// case run twice ends in the same world (equal hashes, equal metrics).
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { specProblems } from '../report/spec';
import type { EvalCase } from '../core/case';
import type { AnySuite } from '../core/suite';
import { WorldPool } from '../core/world';
import { sampleCases } from '../runner/cases';
import { type CaseResult, runCase } from '../runner/run-case';
import { SUITES } from './index';
import { sharedSmallCases } from '../../test/support/shared-cases';
import { TERMINAL, typedModel } from '../../test/support/host-refs';

const traceDir = mkdtempSync(join(tmpdir(), 'skillbridge-suites-'));
/** Cases per suite the oracle and the floors run on. */
const SAMPLE = 8;

const pool = new WorldPool({ seed: 1 });
afterAll(() => pool.dispose());

function workflowOf(suite: AnySuite): string {
  return suite.defaultWorkflow;
}

async function play(suite: AnySuite, c: EvalCase, model: string, trial = 1): Promise<CaseResult> {
  return runCase({ suite, case: c, trial, workflow: workflowOf(suite), ...typedModel(model), seed: 1, pool, traceDir });
}

const mean = (rs: CaseResult[]) => rs.reduce((s, r) => s + (r.record.score ?? 0), 0) / rs.length;

describe.each(SUITES.map((s) => [s.id, s] as const))('suite %s', (_id, suite) => {
  let sample: EvalCase[];

  beforeAll(async () => {
    const all = await sharedSmallCases(suite);
    sample = sampleCases(all, SAMPLE, 1, suite.report.categoryAxis);
  }, 900_000);

  it('describes its report with a spec whose references resolve', () => {
    expect(specProblems(suite.report)).toEqual([]);
    expect(suite.report.suite).toBe(suite.id);
  });

  it('generates cases with unique ids, labels on the report axes and a gold the suite accepts', () => {
    expect(sample.length).toBeGreaterThan(0);
    for (const c of sample) {
      expect(() => suite.gold.parse(c.gold), c.id).not.toThrow();
      for (const a of suite.report.axes)
        if (a.values.length && c.labels[a.key] !== undefined) expect(typeof c.labels[a.key]).toBe('string');
    }
  });

  it('the oracle solves every sampled case', async () => {
    const broken: string[] = [];
    for (const c of sample) {
      const r = await play(suite, c, 'oracle');
      const recov = r.record.metrics?.['recov_plan'];
      if (r.record.status !== 'ok' || r.record.score !== 1 || recov === false || recov === 0)
        broken.push(`${c.id}: ${r.record.status} score ${r.record.score} ${r.record.error ?? JSON.stringify(r.record.metrics)}`);
    }
    expect(broken, 'broken cases (the oracle could not solve them)').toEqual([]);
  }, 900_000);

  it.each(suite.floors.map((f) => [f.floor, f.maxScore] as const))(
    'floor:%s stays at or under %s',
    async (floor, max) => {
      const rs: CaseResult[] = [];
      for (const c of sample) rs.push(await play(suite, c, `floor:${floor}`));
      expect(rs.every((r) => r.record.status === 'ok')).toBe(true);
      expect(mean(rs)).toBeLessThanOrEqual(max + 1e-9);
    },
    900_000,
  );

  it.runIf(suite.judge)(
    'records the free-text judge (--judge) beside the structural metrics, never in the score',
    async () => {
      const judge = suite.judge!;
      const script = (name: string, answer: string) => {
        const file = join(traceDir, `${name}.json`);
        writeFileSync(file, JSON.stringify([{ content: answer }]));
        return `scripted:${file}`;
      };
      const c = sample[0]!;
      const judged = (spec: string) =>
        runCase({
          suite,
          case: c,
          trial: 1,
          workflow: workflowOf(suite),
          ...typedModel('oracle'),
          seed: 1,
          pool,
          traceDir,
          judge: TERMINAL.model(spec),
        });
      const yes = await judged(script('yes', 'Yes.'));
      const no = await judged(script('no', 'No: it names another object.'));
      const mute = await judged(script('mute', 'I cannot tell.'));
      expect([yes, no, mute].map((r) => r.record.metrics?.[judge.metric])).toEqual([1, 0, null]);
      expect([yes, no, mute].map((r) => r.record.score)).toEqual([1, 1, 1]);
    },
    900_000,
  );

  it('runs a case the same way twice: equal end hashes and metrics', async () => {
    const c = sample[0]!;
    const a = await play(suite, c, 'oracle', 1);
    const b = await play(suite, c, 'oracle', 2);
    expect(a.record.worldHashStart).toBe(b.record.worldHashStart);
    expect(a.record.worldHashEnd).toBe(b.record.worldHashEnd);
    expect(a.record.metrics).toEqual(b.record.metrics);
  }, 900_000);
});
