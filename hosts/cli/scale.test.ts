// Evaluation at scale from the command line: --shard K/N splits a run's case ×
// trials between machines and `report` merges the shards' folders into one run;
// --concurrency prints the cases in flight and their memory; bad input to the
// new flags and commands is one line and exit 2.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openResults } from '../../eval/results/index';
import { main } from './main';

async function cli(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await main(argv, { out: (t) => (out += `${t}\n`), err: (t) => (err += `${t}\n`) });
  return { code, out, err };
}

const fresh = () => mkdtempSync(join(tmpdir(), 'skillbridge-cli-scale-'));
const SMALL = ['--suite', 'alrm', '--workflow', 'flat', '--off-protocol', '--filter', 'boxes/3', '--model', 'oracle'];

describe('eval at scale', () => {
  it('two shards of one run split its cases, and report over both folders merges them into one run', async () => {
    const a = fresh();
    const b = fresh();
    const one = await cli('eval', ...SMALL, '--shard', '1/2', '--run-id', 'boxes-sharded', '--out', a, '--json');
    const two = await cli('eval', ...SMALL, '--shard', '2/2', '--run-id', 'boxes-sharded', '--out', b, '--json');
    expect(one.code).toBe(0);
    expect(two.code).toBe(0);
    const n1 = (JSON.parse(one.out) as { cases: number }).cases;
    const n2 = (JSON.parse(two.out) as { cases: number }).cases;
    expect(n1).toBeGreaterThan(0);
    expect(n2).toBeGreaterThan(0);
    expect(n1 + n2).toBe(6);
    const ids = (dir: string) => {
      const db = openResults(dir, { mode: 'read' });
      const r = db.results('boxes-sharded').map((x) => x.caseId);
      db.close();
      return r;
    };
    expect(new Set([...ids(a), ...ids(b)]).size).toBe(6);
    const report = await cli('report', a, b, '--out', join(fresh(), 'r.html'), '--json');
    expect(report.code).toBe(0);
    const runs = (JSON.parse(report.out) as { runs: Array<{ runId: string; cases: number; score: number }> }).runs;
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({ runId: 'boxes-sharded', cases: 6, score: 1 });
  }, 300_000);

  it('report merges shards only of one content and names the shards missing', async () => {
    const a = fresh();
    const b = fresh();
    const c = fresh();
    expect((await cli('eval', ...SMALL, '--shard', '1/3', '--run-id', 'checked-shards', '--out', a)).code).toBe(0);
    expect((await cli('eval', ...SMALL, '--shard', '2/3', '--run-id', 'checked-shards', '--out', b)).code).toBe(0);
    // The same run id on a third machine, another model: not a shard of that run.
    const other = [...SMALL.slice(0, -1), 'floor:noop'];
    expect((await cli('eval', ...other, '--shard', '3/3', '--run-id', 'checked-shards', '--out', c)).code).toBe(0);
    const bad = await cli('report', a, b, c, '--out', join(fresh(), 'r.html'));
    expect(bad.code).toBe(2);
    expect(bad.err.trim().split('\n')).toHaveLength(1);
    expect(bad.err).toMatch(/are not shards of one run \(--model oracle there, floor:noop here\)/);
    // Two of three shares: merged, but not finished, and the missing share named.
    const two = await cli('report', a, b, '--out', join(fresh(), 'r.html'), '--json');
    expect(two.code).toBe(0);
    const runs = (JSON.parse(two.out) as { runs: Array<{ runId: string; status: string; note: string | null }> }).runs;
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({ runId: 'checked-shards', status: 'stopped' });
  }, 300_000);

  it('--concurrency runs several cases at once and prints how many and their memory', async () => {
    const r = await cli('eval', ...SMALL, '--concurrency', '4', '--out', fresh());
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/in flight: up to [2-4] \(--concurrency 4\); memory [\d.]+ → [\d.]+ MB peak RSS/);
    expect(r.out).toMatch(/score 1\.000 \[[\d.]+, 1\.000\] over 6 scored of 6 case × trials, 0 errors/);
  }, 300_000);

  it('answers bad input to the new flags and commands in one line with exit 2', async () => {
    const dir = fresh();
    const bad = join(dir, 'prices.json');
    writeFileSync(bad, JSON.stringify({ prices: [{ model: 'x', inputPerMTok: -1, outputPerMTok: 1 }] }));
    const cases: Array<[string[], RegExp]> = [
      [['eval', ...SMALL, '--shard', '3/2', '--run-id', 'x'], /--shard must be K\/N with 1 ≤ K ≤ N/],
      [['eval', ...SMALL, '--shard', '1/2'], /--shard needs --run-id ID/],
      [['eval', ...SMALL, '--concurrency', '0'], /--concurrency/],
      [['eval', ...SMALL, '--rpm', 'lots'], /--rpm must be a number/],
      [['eval', ...SMALL, '--prices', bad], /--prices .*prices\.0\.inputPerMTok/],
      [['eval', ...SMALL, '--queue', 'http://127.0.0.1:1'], /--queue must be a redis:\/\/ URL/],
      [
        ['eval', ...SMALL, '--queue', 'redis://127.0.0.1:1', '--concurrency', '4'],
        /give --concurrency, --rpm and --tpm to "skillbridge worker"/,
      ],
      [['eval', ...SMALL, '--queue', 'redis://127.0.0.1:1'], /cannot reach Redis/],
      [['worker'], /--queue is required/],
      [['worker', '--queue', 'redis://127.0.0.1:1', 'extra'], /worker takes no positional arguments/],
    ];
    for (const [argv, msg] of cases) {
      // worker takes no --out (it would be refused before what is tested here).
      const r = await cli(...argv, ...(argv[0] === 'eval' ? ['--out', dir] : []));
      expect(r.code, argv.join(' ')).toBe(2);
      expect(r.err.trim().split('\n'), argv.join(' ')).toHaveLength(1);
      expect(r.err, argv.join(' ')).toMatch(msg);
    }
  }, 300_000);
});

