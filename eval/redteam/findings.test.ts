// The red team's findings, replayed: each champion strategy of a recorded run
// (findings.json: its genome and the cases on which it earned the metric without
// reaching the case's goal) plays those cases again through the suite's workflow
// and scorer; none may earn the metric without the goal. A finding stays here
// after its scorer is fixed, so the class cannot come back unnoticed.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { WorldPool } from '../core/world';
import { findSuite } from '../suites/index';
import { TERMINAL } from '../../test/support/host-refs';
import { readFindings } from './findings';
import { playCase } from './play';

const FINDINGS = readFindings();

const traceDir = mkdtempSync(path.join(tmpdir(), 'skillbridge-findings-'));
const pool = new WorldPool({ seed: 1 });
afterAll(async () => {
  await pool.dispose();
  rmSync(traceDir, { recursive: true, force: true });
});

describe.each(FINDINGS.map((f) => [`${f.suite} ${f.found}`, f] as const))('%s', (_name, f) => {
  it(`earns no ${f.metric} without the goal on the ${f.cases.length} cases where it did`, async () => {
    const suite = findSuite(f.suite)!;
    const credited: string[] = [];
    for (const c of f.cases) {
      const p = await playCase(suite, c, { genome: f.genome }, { pool, traceDir, seed: 1, refs: TERMINAL });
      expect(p.row.status, `${c.id} ran`).toBe('ok');
      if (p.goal === false && (p.row.metrics[f.metric] ?? 0) > 0) credited.push(c.id);
    }
    expect(credited).toEqual([]);
  }, 180_000);
});
