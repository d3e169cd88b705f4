// bench eval --scale: cases per minute against cases in flight, with a model that
// takes a set time per call. A local OpenAI-compatible server answers with the
// oracle's replies (recorded first, in this process) after LATENCY ms; each point
// is a fresh `skillbridge eval` process (so its peak memory is its own) at
// --concurrency 1, 8, 32, 128, then the queue mode with 1 and 3 workers (BullMQ
// on a Redis this benchmark starts, where redis-server is installed).
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import { cpus, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { openResults } from '../../eval/results/index';
import { recordOracleReplies, startOracleServer } from '../../test/support/oracle-server';
import { SKILLBRIDGE_BIN, runNode } from './processes';

export interface ScalePoint {
  mode: 'process' | 'queue';
  concurrency: number;
  workers: number;
  cases: number;
  seconds: number;
  casesPerMinute: number;
  score: number | null;
  errors: number;
  /** Case × trials whose turn ended at its time limit (a miss the machine, not the model, may have caused). */
  timeLimited: number;
  /** Peak RSS of the process running the cases (queue: the workers' sum). */
  rssPeakMb: number | null;
  /** (peak RSS at this concurrency − at concurrency 1) / (concurrency − 1). */
  mbPerExtraCase: number | null;
}

export interface ScaleBenchResult {
  suite: string;
  latencyMs: number;
  cpus: number;
  load: number;
  points: ScalePoint[];
  /** Why the queue points are missing, where they are. */
  queueSkipped?: string;
}

const POINTS = [1, 8, 32, 128];

/** Enough case × trials that the concurrency is reached twice over: a sample, then trials of the whole suite. */
function sizing(concurrency: number, suiteCases: number): string[] {
  const want = Math.max(4, 2 * concurrency);
  if (want <= suiteCases) return ['--sample', String(want)];
  return ['--trials', String(Math.ceil(want / suiteCases))];
}

async function run(args: string[]): Promise<{ code: number; out: string; err: string; rssMb: number | null }> {
  const r = await runNode([SKILLBRIDGE_BIN, ...args]);
  return { code: r.code ?? 1, out: r.stdout, err: r.stderr, rssMb: Number.isFinite(r.rssMB) ? Math.round(r.rssMB) : null };
}

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

async function startRedis(): Promise<{ url: string; child: ChildProcess } | string> {
  try {
    execFileSync('redis-server', ['--version'], { stdio: 'ignore' });
  } catch {
    return 'no redis-server on PATH (apt-get install redis-server)';
  }
  const port = await freePort();
  // As the README's recipe: a password on Redis, and the queue's secret shared by the coordinator and the workers (inherited).
  const password = randomBytes(12).toString('hex');
  process.env['SKILLBRIDGE_QUEUE_SECRET'] ??= randomBytes(32).toString('hex');
  const child = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--requirepass', password],
    { stdio: 'ignore' },
  );
  for (let i = 0; i < 100; i++) {
    const ok = await new Promise<boolean>((resolve) => {
      const s = connect(port, '127.0.0.1');
      s.once('connect', () => (s.end(), resolve(true)));
      s.once('error', () => resolve(false));
    });
    if (ok) return { url: `redis://:${password}@127.0.0.1:${port}`, child };
    await new Promise((r) => setTimeout(r, 100));
  }
  child.kill('SIGKILL');
  return 'redis-server did not start';
}

/** A point's figures; `cases` counts case × trials run (eval --json's `cases` counts distinct cases). */
function parseEval(
  r: { out: string; rssMb: number | null },
  dir: string,
): { cases: number; seconds: number; score: number | null; errors: number; rss: number | null; timeLimited: number } {
  const json = JSON.parse(r.out) as { runId: string; seconds: number; score: number | null; errors: number };
  const db = openResults(dir, { mode: 'read' });
  const rows = db.results(json.runId).filter((x) => x.status !== 'stopped');
  db.close();
  const timeLimited = rows.filter((x) => x.tracePath && endedByTimeLimit(path.resolve(dir, x.tracePath))).length;
  return { cases: rows.length, seconds: json.seconds, score: json.score, errors: json.errors, rss: r.rssMb, timeLimited };
}

/** Whether a case's turn ended at its time limit (its trace's last record says so). */
function endedByTimeLimit(trace: string): boolean {
  try {
    const lines = readFileSync(trace, 'utf8').trimEnd().split('\n');
    return lines.some((l) => l.includes('"type":"stop"') && l.includes('"reason":"time_limit"'));
  } catch {
    return false;
  }
}

