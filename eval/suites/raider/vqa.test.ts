// RAIDER's VQA baseline in evaluation: scored like the other baselines. The
// camera picture counts as a whole-scene observation (as LLMVisualObs's text
// does), so the oracle scores what it scores with LLMVisualObs; floor:noop 0.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { headline } from '../../report/stats';
import type { ResultRecord } from '../../results/index';
import { WorldPool } from '../../core/world';
import { sampleCases } from '../../runner/cases';
import { runCase } from '../../runner/run-case';
import { SUITES } from '../index';
import { sharedSmallCases } from '../../../test/support/shared-cases';
import { typedModel } from '../../../test/support/host-refs';

const traceDir = mkdtempSync(join(tmpdir(), 'skillbridge-vqa-'));
const pool = new WorldPool({ seed: 1 });
const raiderSuite = SUITES.find((s) => s.id === 'raider')!;
afterAll(() => pool.dispose());

async function score(workflow: string, model: string): Promise<number | null> {
  const sample = sampleCases(await sharedSmallCases(raiderSuite), 3, 1, raiderSuite.report.categoryAxis);
  const rows: ResultRecord[] = [];
  for (const c of sample) {
    const r = await runCase({ suite: raiderSuite, case: c, trial: 1, workflow, ...typedModel(model), seed: 1, pool, traceDir });
    rows.push({ ...r.record, labels: c.labels, metrics: r.record.metrics ?? {} } as unknown as ResultRecord);
  }
  return headline(raiderSuite.report, rows).value;
}

describe('raider/vqa in evaluation', () => {
  it("the oracle scores what LLMVisualObs's oracle scores, and above 0; floor:noop scores 0", async () => {
    const vqa = await score('raider/vqa', 'oracle');
    expect(vqa).toBe(await score('raider/full-scene', 'oracle'));
    expect(vqa).toBeGreaterThan(0);
    expect(await score('raider/vqa', 'floor:noop')).toBe(0);
  }, 120_000);
});
