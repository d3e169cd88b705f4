// A run rescored with a newer scorer sits beside the run it came from: a report
// of the old run shows both, each labelled by its scorer version, and the
// reproducibility table names the scorer of each and where a rescore came from.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Window } from 'happy-dom';
import { describe, expect, it } from 'vitest';
import { openResults } from '../results/index';
import { buildReport } from './html';
import { loadRuns } from './load';
import { runLabels } from './tables';

describe('scorer versions side by side', () => {
  it('a report of a run shows its rescore beside it, each named by its scorer', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'skillbridge-scorers-'));
    const db = openResults(dir, { durability: 'process' });
    const base = { suite: 'alrm', model: 'm:x', workflow: 'alrm/tap', variant: 'TaP', seed: 1, trials: 1 };
    const old = db.startRun({ ...base, runId: 'old', args: { scorer: 'aaaaaaaa11112222' } });
    const rescored = db.startRun({ ...base, runId: 'new', args: { scorer: 'bbbbbbbb33334444', rescoredFrom: 'old' } });
    db.startRun({ ...base, runId: 'other', args: { scorer: 'aaaaaaaa11112222' } });
    for (const [run, score] of [
      [old, 0],
      [rescored, 1],
    ] as const) {
      db.record(run.runId, { caseId: 'boxes/1/CAN', trial: 1, status: 'ok', score, metrics: { alrm_score: score * 2 } });
      db.finishRun(run.runId, 'finished');
    }
    db.close();

    const runs = loadRuns(['old'], dir);
    expect(runs.map((r) => r.run.runId)).toEqual(['old', 'new']);
    expect([...runLabels(runs).values()]).toEqual(['TaP · m:x (scorer aaaaaaaa)', 'TaP · m:x (scorer bbbbbbbb)']);
    const html = buildReport({ runs, outFile: path.join(dir, 'r.html') }).html;
    const doc = new new Window().DOMParser().parseFromString(html, 'text/html');
    const rows = [...doc.getElementById('provenance')!.querySelectorAll('tbody tr')].map((tr) => tr.textContent);
    expect(rows[0]).toContain('aaaaaaaa1111');
    expect(rows[1]).toContain('bbbbbbbb3333 (rescored from old)');
    // Runs alike in everything but the id are still told apart by it.
    expect([...runLabels(loadRuns(['old', 'other'], dir)).values()]).toContain('TaP · m:x (other)');
  });
});
