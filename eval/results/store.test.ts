// The results database: round trip, resume, crash safety and every way a file can be bad.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import sqlite from 'node-sqlite3-wasm';
import { describe, expect, it } from 'vitest';
import { ResultsError } from './errors';
import { doneKey } from './records';
import { migrate, openResults } from './store';
import { SCHEMA_VERSION } from './schema';

function folder(): string {
  return mkdtempSync(join(tmpdir(), 'skillbridge-results-'));
}

function errorOf(fn: () => unknown): ResultsError {
  try {
    fn();
  } catch (e) {
    if (e instanceof ResultsError) return e;
    throw e;
  }
  throw new Error('expected a ResultsError');
}

const RUN = { suite: 'alrm', model: 'ollama:qwen3:8b', workflow: 'alrm/tap', variant: 'TaP', seed: 7, trials: 2, args: { jobs: 2 } };

describe('results database', () => {
  it('round-trips runs and results through the file, with trace paths relative to the folder', () => {
    const dir = folder();
    const db = openResults(dir);
    const run = db.startRun({ ...RUN, runId: 'r1', commit: 'abc123+dirty' });
    expect(run).toMatchObject({ runId: 'r1', status: 'running', finishedAt: null, commit: 'abc123+dirty', trials: 2, args: { jobs: 2 } });
    expect(run.host.node).toBe(process.version);
    db.record('r1', {
      caseId: 'fruits/1/CAN',
      trial: 1,
      status: 'ok',
      score: 1,
      metrics: { alrm_score: 2, judged: true },
      labels: { scene: 'fruits', category: 'CAN' },
      durationMs: 1234.5,
      modelMs: 1000,
      tokensIn: 900,
      tokensOut: 120,
      costUsd: 0.0012,
      toolCalls: 6,
      tracePath: join(dir, 'traces', 'fruits-1-CAN-1.jsonl'),
      worldHashStart: 'h0',
      worldHashEnd: 'h1',
    });
    db.record('r1', { caseId: 'fruits/1/LEX', trial: 1, status: 'ok', score: 0.5, metrics: { alrm_score: 1 }, failureClass: 'partial' });
    db.record('r1', {
      caseId: 'fruits/1/SYN',
      trial: 1,
      status: 'error',
      error: 'model server closed the connection',
      errorKind: 'model-server',
    });
    db.record('r1', { caseId: 'fruits/1/SEM', trial: 1, status: 'stopped' });
    db.finishRun('r1', 'stopped', 'Ctrl-C');
    db.close();

    const back = openResults(dir, { mode: 'read' });
    expect(back.runs().map((r) => [r.runId, r.status, r.note])).toEqual([['r1', 'stopped', 'Ctrl-C']]);
    const results = back.results('r1');
    expect(results.map((r) => [r.caseId, r.status, r.success, r.score])).toEqual([
      ['fruits/1/CAN', 'ok', true, 1],
      ['fruits/1/LEX', 'ok', false, 0.5],
      ['fruits/1/SEM', 'stopped', null, null],
      ['fruits/1/SYN', 'error', null, null],
    ]);
    expect(results[0]).toMatchObject({
      metrics: { alrm_score: 2, judged: 1 },
      labels: { scene: 'fruits', category: 'CAN' },
      durationMs: 1234.5,
      tokensIn: 900,
      costUsd: 0.0012,
      tracePath: 'traces/fruits-1-CAN-1.jsonl',
      worldHashEnd: 'h1',
    });
    expect(results[3]).toMatchObject({ error: 'model server closed the connection', errorKind: 'model-server' });
    expect(results[0]!.errorKind).toBeNull();
    back.close();
  });

  it('answers the resume query: only scored pairs are done; errored and stopped ones run again and replace their row', () => {
    const db = openResults(folder());
    db.startRun({ ...RUN, runId: 'r' });
    db.record('r', { caseId: 'a', trial: 1, status: 'ok', score: 1 });
    db.record('r', { caseId: 'a', trial: 2, status: 'error', error: 'crashed', errorKind: 'crash' });
    db.record('r', { caseId: 'b', trial: 1, status: 'stopped' });
    expect(db.done('r')).toEqual(new Set([doneKey('a', 1)]));
    db.finishRun('r', 'stopped');
    expect(db.resumeRun('r')).toMatchObject({ status: 'running', finishedAt: null });
    db.record('r', { caseId: 'b', trial: 1, status: 'ok', score: 0 });
    expect(db.done('r').has(doneKey('b', 1))).toBe(true);
    expect(db.results('r').filter((x) => x.caseId === 'b')).toHaveLength(1);
    expect(db.finishRun('r', 'finished').status).toBe('finished');
    db.close();
  });

  it('rejects bad records and unknown runs with one line naming the field or the runs there', () => {
    const db = openResults(folder());
    db.startRun({ ...RUN, runId: 'known' });
    const cases: [() => unknown, string, RegExp][] = [
      [
        () => db.record('known', { caseId: 'x', status: 'error', errorKind: 'crash' }),
        'results-input',
        /record x: error: an error result needs its cause/,
      ],
      [
        () => db.record('known', { caseId: 'x', status: 'error', error: 'down' }),
        'results-input',
        /record x: errorKind: an error result needs the kind/,
      ],
      [
        () => db.record('known', { caseId: 'x', status: 'error', error: 'down', errorKind: 'model-unreachable', score: 0 }),
        'results-input',
        /record x: score: an error result has no score/,
      ],
      [() => db.record('known', { caseId: 'x', status: 'ok', score: 0, errorKind: 'crash' }), 'results-input', /only an error result/],
      [() => db.record('known', { caseId: 'x', status: 'ok' }), 'results-input', /score/],
      [() => db.record('known', { caseId: 'x', status: 'ok', score: 1.5 }), 'results-input', /score/],
      [() => db.record('known', { caseId: 'x', status: 'ok', score: 1, metrics: { t: Number.NaN } }), 'results-input', /metrics\.t/],
      [
        () => db.record('nope', { caseId: 'x', status: 'ok', score: 1 }),
        'unknown-run',
        /no run "nope" in .*results\.db \(runs there: known\)/,
      ],
      [() => db.startRun({ ...RUN, runId: 'known' }), 'run-exists', /already/],
      [() => db.startRun({ ...RUN, runId: 'has space' }), 'results-input', /runId/],
    ];
    for (const [fn, code, msg] of cases) {
      const e = errorOf(fn);
      expect(e.code).toBe(code);
      expect(e.message).toMatch(msg);
      expect(e.message).not.toContain('\n');
    }
    db.close();
  });

  it('names the file and the fix when the database is missing, corrupt, foreign or from a newer version', () => {
    const missing = errorOf(() => openResults(join(folder(), 'none'), { mode: 'read' }));
    expect(missing.code).toBe('results-missing');

    const garbage = folder();
    writeFileSync(join(garbage, 'results.db'), 'these are not the bytes of an SQLite database '.repeat(200));
    const bad = errorOf(() => openResults(garbage));
    expect(bad.code).toBe('results-corrupt');
    expect(bad.message).toMatch(
      /results\.db is not a readable skillbridge results database \(file is not a database\); move it aside \(mv /,
    );
    expect(bad.message).not.toContain('\n');

    const foreign = folder();
    const other = new sqlite.Database(join(foreign, 'results.db'));
    other.exec('CREATE TABLE employees (name TEXT)');
    other.close();
    expect(errorOf(() => openResults(foreign)).message).toMatch(/no meta table/);

    const newer = folder();
    openResults(newer).close();
    const raw = new sqlite.Database(join(newer, 'results.db'));
    raw.run("UPDATE meta SET value = '99' WHERE key = 'schema_version'");
    raw.close();
    const version = errorOf(() => openResults(newer, { mode: 'read' }));
    expect(version.code).toBe('results-version');
    expect(version.message).toMatch(
      `newer skillbridge (results schema 99; this version reads up to ${SCHEMA_VERSION}); upgrade skillbridge`,
    );
  });

  it('migrates a version 1 file: errors get the kind their message names, and a model failure recorded as a 0 becomes the error it was', () => {
    const dir = folder();
    openResults(dir).close();
    // A version 1 file: the same tables without error_kind.
    const raw = new sqlite.Database(join(dir, 'results.db'));
    raw.exec(
      "ALTER TABLE results DROP COLUMN error_kind; ALTER TABLE results DROP COLUMN scorer_version; UPDATE meta SET value = '1' WHERE key = 'schema_version'",
    );
    raw.run(
      `INSERT INTO runs (run_id, suite, model, workflow, seed, trials, args_json, started_at, status, package_version, host_json)
       VALUES ('old', 'alrm', 'ollama:qwen3:8b', 'alrm/tap', 1, 1, '{}', '2026-01-01T00:00:00.000Z', 'finished', '0.1.0', ?)`,
      [JSON.stringify({ platform: 'x', arch: 'x', release: 'x', node: 'x', cpus: 1, cpuModel: 'x', memoryGb: 1 })],
    );
    const row = (id: string, status: string, score: number | null, success: number | null, failure: string | null, error: string | null) =>
      raw.run(
        `INSERT INTO results (run_id, case_id, trial, status, success, score, metrics_json, labels_json, failure_class, error, recorded_at)
         VALUES ('old', ?, 1, ?, ?, ?, '{}', '{}', ?, ?, '2026-01-01T00:00:00.000Z')`,
        [id, status, success, score, failure, error],
      );
    row('scored', 'ok', 1, 1, null, null);
    row('missed', 'ok', 0, 0, 'partial', null);
    row('refused', 'ok', 0, 0, 'model-error', null);
    row('died', 'error', null, 0, null, 'the evaluation worker thread died: it exited with code 1');
    row('crashed', 'error', null, 0, null, 'boom');
    raw.close();
    const db = openResults(dir);
    const by = new Map(db.results('old').map((r) => [r.caseId, r]));
    db.close();
    expect(by.get('scored')).toMatchObject({ status: 'ok', score: 1, errorKind: null });
    expect(by.get('missed')).toMatchObject({ status: 'ok', score: 0, failureClass: 'partial', errorKind: null });
    expect(by.get('refused')).toMatchObject({ status: 'error', score: null, success: null, errorKind: 'model-failed' });
    expect(by.get('refused')!.error).toMatch(/a model call failed/);
    expect(by.get('died')).toMatchObject({ status: 'error', errorKind: 'worker-died' });
    expect(by.get('crashed')).toMatchObject({ status: 'error', errorKind: 'crash', error: 'boom' });
    const again = new sqlite.Database(join(dir, 'results.db'));
    expect(again.get("SELECT value FROM meta WHERE key = 'schema_version'")).toEqual({ value: String(SCHEMA_VERSION) });
    again.close();
  });

  it('migrates a version 2 file: each row a scorer judged gets the scorer version its run recorded, the rest none', () => {
    const dir = folder();
    openResults(dir).close();
    // A version 2 file: the same tables without scorer_version; one run recorded its scorer, one (older) did not.
    const raw = new sqlite.Database(join(dir, 'results.db'));
    raw.exec("ALTER TABLE results DROP COLUMN scorer_version; UPDATE meta SET value = '2' WHERE key = 'schema_version'");
    const host = JSON.stringify({ platform: 'x', arch: 'x', release: 'x', node: 'x', cpus: 1, cpuModel: 'x', memoryGb: 1 });
    for (const [id, args] of [
      ['scored-by', JSON.stringify({ scorer: 'abc123' })],
      ['older', '{}'],
    ])
      raw.run(
        `INSERT INTO runs (run_id, suite, model, workflow, seed, trials, args_json, started_at, status, package_version, host_json)
         VALUES (?, 'alrm', 'oracle', 'alrm/tap', 1, 1, ?, '2026-01-01T00:00:00.000Z', 'finished', '0.1.0', ?)`,
        [id!, args!, host],
      );
    const row = (run: string, id: string, status: string, score: number | null, kind: string | null) =>
      raw.run(
        `INSERT INTO results (run_id, case_id, trial, status, score, metrics_json, labels_json, error, error_kind, recorded_at)
         VALUES (?, ?, 1, ?, ?, '{}', '{}', ?, ?, '2026-01-01T00:00:00.000Z')`,
        [run, id, status, score, kind ? 'why' : null, kind],
      );
    row('scored-by', 'scored', 'ok', 1, null);
    row('scored-by', 'undecided', 'error', null, 'scorer-undecided');
    row('scored-by', 'unreachable', 'error', null, 'model-unreachable');
    row('scored-by', 'stopped', 'stopped', null, null);
    row('older', 'scored', 'ok', 0, null);
    raw.close();
    const db = openResults(dir, { mode: 'read' });
    const by = new Map(db.results('scored-by').map((r) => [r.caseId, r.scorerVersion]));
    const older = db.results('older');
    db.close();
    expect(Object.fromEntries(by)).toEqual({ scored: 'abc123', undecided: 'abc123', unreachable: null, stopped: null });
    expect(older.map((r) => r.scorerVersion)).toEqual([null]);
    const again = new sqlite.Database(join(dir, 'results.db'));
    expect(again.get("SELECT value FROM meta WHERE key = 'schema_version'")).toEqual({ value: '3' });
    again.close();
  });

  it('records the scorer version each row carries, and reads it back', () => {
    const db = openResults(folder());
    const run = db.startRun({ ...RUN, runId: 'per-row' });
    db.record(run.runId, { caseId: 'a', status: 'ok', score: 1, scorerVersion: 'v1' });
    db.record(run.runId, { caseId: 'b', status: 'error', error: 'unreachable', errorKind: 'model-unreachable' });
    expect(db.results(run.runId).map((r) => [r.caseId, r.scorerVersion])).toEqual([
      ['a', 'v1'],
      ['b', null],
    ]);
    db.close();
  });

  it('migrates an older schema one step at a time, and refuses a gap', () => {
    const dir = folder();
    openResults(dir).close();
    const raw = new sqlite.Database(join(dir, 'results.db'));
    migrate(raw, 'results.db', 1, { 1: 'ALTER TABLE runs ADD COLUMN gpu TEXT' }, 2);
    expect(raw.get("SELECT value FROM meta WHERE key = 'schema_version'")).toEqual({ value: '2' });
    expect(raw.all('PRAGMA table_info(runs)').map((c) => c['name'])).toContain('gpu');
    expect(() => migrate(raw, 'results.db', 2, {}, 3)).toThrow(/no migration from results schema 2 to 3/);
    raw.close();
  });
});

describe('results database with several writers', () => {
  it('takes records from two processes, a worker thread and the main thread at once, losing none', async () => {
    const dir = folder();
    const db = openResults(dir);
    db.startRun({ ...RUN, runId: 'many' });
    const script = join(import.meta.dirname, 'writer-child.ts');
    const tsxApi = pathToFileURL(
      createRequire(import.meta.url)
        .resolve('tsx/esm/api')
        .replace(/\.cjs$/, '.mjs'),
    ).href;
    const exited = (p: { once(e: 'exit', f: (code: number | null) => void): unknown }) =>
      new Promise<number | null>((r) => p.once('exit', r));
    const writers = [
      exited(spawn(process.execPath, ['--import', 'tsx', script, dir, 'many', 'p1', '25'], { stdio: 'inherit' })),
      exited(spawn(process.execPath, ['--import', 'tsx', script, dir, 'many', 'p2', '25'], { stdio: 'inherit' })),
      // A worker thread loads TypeScript through tsx's loader, registered inside it.
      exited(
        new Worker(
          new URL(`data:text/javascript,import { register } from '${tsxApi}'; register(); await import('${pathToFileURL(script).href}');`),
          { workerData: [dir, 'many', 'w', '25'] },
        ),
      ),
    ];
    for (let i = 0; i < 25; i++) {
      db.record('many', { caseId: `main-${i}`, status: 'ok', score: 1 });
      await new Promise((r) => setTimeout(r, 5));
    }
    expect(await Promise.all(writers)).toEqual([0, 0, 0]);
    expect(db.done('many').size).toBe(100);
    expect(new Set(db.results('many').map((r) => r.caseId.split('-')[0]))).toEqual(new Set(['main', 'p1', 'p2', 'w']));
    db.close();
  }, 60_000);
});

describe('results database under a crash', () => {
  const child = (dir: string, moment: string) =>
    spawnSync(process.execPath, ['--import', 'tsx', join(import.meta.dirname, 'crash-child.ts'), dir, moment], {
      encoding: 'utf8',
      timeout: 60_000,
    });

  it('keeps a result recorded just before the process is killed', () => {
    const dir = folder();
    const r = child(dir, 'after-record');
    expect(r.signal).toBe('SIGKILL');
    const db = openResults(dir, { mode: 'read' });
    expect(db.results('crash').map((x) => [x.caseId, x.score])).toEqual([['fruits/1/CAN', 1]]);
    expect(db.run('crash')?.status).toBe('running');
    db.close();
  });

  it('recovers from a kill inside a write: the stale lock goes, the hot journal rolls back, committed rows stay', () => {
    const dir = folder();
    const r = child(dir, 'mid-write');
    expect(r.signal).toBe('SIGKILL');
    expect(existsSync(join(dir, 'results.db.lock'))).toBe(true);
    expect(statSync(join(dir, 'results.db-journal')).size).toBeGreaterThan(0);
    const db = openResults(dir);
    expect(db.recoveredStaleLock).toBe(true);
    expect(db.results('crash').map((x) => [x.caseId, x.score])).toEqual([['fruits/1/CAN', 1]]);
    db.record('crash', { caseId: 'fruits/1/LEX', status: 'ok', score: 0.5 });
    expect(db.done('crash').size).toBe(2);
    db.close();
    expect(existsSync(join(dir, 'results.db.lock'))).toBe(false);
  });

  it('leaves a lock alone while its owner is alive, and says so in one line when it outlasts the wait', () => {
    const dir = folder();
    const a = openResults(dir);
    mkdirSync(join(dir, 'results.db.lock'));
    const busy = errorOf(() => openResults(dir, { mode: 'read', busyTimeoutMs: 100 }));
    expect(busy.code).toBe('results-locked');
    expect(busy.message).toMatch(/results\.db is locked by another process .*remove .*results\.db\.lock if none is running$/);
    expect(existsSync(join(dir, 'results.db.lock'))).toBe(true);
    rmSync(join(dir, 'results.db.lock'), { recursive: true });
    const b = openResults(dir, { mode: 'read' });
    expect(b.recoveredStaleLock).toBe(false);
    b.close();
    a.close();
  });
});
