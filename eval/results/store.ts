// The results database: one SQLite file per results folder (schema.ts), opened
// through node-sqlite3-wasm (SQLite compiled to WebAssembly with real file I/O:
// no native build, the same code in the CLI, Electron's main process and worker
// threads). Every record is its own transaction with SQLite's full sync, so a
// Ctrl-C or a crash loses nothing that record() returned from.
import { existsSync, mkdirSync, statSync } from 'node:fs';
import path from 'node:path';
import sqlite from 'node-sqlite3-wasm';
import { z } from 'zod';
import { ResultsError, corrupt, fromSqlite } from './errors';
import { clearStaleLock, registerOwner, unregisterOwner } from './owners';
import { PACKAGE_VERSION, hostInfo, newRunId } from './provenance';
import {
  type ResultInput,
  ResultInputSchema,
  type ResultRecord,
  ResultRowSchema,
  type RunRecord,
  RunRowSchema,
  type RunStart,
  RunStartSchema,
  type RunStatus,
  doneKey,
} from './records';
import { CREATE_TABLES, DB_FILE, MIGRATIONS, SCHEMA_VERSION } from './schema';

type Row = Record<string, unknown>;

export interface OpenOptions {
  /** 'write' (default) creates the folder and file; 'read' requires them (reports). */
  mode?: 'write' | 'read';
  /** How long to wait for another process's lock before giving up (default 5 s). */
  busyTimeoutMs?: number;
  /**
   * 'full' (default): each record is on disk before record() returns, surviving a
   * power cut. 'process': left to the OS to write back, surviving a killed or crashed
   * process but not a power cut; ~5× faster, for tests and bulk imports.
   */
  durability?: 'full' | 'process';
}

/** A results folder's database file; a path ending in .db (or naming a file) is taken as the file itself. */
export function resultsFile(dirOrFile: string): string {
  if (dirOrFile.endsWith('.db')) return dirOrFile;
  try {
    if (statSync(dirOrFile).isFile()) return dirOrFile;
  } catch {
    // not there yet: a folder to create
  }
  return path.join(dirOrFile, DB_FILE);
}

export function openResults(dirOrFile: string, opts: OpenOptions = {}): ResultsDb {
  const file = resultsFile(dirOrFile);
  const mode = opts.mode ?? 'write';
  if (mode === 'read' && !existsSync(file)) {
    throw new ResultsError(
      'results-missing',
      `${file}: no results database here; run "skillbridge eval" with --out pointing at this folder first`,
    );
  }
  mkdirSync(path.dirname(file), { recursive: true });
  const recovered = clearStaleLock(file);
  registerOwner(file);
  let db: sqlite.Database;
  try {
    db = new sqlite.Database(file);
  } catch (e) {
    unregisterOwner(file);
    throw corrupt(file, (e as Error).message);
  }
  try {
    db.exec(`PRAGMA busy_timeout = ${Math.max(0, Math.round(opts.busyTimeoutMs ?? 5000))}`);
    db.exec(`PRAGMA synchronous = ${opts.durability === 'process' ? 'OFF' : 'FULL'}`);
    prepareSchema(db, file);
  } catch (e) {
    db.close();
    unregisterOwner(file);
    throw e instanceof ResultsError ? e : (fromSqlite(file, e) ?? corrupt(file, (e as Error).message));
  }
  return new ResultsDb(db, file, recovered);
}

function prepareSchema(db: sqlite.Database, file: string): void {
  const tables = db.all("SELECT name FROM sqlite_master WHERE type = 'table'").map((r) => String(r['name']));
  if (tables.length === 0) {
    transaction(db, () => {
      db.exec(CREATE_TABLES);
      const meta = db.prepare('INSERT INTO meta (key, value) VALUES (?, ?)');
      try {
        meta.run(['schema_version', String(SCHEMA_VERSION)]);
        meta.run(['created_by', `skillbridge ${PACKAGE_VERSION}`]);
        meta.run(['created_at', new Date().toISOString()]);
      } finally {
        meta.finalize();
      }
    });
    return;
  }
  if (!tables.includes('meta')) throw corrupt(file, 'it has tables but no meta table, so it was not written by skillbridge');
  const raw = db.get("SELECT value FROM meta WHERE key = 'schema_version'")?.['value'];
  const version = Number(raw);
  if (!Number.isInteger(version) || version < 1) throw corrupt(file, `meta.schema_version is "${String(raw)}"`);
  if (version > SCHEMA_VERSION) {
    throw new ResultsError(
      'results-version',
      `${file} was written by a newer skillbridge (results schema ${version}; this version reads up to ${SCHEMA_VERSION}); upgrade skillbridge, or use another results folder`,
    );
  }
  migrate(db, file, version, MIGRATIONS, SCHEMA_VERSION);
}

