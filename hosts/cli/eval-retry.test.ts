// eval --resume RUN --errors-only: only the case × trials that ended in an error
// run again; scored rows are kept as they were, stopped and missing ones stay
// for a plain --resume. Without --resume the option is refused in one line.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openResults } from '../../eval/results/index';
import { runEval } from '../../eval/runner/runner';
import { main } from './main';
import { TERMINAL, typedModel } from '../../test/support/host-refs';

async function cli(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await main(argv, { out: (t) => (out += `${t}\n`), err: (t) => (err += `${t}\n`) });
  return { code, out, err };
}

describe('eval --errors-only', () => {
  it('runs again only the errored case × trials of a run, keeping its scored rows and leaving the missing ones', async () => {
    const out = mkdtempSync(join(tmpdir(), 'skillbridge-retry-'));
    const ac = new AbortController();
    const first = await runEval({
      suite: TERMINAL.suite('alrm'),
      workflow: 'flat',
      offProtocol: true,
      filter: 'boxes/3',
      ...typedModel('oracle'),
      outDir: out,
      signal: ac.signal,
      onProgress: (p) => {
        if (p.done >= 3) ac.abort();
      },
    });
    expect(first.interrupted).toBe(true);
    const runId = first.run.runId;
    let db = openResults(out);
    const scored = db.results(runId).filter((r) => r.status === 'ok');
    expect(scored.length).toBeGreaterThanOrEqual(3);
    expect(scored.length).toBeLessThan(6);
    // One scored case becomes an error, as an unreachable model leaves it.
    const broken = scored[0]!;
    db.record(runId, {
      caseId: broken.caseId,
      trial: broken.trial,
      status: 'error',
      error: 'could not reach http://127.0.0.1:9',
      errorKind: 'model-unreachable',
      labels: broken.labels,
    });
    db.close();

    const r = await cli('eval', '--resume', runId, '--errors-only', '--out', out, '--json');
    const body = JSON.parse(r.out) as { errors: number; counts: Record<string, number> };
    expect(body.errors).toBe(0);
    db = openResults(out, { mode: 'read' });
    const after = db.results(runId);
    db.close();
    const ok = after.filter((x) => x.status === 'ok');
    // Exactly the scored ones again: the errored one rescored, the others untouched, the missing ones not run.
    expect(ok.map((x) => x.caseId).sort()).toEqual(scored.map((x) => x.caseId).sort());
    expect(after.find((x) => x.caseId === broken.caseId)!.score).toBe(1);
    for (const k of scored.slice(1)) expect(after.find((x) => x.caseId === k.caseId)!.recordedAt).toBe(k.recordedAt);
    expect(r.code).not.toBe(0);

    const alone = await cli('eval', '--suite', 'alrm', '--model', 'oracle', '--errors-only', '--out', out);
    expect(alone.code).toBe(2);
    expect(alone.err.trim().split('\n')).toHaveLength(1);
    expect(alone.err).toMatch(/--errors-only.*--resume/);
  }, 300_000);
});
