// The queue-backed mode on the real engine (BullMQ on Redis): a suite's case ×
// trials go on the queue, three `skillbridge worker` processes run them, one is
// killed in the middle of a case, and the merged results database equals a
// single-process run case by case (scores, metrics, tool calls, world hashes at
// start and end). Needs `redis-server` (CI installs it); skips with a message
// where it is absent. The Redis asks for a password and jobs are signed with
// the queue's secret, as the recipe in docs/evaluation-at-scale.md has it.
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openResults } from '../../eval/results/index';
import { runEval } from '../../eval/runner/runner';
import { main } from './main';
import { type OracleServer, recordOracleReplies, startOracleServer } from '../../test/support/oracle-server';
import { TERMINAL, typedModel } from '../../test/support/host-refs';
import { type TestRedis, hasRedis, startRedis } from '../../test/support/redis-server';

const ROOT = path.resolve(import.meta.dirname, '../..');
const SUITE = { suite: 'rtw' };

const available = hasRedis();
if (!available) console.warn('queue.test.ts skipped: no redis-server on PATH (apt-get install redis-server; CI installs it)');

// The queue's shared secret, as the coordinator and every worker have it.
const SECRET = 'test-queue-secret-0123456789abcdef';

interface Worker {
  child: ChildProcess;
  log: string[];
  ready: Promise<void>;
}