/** Upgrades step by step, each step with its version bump in one transaction. Exported for tests. */
export function migrate(db: sqlite.Database, file: string, from: number, steps: Record<number, string>, to: number): void {
  for (let v = from; v < to; v++) {
    const step = steps[v];
    if (step === undefined) throw corrupt(file, `no migration from results schema ${v} to ${v + 1}`);
    transaction(db, () => {
      db.exec(step);
      db.run("UPDATE meta SET value = ? WHERE key = 'schema_version'", String(v + 1));
    });
  }
}

function transaction(db: sqlite.Database, body: () => void): void {
  db.exec('BEGIN IMMEDIATE');
  try {
    body();
    db.exec('COMMIT');
  } catch (e) {
    if (db.inTransaction) db.exec('ROLLBACK');
    throw e;
  }
}

function firstIssue(e: z.ZodError): string {
  const i = e.issues[0];
  return i ? `${i.path.join('.') || 'record'}: ${i.message}` : e.message;
}

export class ResultsDb {
  readonly dir: string;
  private open = true;

  constructor(
    private readonly db: sqlite.Database,
    readonly file: string,
    /** True when opening removed a lock left by a killed process. */
    readonly recoveredStaleLock: boolean,
  ) {
    this.dir = path.dirname(file);
  }

  /** Records a new run as 'running' and returns it. */
  startRun(start: RunStart): RunRecord {
    const parsed = RunStartSchema.safeParse(start);
    if (!parsed.success) throw new ResultsError('results-input', `startRun: ${firstIssue(parsed.error)}`);
    const s = parsed.data;
    const runId = s.runId ?? newRunId(s.suite);
    return this.guard(() => {
      if (this.run(runId))
        throw new ResultsError('run-exists', `run "${runId}" is already in ${this.file}; resume it or choose another run id`);
      this.db.run(
        `INSERT INTO runs (run_id, suite, model, workflow, variant, commit_sha, seed, trials, args_json, started_at,
           status, package_version, host_json) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'running', ?, ?)`,
        [
          runId,
          s.suite,
          s.model,
          s.workflow,
          s.variant,
          s.commit,
          s.seed,
          s.trials,
          JSON.stringify(s.args),
          (s.startedAt ?? new Date()).toISOString(),
          s.packageVersion ?? PACKAGE_VERSION,
          JSON.stringify(s.host ?? hostInfo()),
        ],
      );
      return this.requireRun(runId);
    });
  }

  /** Marks a stopped or failed run as running again (for --resume); done() says what is left. */
  resumeRun(runId: string): RunRecord {
    return this.guard(() => {
      this.requireRun(runId);
      this.db.run("UPDATE runs SET status = 'running', finished_at = NULL, note = NULL WHERE run_id = ?", runId);
      return this.requireRun(runId);
    });
  }