describe('skillbridge sweep', () => {
  it('runs suites × models × workflows into one folder with a leaderboard, and a second run keeps what is finished', async () => {
    const dir = fresh();
    const file = join(dir, 'sweep.yaml');
    writeFileSync(
      file,
      [
        '# two models on one task family',
        'name: tiny',
        'suites: [alrm]',
        'models:',
        '  - oracle',
        '  - floor:noop',
        'workflows: [alrm/tap]',
        'filter: boxes/3',
        'concurrency: 3',
        '',
      ].join('\n'),
    );
    const out = join(dir, 'results');
    const first = await cli('sweep', file, '--out', out, '--json');
    expect(first.code).toBe(0);
    const body = JSON.parse(first.out) as {
      runs: Array<{ runId: string; action: string; cases: number }>;
      leaderboard: Array<{ model: string; score: number; cases: number }>;
      report: string;
    };
    expect(body.runs.map((r) => [r.runId.replace(/-[0-9a-f]{10}$/, '-HASH'), r.action, r.cases])).toEqual([
      ['tiny-alrm-oracle-alrm_tap-s1-HASH', 'ran', 6],
      ['tiny-alrm-floor_noop-alrm_tap-s1-HASH', 'ran', 6],
    ]);
    expect(body.leaderboard.map((b) => b.model)).toEqual(['oracle', 'floor:noop']);
    expect(body.leaderboard[0]!.score).toBe(1);
    expect(body.leaderboard[1]!.score).toBeLessThan(1);
    const again = await cli('sweep', file, '--out', out);
    expect(again.code).toBe(0);
    expect(again.out).toMatch(/2 runs \(2 kept from before\)/);
    // Baselines (the oracle, the floors) are listed after the models, marked and unranked.
    expect(again.out).toMatch(/– 1\.000 {2}oracle \(baseline\) · TaP · seed 1/);
  }, 300_000);

  it('names the field of a bad sweep file in one line', async () => {
    const dir = fresh();
    const file = join(dir, 'bad.json');
    writeFileSync(file, JSON.stringify({ name: 'x', suites: ['alrm'], models: [], trials: 2 }));
    const r = await cli('sweep', file);
    expect(r.code).toBe(2);
    expect(r.err.trim().split('\n')).toHaveLength(1);
    expect(r.err).toMatch(/sweep file .*bad\.json: models: /);
    const yml = join(dir, 'bad.yml');
    writeFileSync(yml, 'name: x\nsuites: [alrm\n');
    const y = await cli('sweep', yml);
    expect(y.code).toBe(2);
    expect(y.err).toMatch(/sweep file .*bad\.yml: cannot read it as YAML/);
    writeFileSync(file, JSON.stringify({ name: 'x', suites: ['nope'], models: ['oracle'] }));
    expect((await cli('sweep', file)).err).toMatch(/suites: unknown suite "nope"/);
  });
});
