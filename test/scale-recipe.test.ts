// The recipe in docs/evaluation-at-scale.md, run as the page writes it: its
// sweep file and its `skillbridge` commands are read from the page and run
// through bin/skillbridge.js in a fresh folder, against a Redis of the test's own
// (redis-server, as CI installs it; skipped with a message where it is absent).
// The page's `sleep; kill` lines are a person's timing; here they happen on
// events instead: worker 1 is killed as it starts its first case, and the sweep
// gets SIGINT as its third run's first case starts. Then: every case × trial is
// recorded exactly once and row for row as a sweep without the queue records it,
// the second sweep keeps, resumes and runs what it should, every run is rescored
// (each row naming its scorer), and the report holds a transcript per case × trial.
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openResults } from '../eval/results/index';
import { scorerVersion } from '../eval/runner/cases';
import { loadSweep, sweepCells } from '../eval/scale/sweep';
import { transcriptName } from '../eval/report/transcript';
import { main } from '../hosts/cli/main';
import { commandsOf } from './support/doc-commands';
import { type TestRedis, hasRedis, startRedis } from './support/redis-server';

const ROOT = path.resolve(import.meta.dirname, '..');
const BIN = path.join(ROOT, 'bin/skillbridge.js');
const HEADING = '### Recipe: a sweep on the queue, a worker killed, resumed, rescored, reported';
const SECRET = 'recipe-test-queue-secret-0123456789abcdef';

const available = hasRedis();
if (!available) console.warn('scale-recipe.test.ts skipped: no redis-server on PATH (apt-get install redis-server; CI installs it)');

