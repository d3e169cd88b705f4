// Progress goes to stderr always — under --json and inside a sweep too — and
// stdout holds only the answer; `eval --json` says whether the run finished or
// was stopped (a stopped run is continued with --resume).
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runEval } from '../../eval/runner/runner';
import { evalJson } from './commands/eval';
import { main } from './main';
import { TERMINAL, typedModel } from '../../test/support/host-refs';

async function cli(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await main(argv, { out: (t) => (out += `${t}\n`), err: (t) => (err += `${t}\n`) });
  return { code, out, err };
}

const fresh = () => mkdtempSync(join(tmpdir(), 'skillbridge-cli-progress-'));
const SMALL = ['--suite', 'alrm', '--workflow', 'flat', '--off-protocol', '--filter', 'boxes/3', '--model', 'oracle'];

describe('progress and status under --json', () => {
  it('eval --json: progress on stderr, one JSON answer on stdout with the run status', async () => {
    const r = await cli('eval', ...SMALL, '--out', fresh(), '--json');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.out)).toMatchObject({ status: 'finished', cases: 6 });
    expect(r.err).toMatch(/6\/6 cases, score 1\.000, 0 errors/);
  }, 300_000);

  it('a stopped run answers status "stopped" in --json', async () => {
    const ac = new AbortController();
    const r = await runEval({
      suite: TERMINAL.suite('alrm'),
      workflow: 'flat',
      offProtocol: true,
      filter: 'boxes/3',
      ...typedModel('oracle'),
      outDir: fresh(),
      signal: ac.signal,
      onProgress: (p) => {
        if (p.last) ac.abort();
      },
    });
    expect(r.interrupted).toBe(true);
    expect(evalJson(r)).toMatchObject({ status: 'stopped' });
  }, 300_000);

  it('sweep --json: each run and its progress on stderr', async () => {
    const dir = fresh();
    const file = join(dir, 'sweep.json');
    writeFileSync(file, JSON.stringify({ name: 'p', suites: ['alrm'], models: ['oracle'], workflows: ['alrm/tap'], filter: 'boxes/3' }));
    const r = await cli('sweep', file, '--out', join(dir, 'results'), '--json');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.out)).toMatchObject({ sweep: 'p' });
    expect(r.err).toMatch(/\[1\/1\] alrm · oracle · alrm\/tap · seed 1/);
    expect(r.err).toMatch(/\[1\/1\] 6\/6 cases, score 1\.000, 0 errors/);
  }, 300_000);
});