export async function benchEvalScale(o: {
  suite?: string;
  latencyMs?: number;
  concurrency?: number[];
  workers?: number[];
  onProgress?: (line: string) => void;
}): Promise<ScaleBenchResult> {
  const suite = o.suite ?? 'rtw';
  const latencyMs = o.latencyMs ?? 2000;
  const log = o.onProgress ?? (() => undefined);
  log(`recording the oracle's replies on ${suite}…`);
  const replies = await recordOracleReplies({ suite });
  const { loadCases } = await import('../../eval/runner/cases');
  const { findSuite } = await import('../../eval/suites/index');
  const suiteCases = (await loadCases(findSuite(suite)!, {})).cases.length;
  const srv = await startOracleServer(replies, latencyMs);
  const points: ScalePoint[] = [];
  const base = ['eval', '--suite', suite, '--model', srv.spec, '--json'];
  const dirs: string[] = [];
  const fresh = () => {
    const d = mkdtempSync(path.join(tmpdir(), 'skillbridge-bench-scale-'));
    dirs.push(d);
    return d;
  };
  let queueSkipped: string | undefined;
  try {
    let rss1: number | null = null;
    for (const c of o.concurrency ?? POINTS) {
      log(`--concurrency ${c}…`);
      const dir = fresh();
      const r = await run([...base, ...sizing(c, suiteCases), '--concurrency', String(c), '--out', dir]);
      // Exit 3: the run went through but some cases errored; the point reports them.
      if (r.code !== 0 && r.code !== 3) throw new Error(`eval --concurrency ${c} failed (${r.code}): ${r.err.trim().split('\n').at(-1)}`);
      const e = parseEval(r, dir);
      if (c === 1) rss1 = e.rss;
      points.push({
        mode: 'process',
        concurrency: c,
        workers: 1,
        cases: e.cases,
        seconds: e.seconds,
        casesPerMinute: Math.round((e.cases / e.seconds) * 60 * 10) / 10,
        score: e.score,
        errors: e.errors,
        timeLimited: e.timeLimited,
        rssPeakMb: e.rss,
        mbPerExtraCase: c > 1 && rss1 !== null && e.rss !== null ? Math.round(((e.rss - rss1) / (c - 1)) * 10) / 10 : null,
      });
    }
    const redis = await startRedis();
    if (typeof redis === 'string') queueSkipped = redis;
    else {
      try {
        const c = 32;
        for (const n of o.workers ?? [1, 3]) {
          log(`queue: ${n} worker${n > 1 ? 's' : ''} × --concurrency ${c}…`);
          const workers = Array.from({ length: n }, () =>
            spawn(process.execPath, [SKILLBRIDGE_BIN, 'worker', '--queue', redis.url, '--concurrency', String(c), '--json'], {
              stdio: ['ignore', 'pipe', 'pipe'],
            }),
          );
          const outs = workers.map((w) => {
            let s = '';
            let e = '';
            w.stdout!.on('data', (d: Buffer) => (s += d.toString()));
            w.stderr!.on('data', (d: Buffer) => (e += d.toString()));
            return { out: () => s, err: () => e, exited: new Promise<void>((r) => w.on('exit', () => r())) };
          });
          // Workers are ready when they say so.
          for (let i = 0; i < 600 && !outs.every((x) => /worker .* on redis:/.test(x.err())); i++)
            await new Promise((r) => setTimeout(r, 100));
          const dir = fresh();
          const r = await run([...base, ...sizing(c * n, suiteCases), '--queue', redis.url, '--out', dir]);
          for (const w of workers) w.kill('SIGINT');
          await Promise.all(outs.map((x) => x.exited));
          if (r.code !== 0 && r.code !== 3)
            throw new Error(`eval --queue with ${n} workers failed (${r.code}): ${r.err.trim().split('\n').at(-1)}`);
          const e = parseEval(r, dir);
          const rss = outs.map((x) => {
            try {
              return (JSON.parse(x.out()) as { rssPeakMb: number }).rssPeakMb;
            } catch {
              return NaN;
            }
          });
          const sum = rss.every(Number.isFinite) ? rss.reduce((a, b) => a + b, 0) : null;
          points.push({
            mode: 'queue',
            concurrency: c,
            workers: n,
            cases: e.cases,
            seconds: e.seconds,
            casesPerMinute: Math.round((e.cases / e.seconds) * 60 * 10) / 10,
            score: e.score,
            errors: e.errors,
            timeLimited: e.timeLimited,
            rssPeakMb: sum,
            mbPerExtraCase: null,
          });
        }
      } finally {
        redis.child.kill('SIGKILL');
      }
    }
  } finally {
    await srv.close();
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  }
  return { suite, latencyMs, cpus: cpus().length, load: loadavg()[0] ?? 0, points, ...(queueSkipped ? { queueSkipped } : {}) };
}
