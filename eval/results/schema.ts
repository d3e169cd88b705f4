// The results database's tables (documented for sqlite3 users in eval/README.md).
// One SQLite file per results folder: a row per run and a row per case × trial.
// Bump SCHEMA_VERSION when the tables change and add the step to MIGRATIONS.

export const SCHEMA_VERSION = 3;

/** The file name inside a results folder. */
export const DB_FILE = 'results.db';

export const CREATE_TABLES = `
CREATE TABLE meta (
  key   TEXT PRIMARY KEY,
  value TEXT NOT NULL
);
CREATE TABLE runs (
  run_id          TEXT PRIMARY KEY,
  suite           TEXT NOT NULL,
  model           TEXT NOT NULL,
  workflow        TEXT NOT NULL,
  variant         TEXT,
  commit_sha      TEXT,
  seed            INTEGER NOT NULL,
  trials          INTEGER NOT NULL CHECK (trials >= 1),
  args_json       TEXT NOT NULL,
  started_at      TEXT NOT NULL,
  finished_at     TEXT,
  status          TEXT NOT NULL CHECK (status IN ('running', 'finished', 'stopped', 'failed')),
  note            TEXT,
  package_version TEXT NOT NULL,
  host_json       TEXT NOT NULL
);
CREATE TABLE results (
  run_id           TEXT NOT NULL REFERENCES runs (run_id) ON DELETE CASCADE,
  case_id          TEXT NOT NULL,
  trial            INTEGER NOT NULL CHECK (trial >= 1),
  status           TEXT NOT NULL CHECK (status IN ('ok', 'error', 'stopped')),
  success          INTEGER CHECK (success IN (0, 1)),
  score            REAL CHECK (score BETWEEN 0 AND 1),
  metrics_json     TEXT NOT NULL,
  labels_json      TEXT NOT NULL,
  duration_ms      REAL,
  model_ms         REAL,
  tokens_in        INTEGER,
  tokens_out       INTEGER,
  cost_usd         REAL,
  tool_calls       INTEGER,
  failure_class    TEXT,
  error            TEXT,
  trace_path       TEXT,
  world_hash_start TEXT,
  world_hash_end   TEXT,
  recorded_at      TEXT NOT NULL,
  error_kind       TEXT,
  scorer_version   TEXT,
  PRIMARY KEY (run_id, case_id, trial)
);
CREATE INDEX runs_by_suite ON runs (suite, model, workflow);
CREATE INDEX results_by_status ON results (run_id, status);
CREATE INDEX results_by_case ON results (case_id);
`;

/**
 * MIGRATIONS[v] upgrades a database at schema version v to v + 1. Each runs in the
 * same transaction as the version bump, so a crash mid-migration leaves the old file.
 */
export const MIGRATIONS: Record<number, string> = {
  // error_kind: why an error has no score, counted in summaries. Older errors get the
  // kind their message names. A case whose model call failed was recorded by version 1
  // as a 0 ("model-error"): its outcome is unknown, so it becomes the error it was.
  1: `
ALTER TABLE results ADD COLUMN error_kind TEXT;
UPDATE results SET error_kind = CASE
    WHEN error LIKE 'the evaluation worker thread died:%' THEN 'worker-died'
    WHEN error LIKE 'not rescored:%' THEN 'not-rescorable'
    WHEN error LIKE 'result not recordable:%' THEN 'unrecordable'
    WHEN error LIKE 'failed on the queue%' OR error LIKE 'the queue failed:%' OR error LIKE 'a worker sent a result%' THEN 'queue'
    ELSE 'crash' END
  WHERE status = 'error';
UPDATE results SET status = 'error', score = NULL, success = NULL, error_kind = 'model-failed',
    error = 'a model call failed (recorded as a 0 by an older version; the trace names the cause)'
  WHERE status = 'ok' AND failure_class = 'model-error';
`,
  // scorer_version: the scorer that judged the row, so a run rescored with a newer scorer shows per row
  // which one did. Older rows judged by a scorer get the version their run recorded (null where it
  // recorded none: unknown, not guessed).
  2: `
ALTER TABLE results ADD COLUMN scorer_version TEXT;
UPDATE results SET scorer_version = (SELECT json_extract(runs.args_json, '$.scorer') FROM runs WHERE runs.run_id = results.run_id)
  WHERE status = 'ok' OR error_kind = 'scorer-undecided';
`,
};