  /** Stores one case × trial (replacing an earlier row for the same pair) in its own transaction. */
  record(runId: string, input: ResultInput): ResultRecord {
    const parsed = ResultInputSchema.safeParse(input);
    if (!parsed.success) {
      const id = typeof input?.caseId === 'string' ? input.caseId : '?';
      throw new ResultsError('results-input', `record ${id}: ${firstIssue(parsed.error)}`);
    }
    const r = parsed.data;
    const metrics = Object.fromEntries(Object.entries(r.metrics).map(([k, v]) => [k, typeof v === 'boolean' ? Number(v) : v]));
    // Only a scored result passed or failed: an error's outcome is unknown.
    const success = r.status === 'ok' ? (r.success ?? r.score === 1) : null;
    return this.guard(() => {
      this.requireRun(runId);
      this.db.run(
        `INSERT OR REPLACE INTO results (run_id, case_id, trial, status, success, score, metrics_json, labels_json,
           duration_ms, model_ms, tokens_in, tokens_out, cost_usd, tool_calls, failure_class, error, error_kind, trace_path,
           world_hash_start, world_hash_end, scorer_version, recorded_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        [
          runId,
          r.caseId,
          r.trial,
          r.status,
          success === null ? null : Number(success),
          r.score,
          JSON.stringify(metrics),
          JSON.stringify(r.labels),
          r.durationMs,
          r.modelMs,
          r.tokensIn,
          r.tokensOut,
          r.costUsd,
          r.toolCalls,
          r.failureClass,
          r.error,
          r.errorKind,
          this.storedTracePath(r.tracePath),
          r.worldHashStart,
          r.worldHashEnd,
          r.scorerVersion,
          new Date().toISOString(),
        ],
      );
      const row = this.db.get('SELECT * FROM results WHERE run_id = ? AND case_id = ? AND trial = ?', [runId, r.caseId, r.trial]);
      return this.parseResult(row as Row);
    });
  }

  finishRun(runId: string, status: Exclude<RunStatus, 'running'>, note: string | null = null): RunRecord {
    return this.guard(() => {
      this.requireRun(runId);
      this.db.run('UPDATE runs SET status = ?, finished_at = ?, note = ? WHERE run_id = ?', [
        status,
        new Date().toISOString(),
        note,
        runId,
      ]);
      return this.requireRun(runId);
    });
  }

  run(runId: string): RunRecord | undefined {
    return this.guard(() => {
      const row = this.db.get('SELECT * FROM runs WHERE run_id = ?', runId);
      return row ? this.parseRun(row as Row) : undefined;
    });
  }

  requireRun(runId: string): RunRecord {
    const run = this.run(runId);
    if (run) return run;
    const known = this.runs().map((r) => r.runId);
    const list = known.length ? `runs there: ${known.slice(-5).join(', ')}${known.length > 5 ? ', …' : ''}` : 'it holds no runs yet';
    throw new ResultsError('unknown-run', `no run "${runId}" in ${this.file} (${list})`);
  }

  /** Every run, oldest first. */
  runs(): RunRecord[] {
    return this.guard(() => this.db.all('SELECT * FROM runs ORDER BY started_at, run_id').map((r) => this.parseRun(r as Row)));
  }

  /** A run's results ordered by case and trial. */
  results(runId: string): ResultRecord[] {
    return this.guard(() => {
      this.requireRun(runId);
      return this.db.all('SELECT * FROM results WHERE run_id = ? ORDER BY case_id, trial', runId).map((r) => this.parseResult(r as Row));
    });
  }

  /**
   * The case × trial pairs a resumed run need not repeat (doneKey form): those that were
   * scored. An error (its outcome unknown) and a stopped or missing pair run again.
   */
  done(runId: string): Set<string> {
    return this.guard(() => {
      this.requireRun(runId);
      const rows = this.db.all("SELECT case_id, trial FROM results WHERE run_id = ? AND status = 'ok'", runId);
      return new Set(rows.map((r) => doneKey(String(r['case_id']), Number(r['trial']))));
    });
  }

  close(): void {
    if (!this.open) return;
    this.open = false;
    try {
      this.db.close();
    } finally {
      unregisterOwner(this.file);
    }
  }

  private storedTracePath(p: string | null): string | null {
    if (p === null) return null;
    const abs = path.resolve(p);
    const rel = path.relative(this.dir, abs);
    return rel.startsWith('..') || path.isAbsolute(rel) ? abs : rel.split(path.sep).join('/');
  }

  private parseRun(row: Row): RunRecord {
    try {
      return RunRowSchema.parse(row);
    } catch (e) {
      throw corrupt(
        this.file,
        `run "${String(row['run_id'])}" does not read back: ${e instanceof z.ZodError ? firstIssue(e) : (e as Error).message}`,
      );
    }
  }

  private parseResult(row: Row): ResultRecord {
    try {
      return ResultRowSchema.parse(row);
    } catch (e) {
      const id = `${String(row['run_id'])}/${String(row['case_id'])}#${String(row['trial'])}`;
      throw corrupt(this.file, `result ${id} does not read back: ${e instanceof z.ZodError ? firstIssue(e) : (e as Error).message}`);
    }
  }

  private guard<T>(body: () => T): T {
    if (!this.open) throw new ResultsError('results-input', `${this.file} is closed`);
    try {
      return body();
    } catch (e) {
      if (e instanceof ResultsError) throw e;
      throw fromSqlite(this.file, e) ?? e;
    }
  }
}
