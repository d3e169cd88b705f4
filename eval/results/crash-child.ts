// A process that dies at a chosen moment, for the crash tests in store.test.ts:
//   after-record  record one result, then SIGKILL itself before anything else
//   mid-write     commit one result, then die inside an uncommitted write transaction
import sqlite from 'node-sqlite3-wasm';
import { openResults } from './store';

const [dir = '', moment = ''] = process.argv.slice(2);
const db = openResults(dir);
const run = db.startRun({ runId: 'crash', suite: 'alrm', model: 'scripted:x.json', workflow: 'alrm/tap', seed: 1 });
db.record(run.runId, { caseId: 'fruits/1/CAN', status: 'ok', score: 1, metrics: { alrm_score: 2 } });
if (moment === 'mid-write') {
  // A tiny page cache makes SQLite spill the uncommitted pages into the file itself,
  // so the next open must roll them back from the hot journal.
  const raw = new sqlite.Database(db.file);
  raw.exec('PRAGMA cache_size = 1; PRAGMA cache_spill = 1; BEGIN IMMEDIATE');
  raw.run("UPDATE results SET score = 0 WHERE case_id = 'fruits/1/CAN'");
  for (let i = 0; i < 200; i++) {
    raw.run(
      "INSERT INTO results (run_id, case_id, trial, status, metrics_json, labels_json, error, recorded_at) VALUES ('crash', ?, 1, 'error', '{}', '{}', ?, 'x')",
      [`lost-${i}`, 'x'.repeat(2000)],
    );
  }
}
process.kill(process.pid, 'SIGKILL');
