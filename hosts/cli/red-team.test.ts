// skillbridge red-team: bad input is one line and exit 2; a recorded run renders
// its table (--dry-run --from), writes it between the markers of docs/red-team.md (--md) and
// exits 1 when a figure not marked raw is over the line or a suite went untested;
// a small real run records a file that --from reads back.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { type RedTeamRecord, RECORD_FORMAT, TABLE_END, TABLE_START, readRecord, tableIn } from '../../eval/redteam/record';
import { main } from './main';

async function cli(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await main(argv, { out: (t) => (out += `${t}\n`), err: (t) => (err += `${t}\n`) });
  return { code, out, err };
}

const dir = mkdtempSync(join(tmpdir(), 'skillbridge-cli-red-team-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const metric = (id: string, noop: number, best: number, raw = false) => ({
  id,
  label: id,
  raw,
  noop,
  best,
  withGoals: best,
  goals: 0,
  name: best > noop ? 'first branch' : null,
  strategy: best > noop ? 'first branch (probe matched, act on noun); answer claim' : null,
  genome: null,
});

function record(metrics: ReturnType<typeof metric>[], strategies = 14): RedTeamRecord {
  return {
    format: RECORD_FORMAT,
    recordedAt: '2026-01-01T00:00:00.000Z',
    commit: null,
    seed: 1,
    budget: 100,
    suites: [{ suite: 'etp', cases: 24, of: 118, plays: 100, replayed: 3, seconds: 12, strategies, full: 2, errors: 0, metrics }],
  };
}

function file(name: string, r: RedTeamRecord): string {
  const f = join(dir, name);
  writeFileSync(f, JSON.stringify(r));
  return f;
}

describe('skillbridge red-team', () => {
  it.each([
    [['--suite', 'nope'], /--suite nope: the red team attacks the built-in suites/],
    [['--budget', 'x'], /--budget/],
    [['--budget', '0'], /--budget/],
    [['--sample', '3'], /--sample must be at least 8/],
    [['--minutes', '-1'], /--minutes/],
    [['raider'], /red-team takes no arguments, got "raider"/],
    [['--dry-run', '--budget', '5'], /red-team --dry-run does not take --budget/],
    [['--dry-run'], /--dry-run needs --from: it renders a recorded run/],
    [['--from', join(dir, 'missing.json')], /--from .*missing\.json: not a red-team record/],
    [['--rpm', '3'], /red-team does not take --rpm; it takes --suite/],
  ])('refuses %j in one line, exit 2', async (args, why) => {
    const r = await cli('red-team', ...args);
    expect(r.code).toBe(2);
    expect(r.out).toBe('');
    expect(r.err.trim().split('\n')).toHaveLength(1);
    expect(r.err).toMatch(why);
    expect(r.err).not.toMatch(/\n\s+at /);
  });

  it('answers bad input under --json with a JSON error', async () => {
    const r = await cli('red-team', '--suite', 'nope', '--json');
    expect(r.code).toBe(2);
    expect(JSON.parse(r.out)).toMatchObject({ error: { code: 'usage', message: expect.stringMatching(/--suite nope/) } });
  });

  it('refuses a record whose field is wrong, naming it', async () => {
    const f = join(dir, 'bad.json');
    writeFileSync(f, JSON.stringify({ ...record([]), seed: 'one' }));
    const r = await cli('red-team', '--dry-run', '--from', f);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/bad\.json: seed: .*write it again with "skillbridge red-team --out/);
  });

  it('renders a recorded run; a figure over the line exits 1 and is named, a raw one is marked and not held', async () => {
    const f = file('over.json', record([metric('headline', 0, 0.25), metric('chain_f1', 0, 0.7, true), metric('pass1', 0.1, 0.15)]));
    const r = await cli('red-team', '--dry-run', '--from', f);
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/\| etp \(24 of 118; 100 played, 3 replayed, 0\.2 min\) \| headline \| 0\.000 \| 0\.250 \| \*\*over\*\* \|/);
    expect(r.out).toMatch(/\| chain_f1 \(raw\) \| 0\.000 \| 0\.700 \| \*raw\* \|/);
    expect(r.out).toMatch(/\| pass1 \| 0\.100 \| 0\.150 \| holds \|/);
    expect(r.out).toMatch(/over the line \(1\):\n {2}etp headline 0\.250 \(floor:noop 0\.000\) by first branch/);
  });

  it('exits 0 when every figure holds, and 1 for a suite no strategy was tried on', async () => {
    const holds = await cli('red-team', '--dry-run', '--from', file('holds.json', record([metric('headline', 0, 0.05)])));
    expect(holds.code).toBe(0);
    expect(holds.out).toMatch(/the line holds on every suite/);
    const untested = await cli('red-team', '--dry-run', '--from', file('untested.json', record([metric('headline', 0, 0)], 0)));
    expect(untested.code).toBe(1);
    expect(untested.out).toMatch(/\*\*untested\*\*/);
    expect(untested.out).toMatch(/etp: untested \(floor:noop's 24 cases spent the budget of 100/);
  });

  it('--md writes the table between the markers, keeping the rest of the file', async () => {
    const md = join(dir, 'README.md');
    writeFileSync(md, `# Title\n\nbefore\n\n${TABLE_START}\nold table\n${TABLE_END}\n\nafter\n`);
    await cli('red-team', '--dry-run', '--from', file('md.json', record([metric('headline', 0, 0.05)])), '--md', md);
    const text = readFileSync(md, 'utf8');
    expect(text.startsWith('# Title\n\nbefore\n\n')).toBe(true);
    expect(text.endsWith('\n\nafter\n')).toBe(true);
    expect(tableIn(text)).toMatch(/^Red team \(`skillbridge red-team`, seed 1, budget 100/);
    expect(tableIn(text)).toMatch(/\| etp \(24 of 118;/);
    expect(text).not.toMatch(/old table/);
  });

  it('plays a small run on RTW and records it; --from reads it back', async () => {
    const out = join(dir, 'run.json');
    const r = await cli('red-team', '--suite', 'rtw', '--budget', '40', '--sample', '8', '--out', out, '--json');
    expect([0, 1]).toContain(r.code);
    const json = JSON.parse(r.out) as RedTeamRecord & { overTheLine: string[] };
    expect(json.suites).toHaveLength(1);
    expect(json.suites[0]).toMatchObject({ suite: 'rtw', cases: 8, of: 19 });
    expect(json.suites[0]!.plays).toBeLessThanOrEqual(40);
    expect(json.suites[0]!.strategies).toBeGreaterThan(0);
    expect(json.suites[0]!.metrics.map((m) => m.id)).toEqual(['headline', 'pass1']);
    expect(r.code).toBe(json.overTheLine.length ? 1 : 0);
    expect(readRecord(out).suites[0]!.suite).toBe('rtw');
  }, 120_000);
});
