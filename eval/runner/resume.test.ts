// A resumed run runs with every setting it was started with: its physics
// threads (--jobs), its cases in flight (--concurrency) and its shard, unless
// given again; what makes its content (the model, the seed, the case set) cannot
// change under it.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runEval } from './runner';
import { TERMINAL, typedModel } from '../../test/support/host-refs';

const fresh = () => mkdtempSync(path.join(tmpdir(), 'skillbridge-resume-'));
const SMALL = {
  suite: TERMINAL.suite('alrm'),
  workflow: 'flat',
  offProtocol: true,
  filter: 'boxes/3',
  ...typedModel('oracle'),
};

describe('eval --resume', () => {
  it('restores --jobs and --concurrency (and the shard) as the run was started with them', async () => {
    const outDir = fresh();
    const ac = new AbortController();
    const first = await runEval({
      ...SMALL,
      outDir,
      jobs: 2,
      scale: { concurrency: 4, shard: { index: 1, count: 2 }, runId: 'resume-settings' },
      signal: ac.signal,
      onProgress: (p) => {
        if (p.last) ac.abort();
      },
    });
    expect(first.interrupted).toBe(true);
    const planned = first.counts.planned;
    expect(planned).toBeGreaterThan(0);
    expect(planned).toBeLessThan(6);

    const again = await runEval({ resume: TERMINAL.runId('resume-settings'), reopen: TERMINAL, files: TERMINAL.files(), outDir });
    expect(again.interrupted).toBe(false);
    expect(again.timings.scale.jobs).toBe(2);
    expect(again.timings.scale.concurrency).toBe(4);
    // The shard's own case × trials, not the whole suite's.
    expect(again.counts).toMatchObject({ planned, scored: planned, errors: 0 });
  }, 300_000);

  it('refuses --shard other than the run was started with, in one line', async () => {
    const outDir = fresh();
    await runEval({ ...SMALL, outDir, scale: { shard: { index: 1, count: 2 }, runId: 'resume-shard' } });
    await expect(
      runEval({
        resume: TERMINAL.runId('resume-shard'),
        reopen: TERMINAL,
        files: TERMINAL.files(),
        outDir,
        scale: { shard: { index: 2, count: 2 } },
      }),
    ).rejects.toThrow(/was started as --shard 1\/2, not --shard 2\/2/);
  }, 300_000);
});