/** The recipe's section of the page: from its heading to the next heading of its level or above. */
function recipe(): string {
  const page = readFileSync(path.join(ROOT, 'docs/evaluation-at-scale.md'), 'utf8');
  const at = page.indexOf(`\n${HEADING}\n`);
  if (at < 0) throw new Error(`docs/evaluation-at-scale.md has no heading "${HEADING}"`);
  const rest = page.slice(at + HEADING.length + 2);
  const end = rest.search(/\n#{1,3} /);
  return end < 0 ? rest : rest.slice(0, end);
}

function fenced(md: string, lang: string): string {
  const m = new RegExp(`\`\`\`${lang}\\n([\\s\\S]*?)\`\`\``).exec(md);
  if (!m) throw new Error(`the recipe has no ${lang} block`);
  return m[1]!;
}

interface Proc {
  child: ChildProcess;
  lines: string[];
  out: () => string;
  exited: Promise<number | null>;
  onLine(f: (l: string) => void): void;
}

/** One of the page's commands as a process in the recipe's folder: stdout kept, stderr by line. */
function run(args: string[], cwd: string): Proc {
  const child = spawn(process.execPath, [BIN, ...args], {
    cwd,
    // A killed worker's case returns when its lock runs out: 3 s here instead of 30.
    env: { ...process.env, SKILLBRIDGE_QUEUE_SECRET: SECRET, SKILLBRIDGE_QUEUE_LOCK_MS: '3000' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: string[] = [];
  const watchers: Array<(l: string) => void> = [];
  let out = '';
  let buf = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => {
    buf += d.toString();
    const parts = buf.split('\n');
    buf = parts.pop()!;
    for (const l of parts) {
      lines.push(l);
      for (const w of watchers) w(l);
    }
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, lines, out: () => out, exited, onLine: (f) => watchers.push(f) };
}

/**
 * One of the page's commands in this process (as the command-line tests run them; quicker than a process each):
 * the words that name a path in the recipe's folder are taken relative to it, as the shell would.
 */
async function inProcess(args: string[], cwd: string): Promise<{ code: number; out: string; err: string }> {
  const inFolder = (w: string) =>
    !w.startsWith('-') && (existsSync(path.join(cwd, w)) || (existsSync(path.join(cwd, path.dirname(w), '.')) && w.includes('/')));
  let out = '';
  let err = '';
  const code = await main(
    args.map((w) => (inFolder(w) ? path.join(cwd, w) : w)),
    { out: (t) => (out += `${t}\n`), err: (t) => (err += `${t}\n`) },
  );
  return { code, out, err };
}

const ready = (p: Proc) =>
  new Promise<void>((resolve, reject) => {
    p.onLine((l) => /^worker .* on redis:/.test(l) && resolve());
    void p.exited.then((c) => reject(new Error(`worker exited (${c}) before it was ready: ${p.lines.join(' | ')}`)));
  });

/** A run's rows as the comparison sees them (what the case did and how it scored; not when or how long). */
function rowsOf(dir: string, runId: string) {
  const db = openResults(dir, { mode: 'read' });
  try {
    return db.results(runId).map((x) => ({
      caseId: x.caseId,
      trial: x.trial,
      status: x.status,
      score: x.score,
      success: x.success,
      metrics: x.metrics,
      toolCalls: x.toolCalls,
      start: x.worldHashStart,
      end: x.worldHashEnd,
      scorer: x.scorerVersion,
      trace: Boolean(x.tracePath && existsSync(path.resolve(dir, x.tracePath))),
    }));
  } finally {
    db.close();
  }
}

describe.skipIf(!available)('the recipe of docs/evaluation-at-scale.md: a sweep on the queue', () => {
  const procs: Proc[] = [];
  let redis: TestRedis | undefined;
  afterAll(async () => {
    for (const p of procs) p.child.kill('SIGKILL');
    await redis?.stop();
  });

  it('2 models × 3 seeds, 2 workers, one killed mid-case, stopped and resumed, rescored, reported with every transcript', async () => {
    const md = recipe();
    const sh = fenced(md, 'sh');
    // The page's story, which the events below stand for.
    expect(sh).toMatch(/^sleep \d+; kill -9 \$W1\b/m);
    expect(sh).toMatch(/^sleep \d+; kill -INT \$SWEEP\b/m);
    const cmds = commandsOf(md);
    expect(cmds.map((c) => c.args[0])).toEqual(['worker', 'worker', 'sweep', 'sweep', 'rescore', 'report']);
    type Cmd = (typeof cmds)[number];
    const [w1, w2, sweep1, sweep2, rescore, report] = cmds as [Cmd, Cmd, Cmd, Cmd, Cmd, Cmd];

    const dir = mkdtempSync(path.join(tmpdir(), 'skillbridge-recipe-'));
    writeFileSync(path.join(dir, 'sweep.yaml'), fenced(md, 'yaml'));
    const sweep = loadSweep(path.join(dir, 'sweep.yaml'));
    const cells = sweepCells(sweep);
    expect(new Set(cells.map((c) => c.model)).size).toBe(2);
    expect(new Set(cells.map((c) => c.seed)).size).toBe(3);

    redis = await startRedis();
    const url = redis.url;
    const args = (a: string[], vars: Record<string, string> = {}) =>
      a.map((w) => w.replace(/\$(\w+)/g, (m, name: string) => (name === 'QUEUE' ? url : (vars[name] ?? m))));

    // The two workers (the first one also brings the command-line bundle up to date).
    const worker1 = run(args(w1.args), dir);
    procs.push(worker1);
    await ready(worker1);
    const worker2 = run(args(w2.args), dir);
    procs.push(worker2);
    await ready(worker2);

    // The sweep in the background; worker 1 dies as it starts its first case; the sweep stops as its third run starts.
    const first = run(args(sweep1.args), dir);
    procs.push(first);
    let killed: { key: string; runId: string } | undefined;
    worker1.onLine((l) => {
      const m = /^start (\S+) \((\S+), try/.exec(l);
      if (m && !killed) {
        killed = { key: m[1]!, runId: m[2]! };
        worker1.child.kill('SIGKILL');
      }
    });
    let interrupted = false;
    for (const w of [worker1, worker2])
      w.onLine((l) => {
        if (!interrupted && l.startsWith('start ') && l.includes(`(${cells[2]!.runId}, try`)) {
          interrupted = true;
          first.child.kill('SIGINT');
        }
      });
    const firstCode = await first.exited;
    expect(interrupted, first.lines.join('\n')).toBe(true);
    expect(firstCode).not.toBe(0);
    expect(firstCode).not.toBe(70);
    {
      const db = openResults(dir + '/sweep-results', { mode: 'read' });
      expect(cells.map((c) => db.run(c.runId)?.status ?? 'none')).toEqual(['finished', 'finished', 'stopped', 'none', 'none', 'none']);
      db.close();
    }

    // The same command again resumes: its JSON goes to sweep.json as the page redirects it.
    expect(sweep2.line).toMatch(/> sweep\.json$/);
    const second = run(args(sweep2.args), dir);
    procs.push(second);
    expect(await second.exited, second.lines.join('\n')).toBe(0);
    writeFileSync(path.join(dir, 'sweep.json'), second.out());
    const body = JSON.parse(second.out()) as { runs: Array<{ runId: string; action: string; cases: number; errors: number }> };
    expect(body.runs.map((r) => [r.runId, r.action])).toEqual(cells.map((c, i) => [c.runId, i < 2 ? 'kept' : i === 2 ? 'resumed' : 'ran']));

    // Worker 1 died holding a case; worker 2 ran it.
    expect(killed).toBeDefined();
    expect(worker2.lines.some((l) => l.startsWith(`start ${killed!.key} (${killed!.runId}, try`))).toBe(true);

    // Every case × trial recorded exactly once, row for row as the same sweep without the queue records it.
    const local = mkdtempSync(path.join(tmpdir(), 'skillbridge-recipe-local-'));
    let localOut = '';
    const localCode = await main(['sweep', path.join(dir, 'sweep.yaml'), '--out', local, '--json'], {
      out: (t) => (localOut += t),
      err: () => undefined,
    });
    expect(localCode, localOut).toBe(0);
    const current = scorerVersion(sweep.suites[0]!);
    for (const c of cells) {
      const queued = rowsOf(path.join(dir, 'sweep-results'), c.runId);
      expect(queued).toHaveLength(sweep.sample! * sweep.trials);
      expect(new Set(queued.map((r) => `${r.caseId}#${r.trial}`)).size).toBe(queued.length);
      expect(queued.every((r) => r.status === 'ok' && r.trace && r.scorer === current)).toBe(true);
      expect(queued, c.runId).toEqual(rowsOf(local, c.runId));
    }

    // Every run rescored, as the page's loop does over sweep.json.
    expect(rescore.line).toMatch(/jq -r '\.runs\[\]\.runId' sweep\.json/);
    for (const r of body.runs) {
      const p = await inProcess(args(rescore.args, { run: r.runId }), dir);
      expect(p.code, p.err).toBe(0);
      expect(p.out).toMatch(new RegExp(`${r.runId} → \\S+: ${sweep.sample} trials scored again, 0 changed, 0 not rescorable`));
    }
    const db = openResults(path.join(dir, 'sweep-results'), { mode: 'read' });
    const runs = db.runs();
    const rescored = runs.filter((r) => r.args['rescoredFrom']);
    expect(rescored.map((r) => r.args['rescoredFrom']).sort()).toEqual(cells.map((c) => c.runId).sort());
    const rows = new Map(runs.map((r) => [r.runId, db.results(r.runId)]));
    db.close();
    for (const r of rescored) {
      expect(rows.get(r.runId)!.map((x) => [x.caseId, x.score, x.scorerVersion])).toEqual(
        rows.get(String(r.args['rescoredFrom']))!.map((x) => [x.caseId, x.score, current]),
      );
    }

    // The report: every run, and under it a transcript per case × trial with its conversation and verdict.
    const p = await inProcess(args(report.args), dir);
    expect(p.code, p.err).toBe(0);
    const html = readFileSync(path.join(dir, 'sweep-results/report.html'), 'utf8');
    const all = [...rows.entries()].flatMap(([runId, rs]) => rs.map((x) => ({ runId, x })));
    expect(all).toHaveLength(2 * cells.length * sweep.sample!);
    const ids = [...html.matchAll(/<details class="transcript" id="([^"]+)">/g)].map((m) => m[1]!);
    expect(ids).toHaveLength(all.length);
    for (const { runId, x } of all) {
      const id = transcriptName(runId, x.caseId, x.trial)
        .replace(/[^A-Za-z0-9_-]+/g, '-')
        .replace(/^-+|-+$/g, '');
      expect(ids.filter((i) => i === id || i.startsWith(`${id}-`)).length, id).toBeGreaterThanOrEqual(1);
    }
    const transcripts = html.split('<details class="transcript"').slice(1);
    // The oracle's cases show their tool calls and results; every verdict names its scorer.
    const oracleCalls = transcripts.filter((t) => t.includes('tx-msg tx-call') && t.includes('tx-msg tx-result-ok'));
    expect(oracleCalls.length).toBeGreaterThanOrEqual(all.length / 2);
    expect(transcripts.every((t) => t.includes(`<tr><th>scorer</th><td class="tx-wrap">${current}</td></tr>`))).toBe(true);
  }, 300_000);
});
