// skillbridge rescore: a small eval scored again from its recorded end states
// reproduces every recorded score and metric exactly; the scores come from the
// recorded end state, which must be the trial's own (its case, its recorded end
// world, the run's scorer reproducing the recorded score), or the rescore is
// refused naming the case; a trial without an end state is recorded as an error,
// never with its old score.
import { copyFileSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { readEndState, writeEndState } from '../../eval/core/end-state';
import { openResults } from '../../eval/results/index';
import { scorerVersion } from '../../eval/runner/cases';
import { main } from './main';

async function cli(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await main(argv, { out: (t) => (out += `${t}\n`), err: (t) => (err += `${t}\n`) });
  return { code, out, err };
}

/** Six ALRM cases (boxes, task 3) in ALRM's tool-as-policy workflow. */
const SMALL = ['--suite', 'alrm', '--workflow', 'alrm/tap', '--filter', 'boxes/3'];

let dir: string;
let oracle: string;
let noop: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'skillbridge-cli-rescore-'));
  const a = await cli('eval', ...SMALL, '--model', 'oracle', '--out', dir, '--json');
  expect(a.code, a.err).toBe(0);
  oracle = (JSON.parse(a.out) as { runId: string }).runId;
  const b = await cli('eval', ...SMALL, '--model', 'floor:noop', '--out', dir, '--json');
  expect(b.code, b.err).toBe(0);
  noop = (JSON.parse(b.out) as { runId: string }).runId;
}, 300_000);

interface Rescored {
  runId: string | null;
  rescored: number;
  changed: Array<{ caseId: string; before: { score: number }; after: { score: number } }>;
  failed: Array<{ caseId: string; error: string }>;
}