function startWorker(url: string): Worker {
  const child = spawn(process.execPath, [path.join(ROOT, 'bin/skillbridge.js'), 'worker', '--queue', url, '--concurrency', '2'], {
    cwd: ROOT,
    env: { ...process.env, SKILLBRIDGE_FROM_SOURCES: '1', SKILLBRIDGE_QUEUE_LOCK_MS: '3000', SKILLBRIDGE_QUEUE_SECRET: SECRET },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const log: string[] = [];
  const ready = new Promise<void>((resolve, reject) => {
    let buf = '';
    child.stderr!.on('data', (d: Buffer) => {
      buf += d.toString();
      const lines = buf.split('\n');
      buf = lines.pop()!;
      for (const l of lines) {
        log.push(l);
        if (/^worker .* on redis:/.test(l)) resolve();
      }
    });
    child.once('exit', (code) => reject(new Error(`worker exited (${code}) before it was ready: ${log.join(' | ')}`)));
  });
  return { child, log, ready };
}

const rowsOf = (dir: string, runId: string) => {
  const db = openResults(dir, { mode: 'read' });
  const rows = db
    .results(runId)
    .map((x) => ({
      caseId: x.caseId,
      trial: x.trial,
      status: x.status,
      score: x.score,
      metrics: x.metrics,
      toolCalls: x.toolCalls,
      start: x.worldHashStart,
      end: x.worldHashEnd,
      trace: Boolean(x.tracePath && existsSync(path.resolve(dir, x.tracePath))),
    }))
    .sort((a, b) => (a.caseId < b.caseId ? -1 : 1));
  db.close();
  return rows;
};

describe.skipIf(!available)('eval --queue with three workers (BullMQ on Redis)', () => {
  let srv: OracleServer;
  let redis: TestRedis | undefined;
  let url: string;
  const workers: Worker[] = [];
  const savedSecret = process.env['SKILLBRIDGE_QUEUE_SECRET'];
  beforeAll(async () => {
    srv = await startOracleServer(await recordOracleReplies(SUITE), 400);
    // The recipe in docs/evaluation-at-scale.md: a Redis with a password, and the secret in the environment of every side.
    redis = await startRedis();
    url = redis.url;
    process.env['SKILLBRIDGE_QUEUE_SECRET'] = SECRET;
  }, 300_000);
  afterAll(async () => {
    for (const w of workers) w.child.kill('SIGKILL');
    await redis?.stop();
    await srv?.close();
    if (savedSecret === undefined) delete process.env['SKILLBRIDGE_QUEUE_SECRET'];
    else process.env['SKILLBRIDGE_QUEUE_SECRET'] = savedSecret;
  });

  it('a worker killed mid-case loses nothing: the merged run equals a single-process run case by case', async () => {
    const single = mkdtempSync(path.join(tmpdir(), 'skillbridge-queue-single-'));
    const one = await runEval({ suite: TERMINAL.suite(SUITE.suite), ...typedModel(srv.spec), outDir: single, scale: { concurrency: 4 } });
    expect(one.summary.errors).toBe(0);

    for (let i = 0; i < 3; i++) workers.push(startWorker(url));
    await Promise.all(workers.map((w) => w.ready));
    const victim = workers[0]!;
    let killedAt: string | undefined;
    const watch = setInterval(() => {
      const started = victim.log.find((l) => l.startsWith('start '));
      if (started && !killedAt) {
        killedAt = started.slice('start '.length).split(' ')[0];
        victim.child.kill('SIGKILL');
      }
    }, 20);

    const dir = mkdtempSync(path.join(tmpdir(), 'skillbridge-queue-'));
    let out = '';
    const code = await main(['eval', '--suite', 'rtw', '--model', srv.spec, '--queue', url, '--out', dir, '--json'], {
      out: (t) => (out += t),
      err: () => undefined,
    });
    clearInterval(watch);
    expect(code).toBe(0);
    const body = JSON.parse(out) as { runId: string; errors: number; cases: number };
    expect(body.errors).toBe(0);

    // The victim died holding a case it never finished; another worker ran it.
    expect(killedAt).toBeDefined();
    expect(victim.log.some((l) => l.startsWith(`done ${killedAt}`))).toBe(false);
    expect(workers.slice(1).some((w) => w.log.some((l) => l.startsWith(`done ${killedAt}`)))).toBe(true);

    const a = rowsOf(single, one.run.runId);
    const b = rowsOf(dir, body.runId);
    expect(b).toHaveLength(a.length);
    expect(b).toEqual(a);
    expect(b.every((r) => r.trace)).toBe(true);
  }, 600_000);
});

// A run's identity on the queue, with one worker in this process: a run id is its content.
describe.skipIf(!available)('a run id on the queue is its content', () => {
  let redis: TestRedis | undefined;
  const ac = new AbortController();
  let worker: Promise<unknown> | undefined;
  const savedSecret = process.env['SKILLBRIDGE_QUEUE_SECRET'];
  const fresh = () => mkdtempSync(path.join(tmpdir(), 'skillbridge-queue-id-'));
  const small = (model: string) => ['--suite', 'alrm', '--workflow', 'flat', '--off-protocol', '--filter', 'boxes/3', '--model', model];
  const cli = async (...argv: string[]) => {
    let out = '';
    let err = '';
    const code = await main(argv, { out: (t) => (out += `${t}\n`), err: (t) => (err += `${t}\n`) });
    return { code, out, err };
  };
  beforeAll(async () => {
    redis = await startRedis();
    process.env['SKILLBRIDGE_QUEUE_SECRET'] = SECRET;
    const { runQueueWorker } = await import('../../eval/scale/queue-worker');
    const { queueSecret } = await import('../../eval/scale/queue-protocol');
    const { queueDoor } = await import('../service/queue-door');
    const { HostPolicy } = await import('../service/host-policy');
    worker = runQueueWorker({
      url: redis.url,
      secret: queueSecret({ SKILLBRIDGE_QUEUE_SECRET: SECRET }),
      admit: queueDoor(new HostPolicy({ env: {}, scriptFiles: { dir: path.join(ROOT, 'examples/suites') } })),
      concurrency: 2,
      signal: ac.signal,
    });
  }, 120_000);
  afterAll(async () => {
    ac.abort();
    await worker?.catch(() => undefined);
    await redis?.stop();
    if (savedSecret === undefined) delete process.env['SKILLBRIDGE_QUEUE_SECRET'];
    else process.env['SKILLBRIDGE_QUEUE_SECRET'] = savedSecret;
  });

  it('a run id used again for another model is refused in one line naming the difference, not filled with the old results', async () => {
    const first = await cli('eval', ...small('floor:noop'), '--queue', redis!.url, '--run-id', 'reused-id', '--out', fresh(), '--json');
    expect(first.code, first.err).toBe(0);
    expect(JSON.parse(first.out)).toMatchObject({ score: 0, cases: 6 });
    // A new folder, the same run id, another model: the queue remembers what the id was.
    const again = await cli('eval', ...small('oracle'), '--queue', redis!.url, '--run-id', 'reused-id', '--out', fresh());
    expect(again.code).toBe(2);
    expect(again.err.trim().split('\n')).toHaveLength(1);
    expect(again.err).toMatch(/run id "reused-id" was used on this queue for other content \(--model floor:noop there, oracle here\)/);
    // Under another id the oracle runs and scores as it does.
    const other = await cli('eval', ...small('oracle'), '--queue', redis!.url, '--run-id', 'oracle-id', '--out', fresh(), '--json');
    expect(other.code, other.err).toBe(0);
    expect(JSON.parse(other.out)).toMatchObject({ score: 1, cases: 6 });
  }, 600_000);

  it('a queued run keeps its end states in the results folder: rescore scores every trial again', async () => {
    const dir = fresh();
    const run = await cli('eval', ...small('oracle'), '--queue', redis!.url, '--run-id', 'queued-rescore', '--out', dir, '--json');
    expect(run.code, run.err).toBe(0);
    const r = await cli('rescore', 'queued-rescore', '--db', dir, '--json');
    expect(r.code, r.out).toBe(0);
    expect(JSON.parse(r.out)).toMatchObject({ rescored: 6, failed: [], changed: [] });
  }, 300_000);

  it('a suite file runs through the queue (the job carries it) and its run is rescored', async () => {
    const dir = fresh();
    const suite = path.join(ROOT, 'examples/suites/fruits.json');
    // A floor the worker runs (a script would have to be in the worker's --scripts folder): scored, no errors.
    const run = await cli('eval', '--suite', suite, '--model', 'floor:noop', '--queue', redis!.url, '--out', dir, '--json');
    expect(run.code, run.out).toBe(0);
    const body = JSON.parse(run.out) as { runId: string };
    expect(body).toMatchObject({ suite: 'my-fruits', cases: 2, errors: 0, score: 0 });
    const r = await cli('rescore', body.runId, '--db', dir, '--json');
    expect(r.code, r.out).toBe(0);
    expect(JSON.parse(r.out)).toMatchObject({ rescored: 2, failed: [], changed: [] });
  }, 300_000);

  it('a run id a results folder holds is refused for a new run: naming the difference, or saying how to resume it', async () => {
    const dir = fresh();
    expect((await cli('eval', ...small('floor:noop'), '--run-id', 'local-id', '--out', dir, '--json')).code).toBe(0);
    const other = await cli('eval', ...small('oracle'), '--run-id', 'local-id', '--out', dir);
    expect(other.code).toBe(2);
    expect(other.err).toMatch(/already a run in .* with other content \(--model floor:noop there, oracle here\)/);
    const same = await cli('eval', ...small('floor:noop'), '--run-id', 'local-id', '--out', dir);
    expect(same.code).toBe(2);
    expect(same.err).toMatch(/continue it with --resume local-id/);
  }, 300_000);
});
