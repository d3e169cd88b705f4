// RAIDER's VQA baseline in evaluation: scored like the other baselines, on every
// issue type as the paper's Table 1 scores it. The camera picture answers the
// checks about what the camera sees — reach (IU1) and properties (IU5) too, which
// LLMVisualObs's scene text does not give — so the oracle scores 1 with VQA and
// less with LLMVisualObs; floor:noop and the adversarial floors stay at 0.
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
import { ADVERSARIES } from '../../floors/adversaries';
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
  it('the oracle scores 1 (LLMVisualObs less: no distances or properties in its text); floor:noop and the adversaries 0', async () => {
    expect(await score('raider/vqa', 'oracle')).toBe(1);
    expect(await score('raider/full-scene', 'oracle')).toBeLessThan(1);
    for (const floor of ['floor:noop', ...ADVERSARIES.map((a) => `floor:${a}`)])
      expect(await score('raider/vqa', floor), floor).toBeLessThanOrEqual(0.1);
  }, 300_000);
});