describe('skillbridge rescore', () => {
  it('reproduces the recorded scores of an unchanged scorer exactly, case by case, in a new run', async () => {
    for (const run of [oracle, noop]) {
      const r = await cli('rescore', run, '--db', dir, '--json');
      expect(r.code, r.err).toBe(0);
      const body = JSON.parse(r.out) as Rescored;
      expect(body).toMatchObject({ rescored: 6, changed: [], failed: [] });
      const db = openResults(dir, { mode: 'read' });
      const before = db.results(run);
      const after = db.results(body.runId!);
      expect(db.requireRun(body.runId!).args['rescoredFrom']).toBe(run);
      db.close();
      const pick = (x: (typeof before)[number]) => [x.caseId, x.trial, x.status, x.score, x.success, x.metrics, x.failureClass];
      expect(after.map(pick)).toEqual(before.map(pick));
    }
    const text = await cli('rescore', oracle, '--db', dir, '--dry-run');
    expect(text.out).toMatch(
      new RegExp(`^alrm {2}${oracle} \\(dry run\\): 6 trials scored again, 0 changed, 0 not rescorable, 0 copied as recorded\\n$`),
    );
  });

  it('refuses, naming the case, end states that are not its own: copied from another run, another case, or altered', async () => {
    const to = join(dir, 'traces', noop);
    const saved = mkdtempSync(join(tmpdir(), 'skillbridge-cli-rescore-swap-'));
    const ends = readdirSync(to).filter((x) => x.endsWith('.end.json.gz'));
    for (const f of ends) copyFileSync(join(to, f), join(saved, f));
    const restore = () => {
      for (const f of ends) copyFileSync(join(saved, f), join(to, f));
    };
    const refused = async (run: string, why: RegExp) => {
      const runs = () => {
        const db = openResults(dir, { mode: 'read' });
        const n = db.runs().length;
        db.close();
        return n;
      };
      const before = runs();
      const r = await cli('rescore', run, '--db', dir, '--json');
      expect(r.code, r.out).toBe(2);
      const body = JSON.parse(r.out) as { error: { code: string; message: string } };
      expect(body.error.code).toBe('not-rescorable');
      expect(body.error.message).toMatch(/^case "boxes\/3\/[A-Z]+\d?" trial 1: /);
      expect(body.error.message).toMatch(why);
      // Nothing recorded: a refused rescore leaves no run behind.
      expect(runs()).toBe(before);
      const text = await cli('rescore', run, '--db', dir);
      expect(text.code).toBe(2);
      expect(text.err.trim().split('\n')).toHaveLength(1);
    };
    try {
      // The oracle's end states over the floor's: their worlds are not the ones the floor's trials recorded.
      const from = join(dir, 'traces', oracle);
      for (const f of readdirSync(from).filter((x) => x.endsWith('.end.json.gz'))) copyFileSync(join(from, f), join(to, f));
      await refused(noop, /world hashes to [0-9a-f]{16}, the run recorded [0-9a-f]{16}/);
      restore();
      // Another case's end state of the same run.
      copyFileSync(join(saved, ends[1]!), join(to, ends[0]!));
      await refused(noop, /the end state is of case "boxes\/3\/[A-Z]+\d?" trial 1, not this trial's/);
      restore();
      // An end state written under another scorer version than the run recorded.
      const other = readEndState(join(to, ends[0]!));
      writeEndState(join(to, ends[0]!), { ...other, scorer: '0123456789abcdef' });
      await refused(noop, /the end state was written under scorer 0123456789abcdef, the run records scorer [0-9a-f]{16}/);
      restore();
      // The oracle's own end state with its world and tool calls kept but a pick made on another object: the run's
      // own scorer no longer gives the score it recorded.
      const oracleEnds = readdirSync(from).filter((x) => x.endsWith('.end.json.gz'));
      const keep = mkdtempSync(join(tmpdir(), 'skillbridge-cli-rescore-alter-'));
      copyFileSync(join(from, oracleEnds[0]!), join(keep, oracleEnds[0]!));
      try {
        const end = readEndState(join(from, oracleEnds[0]!));
        const altered = end.events.map((e) =>
          e.type === 'tool_end' && /pick/.test(e.name) ? { ...e, data: { data: { object: 'trash_can_9' } } } : e,
        ) as typeof end.events;
        writeEndState(join(from, oracleEnds[0]!), { ...end, events: altered });
        await refused(oracle, /the run's own scorer \([0-9a-f]{16}\) scores this end state 0, the run recorded 1/);
      } finally {
        copyFileSync(join(keep, oracleEnds[0]!), join(from, oracleEnds[0]!));
      }
    } finally {
      restore();
    }
  });

  it('a rescore with a newer scorer shows per row which scorer judged it, in the results and the report', async () => {
    const current = scorerVersion('alrm');
    // The oracle's run as an older scorer would have recorded it: its run and every row name scorer "old-scorer"
    // (its end states were written under the current one).
    const old = `${oracle}-old-scorer`;
    const w = openResults(dir);
    try {
      const { startedAt: _s, finishedAt: _f, status: _st, note: _n, ...run } = w.requireRun(oracle);
      w.startRun({ ...run, runId: old, args: { ...run.args, scorer: 'old-scorer', endStateScorer: current } });
      for (const x of w.results(oracle))
        w.record(old, {
          ...x,
          errorKind: null,
          tracePath: x.tracePath && join(dir, x.tracePath),
          metrics: x.metrics,
          success: x.success ?? undefined,
          scorerVersion: 'old-scorer',
        });
      w.finishRun(old, 'finished');
    } finally {
      w.close();
    }
    const r = await cli('rescore', old, '--db', dir, '--json');
    expect(r.code, r.err).toBe(0);
    const body = JSON.parse(r.out) as Rescored;
    expect(body).toMatchObject({ rescored: 6, failed: [] });
    const db = openResults(dir, { mode: 'read' });
    const before = db.results(old);
    const after = db.results(body.runId!);
    const first = db.results(oracle);
    db.close();
    expect(before.map((x) => x.scorerVersion)).toEqual(Array(6).fill('old-scorer'));
    expect(after.map((x) => x.scorerVersion)).toEqual(Array(6).fill(current));
    // A run scored as it ran records the scorer that scored it, row by row.
    expect(first.map((x) => x.scorerVersion)).toEqual(Array(6).fill(current));
    // The report's transcripts say which scorer judged each row.
    const html = join(dir, 'scorers.html');
    expect((await cli('report', old, body.runId!, '--db', dir, '--out', html)).code).toBe(0);
    const page = readFileSync(html, 'utf8');
    const judged = [...page.matchAll(/<tr><th>scorer<\/th><td class="tx-wrap">([^<]*)<\/td><\/tr>/g)].map((m) => m[1]);
    expect(judged.filter((v) => v === 'old-scorer')).toHaveLength(6);
    expect(judged.filter((v) => v === current)).toHaveLength(6);
  });

  it('records a trial without an end state as an error naming why, and answers bad input with one line and exit 2', async () => {
    const to = join(dir, 'traces', noop);
    const one = readdirSync(to).find((x) => x.endsWith('.end.json.gz'))!;
    const saved = join(mkdtempSync(join(tmpdir(), 'skillbridge-cli-rescore-one-')), one);
    copyFileSync(join(to, one), saved);
    rmSync(join(to, one));
    try {
      const r = await cli('rescore', noop, '--db', dir, '--json');
      const body = JSON.parse(r.out) as Rescored;
      expect(body.failed).toHaveLength(1);
      // Where it should be and why it is not: the run's results did not keep it (no claim about when the run was made).
      expect(body.failed[0]!.error).toMatch(
        /^not rescored: no end state at traces\/.*\.end\.json\.gz beside its trace: it was not kept with the run's results/,
      );
      const db = openResults(dir, { mode: 'read' });
      const rows = db.results(body.runId!).filter((x) => x.status === 'error');
      db.close();
      expect(rows).toHaveLength(1);
      expect(rows[0]!.score).toBeNull();
    } finally {
      copyFileSync(saved, join(to, one));
    }
    for (const [argv, code, msg] of [
      [['rescore'], 'usage', /give one run/],
      [['rescore', 'nope', '--db', dir], 'unknown-run', /no run "nope"/],
    ] as const) {
      const r = await cli(...argv);
      expect(r.code).toBe(2);
      expect(r.err.trim().split('\n')).toHaveLength(1);
      expect(r.err).toMatch(msg);
      const j = await cli(...argv, '--json');
      expect(JSON.parse(j.out)).toEqual({ error: { code, message: expect.stringMatching(msg) } });
    }
  });
});
