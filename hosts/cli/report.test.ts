// skillbridge report end to end: in process through main(), and once through the
// bin script for the exit code and the single stderr line.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { syntheticAlrmRun } from '../../eval/report/synthetic';
import { openResults } from '../../eval/results/index';
import { main } from './main';

async function cli(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await main(argv, { out: (t) => (out += `${t}\n`), err: (t) => (err += `${t}\n`) });
  return { code, out, err };
}

let dir: string;
let tap: string;
let cap: string;
let cap2: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'skillbridge-cli-report-'));
  const db = openResults(dir, { durability: 'process' });
  tap = syntheticAlrmRun(db, { model: 'openai:gpt-4.1-mini', variant: 'TaP', skill: 0.9, latency: 6, trials: 2, errorEvery: 30 }).runId;
  cap = syntheticAlrmRun(db, { model: 'ollama:qwen3:8b', variant: 'CaP', skill: 0.8, latency: 12, trials: 1, seed: 9 }).runId;
  cap2 = syntheticAlrmRun(db, { model: 'ollama:qwen3:14b', variant: 'CaP', skill: 0.95, latency: 12, trials: 1, seed: 10 }).runId;
  db.close();
});

describe('skillbridge report', () => {
  it('writes HTML, JUnit and CSV for run ids in --db and prints the summaries as JSON', async () => {
    const out = mkdtempSync(join(tmpdir(), 'skillbridge-cli-report-out-'));
    const files = { html: join(out, 'r.html'), junit: join(out, 'junit.xml'), csv: join(out, 'r.csv') };
    const r = await cli('report', tap, cap, '--db', dir, '--out', files.html, '--junit', files.junit, '--csv', files.csv, '--json');
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    const body = JSON.parse(r.out) as { runs: Array<Record<string, unknown>>; html: string; junit: string; csv: string };
    expect(body.runs.map((s) => s['runId'])).toEqual([tap, cap]);
    for (const s of body.runs) {
      expect(Object.keys(s)).toEqual(
        expect.arrayContaining(['suite', 'model', 'workflow', 'runId', 'db', 'cases', 'errors', 'score', 'metrics', 'seconds']),
      );
      expect(s['suite']).toBe('alrm');
      expect(s['cases']).toBe(54);
      expect(typeof s['score']).toBe('number');
    }
    expect(body.runs[0]!['errors']).toBeGreaterThan(0);
    expect((body.runs[0]!['metrics'] as Record<string, number>)['pass^2']).toBeTypeOf('number');
    expect(body).toMatchObject(files);
    expect(readFileSync(files.html, 'utf8')).toContain('Per category (%)');
    expect(readFileSync(files.junit, 'utf8')).toMatch(/^<\?xml/);
    expect(readFileSync(files.csv, 'utf8').split('\r\n')[0]).toMatch(/^run_id,suite,model/);
  });

  it('takes a results folder as every run in it, and writes the HTML beside it by default', async () => {
    const r = await cli('report', dir);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(
      new RegExp(
        `alrm {2}${tap} {2}TaP · openai:gpt-4\\.1-mini: score \\d\\.\\d\\d \\[\\d\\.\\d\\d, \\d\\.\\d\\d\\] over 54 cases, \\d+ errors \\(commonest: model-server ×\\d+: model server closed the connection \\(ECONNRESET\\)\\), pass\\^2`,
      ),
    );
    expect(r.out).toContain(`wrote report: ${join(dir, 'report.html')}`);
    expect(existsSync(join(dir, 'report.html'))).toBe(true);
  });

  it('answers bad input with one line and exit 2, or a JSON error under --json', async () => {
    const corrupt = mkdtempSync(join(tmpdir(), 'skillbridge-cli-report-bad-'));
    writeFileSync(join(corrupt, 'results.db'), 'not sqlite at all '.repeat(100));
    const cases: Array<[string[], string, RegExp]> = [
      [['report'], 'usage', /give one or more runs/],
      [['report', 'no-such-run', '--db', dir], 'unknown-run', /no run "no-such-run" in .*results\.db \(runs there: /],
      [['report', 'some-run', '--db', join(dir, 'nowhere')], 'results-missing', /nowhere\/results\.db: no results database here/],
      [['report', corrupt], 'results-corrupt', /results\.db is not a readable skillbridge results database .*move it aside/],
      [['report', dir, '--out', join(dir, 'x.pdf')], 'usage', /--out must name an \.html file/],
      [['report', tap, cap, '--db', dir, '--diff'], 'not-comparable', /are of different case sets: 54 case × trials missing from /],
      [['report', tap, '--db', dir, '--diff'], 'usage', /--diff compares exactly two runs, got 1/],
      [['report', '--leaderboard', join(dir, 'nowhere')], 'results-missing', /no results database here/],
    ];
    for (const [argv, code, msg] of cases) {
      const r = await cli(...argv);
      expect(r.code, argv.join(' ')).toBe(2);
      expect(r.err.trim().split('\n'), argv.join(' ')).toHaveLength(1);
      expect(r.err).toMatch(msg);
      const j = await cli(...argv, '--json');
      expect(j.code).toBe(2);
      expect(JSON.parse(j.out)).toEqual({ error: { code, message: expect.stringMatching(msg) } });
    }
  });

  it('compares two runs of one suite case by case: flips, McNemar, score deltas, in the terminal, JSON, HTML and markdown', async () => {
    const out = mkdtempSync(join(tmpdir(), 'skillbridge-cli-report-diff-'));
    const md = join(out, 'r.md');
    const r = await cli('report', cap, cap2, '--db', dir, '--out', join(out, 'r.html'), '--md', md);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(new RegExp(`alrm: ${cap2} vs ${cap} over 54 paired case × trials`));
    expect(r.out).toMatch(/flips: \d+ fail→pass, \d+ pass→fail; McNemar exact p = [\d.e-]+/);
    expect(r.out).toMatch(/(pass→fail|fail→pass) {2}\S+#1 {2}\d\.\d{3} → \d\.\d{3}/);
    expect(readFileSync(join(out, 'r.html'), 'utf8')).toContain(`Per-case comparison: ${cap2} vs ${cap}`);
    expect(readFileSync(md, 'utf8')).toMatch(/\| alrm \| .* \| 54 \| \d+ \| \d\.\d{3} \[\d\.\d{3}, \d\.\d{3}\] \|/);
    const j = await cli('report', cap, cap2, '--db', dir, '--out', join(out, 'r.html'), '--json');
    const body = JSON.parse(j.out) as { comparison: { paired: number; flipped: unknown[]; mcnemar: { p: number }; cases: unknown[] } };
    expect(body.comparison.paired).toBe(54);
    expect(body.comparison.cases).toHaveLength(54);
    expect(body.comparison.flipped.length).toBeGreaterThan(0);
    // Runs of one suite but other trials: the report is still written, with a note instead of a diff.
    const other = await cli('report', tap, cap, '--db', dir, '--out', join(out, 'r2.html'));
    expect(other.code).toBe(0);
    expect(other.out).toMatch(/no per-case diff: runs .* are of different case sets/);
  });

  it('ranks every run of a results folder in one leaderboard table', async () => {
    const r = await cli('report', '--leaderboard', dir);
    expect(r.code).toBe(0);
    const lines = r.out.trim().split('\n');
    expect(lines[0]).toMatch(
      /^suite +model +workflow +seed +score \[95 %\] +pass\^k \[95 %\] +cases +trials +errors +tokens +cost \$ +run$/,
    );
    expect(lines).toHaveLength(4);
    expect(lines[1]).toContain('ollama:qwen3:14b');
    for (const l of lines.slice(1))
      expect(l).toMatch(
        /^alrm +\S+ +\S+ +\d+ +\d\.\d{3} \[\d\.\d{3}, \d\.\d{3}\] +(?:—|\^2 \d\.\d{3} \[\d\.\d{3}, \d\.\d{3}\]) +54 +[12] /,
      );
    const j = await cli('report', '--leaderboard', dir, '--json');
    const body = JSON.parse(j.out) as { leaderboard: Array<{ runId: string; interval: { method: string } }> };
    expect(body.leaderboard.map((x) => x.runId)).toContain(tap);
  });

  it('runs as an installed bin script: a missing database is one line on stderr and exit 2', () => {
    const r = spawnSync(
      process.execPath,
      [join(import.meta.dirname, '../../bin/skillbridge.js'), 'report', 'r1', '--db', join(dir, 'nowhere')],
      {
        encoding: 'utf8',
        timeout: 60_000,
      },
    );
    expect(r.status).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/^skillbridge: .*no results database here/);
  });
});
