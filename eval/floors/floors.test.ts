// The adversarial floors against every suite's scorer: on a small
// generated sample of each suite, the oracle's headline is 1 and every
// adversarial floor's headline stays within 0.1 of floor:noop's (RAIDER: and its
// Expl and Grnd too). A scorer that rewards words fails here by name.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { aggregate, headline } from '../report/stats';
import type { ResultRecord } from '../results/index';
import { WorldPool } from '../core/world';
import { sampleCases } from '../runner/cases';
import { runCase } from '../runner/run-case';
import { SUITES } from '../suites/index';
import { ADVERSARIES } from './adversaries';
import { offProtocolReason } from '../core/protocol';
import { sharedSmallCases } from '../../test/support/shared-cases';
import { typedModel } from '../../test/support/host-refs';

const traceDir = mkdtempSync(join(tmpdir(), 'skillbridge-floors-'));
const SAMPLE = Number(process.env['FLOORS_SAMPLE'] ?? 8);
const pool = new WorldPool({ seed: 1 });
afterAll(() => pool.dispose());

const MODELS = ['oracle', 'floor:noop', ...ADVERSARIES.map((a) => `floor:${a}`)];

describe.each(SUITES.map((s) => [s.id, s] as const))('adversarial floors on %s', (_id, suite) => {
  it('the oracle scores 1 and every adversary stays within 0.1 of floor:noop', async () => {
    const all = await sharedSmallCases(suite);
    // Every case runs with a tool set the suite is defined for.
    expect(offProtocolReason(suite, suite.defaultWorkflow, all)).toBeUndefined();
    const sample = sampleCases(all, SAMPLE, 1, suite.report.categoryAxis);
    const figures: Record<string, Record<string, number | null>> = {};
    for (const model of MODELS) {
      const rows: ResultRecord[] = [];
      for (const c of sample) {
        const r = await runCase({
          suite,
          case: c,
          trial: 1,
          workflow: suite.defaultWorkflow,
          ...typedModel(model),
          seed: 1,
          pool,
          traceDir,
        });
        rows.push({ ...r.record, labels: c.labels, metrics: r.record.metrics ?? {} } as unknown as ResultRecord);
      }
      const f: Record<string, number | null> = { headline: headline(suite.report, rows).value };
      if (suite.id === 'raider') for (const k of ['expl', 'grnd'] as const) f[k] = aggregate(rows, suite.report.metrics[k]!).value ?? 0;
      f['errors'] = rows.filter((r) => r.status !== 'ok').length;
      figures[model] = f;
    }
    console.log(`${suite.id}: ${JSON.stringify(figures)}`);
    expect(figures['oracle']!['headline']).toBe(1);
    const noop = figures['floor:noop']!;
    const over: string[] = [];
    for (const a of ADVERSARIES) {
      const f = figures[`floor:${a}`]!;
      expect(f['errors'], `floor:${a} crashed`).toBe(0);
      for (const k of Object.keys(f).filter((x) => x !== 'errors'))
        if ((f[k] ?? 0) > (noop[k] ?? 0) + 0.1) over.push(`floor:${a} ${k} ${f[k]} vs noop ${noop[k]}`);
    }
    expect(over).toEqual([]);
  }, 1_800_000);
});
