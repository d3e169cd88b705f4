// Which runs a report covers. A RUN argument is either a path — a results folder or
// its .db file, meaning every run recorded there — or a run id, looked up in the
// default results folder (--db DIR, default eval-results/).
import { existsSync } from 'node:fs';
import path from 'node:path';
import { type ResultRecord, type RunRecord, openResults, resultsFile } from '../results/index';
import { mergeShards } from './shards';
import type { RunId } from '../../base/host-refs';

/** Where `skillbridge eval` writes unless told otherwise (--out DIR). */
export const DEFAULT_RESULTS_DIR = 'eval-results';

export interface LoadedRun {
  run: RunRecord;
  results: ResultRecord[];
  /** The database file and its folder (trace paths are relative to the folder). */
  db: string;
  dir: string;
}

/** Runs of one results folder by id: an id is looked up in its database, never read as a path (what a page or a job names). */
export function loadRunsById(ids: readonly RunId[], dbDir: string): LoadedRun[] {
  const store = openResults(resultsFile(dbDir), { mode: 'read' });
  try {
    return mergeShards(
      ids.map((id) => store.requireRun(id)).map((run) => ({ run, results: store.results(run.runId), db: store.file, dir: store.dir })),
    );
  } finally {
    store.close();
  }
}

function looksLikePath(arg: string): boolean {
  return existsSync(arg) || arg.endsWith('.db') || arg.includes('/') || arg.includes(path.sep);
}

export function loadRuns(args: string[], dbDir = DEFAULT_RESULTS_DIR): LoadedRun[] {
  const out: LoadedRun[] = [];
  const seen = new Set<string>();
  const take = (db: string, ids: string[] | 'all') => {
    const store = openResults(db, { mode: 'read' });
    try {
      const named = ids === 'all' ? store.runs() : ids.map((id) => store.requireRun(id));
      // A run rescored with a newer scorer is shown beside the run it was rescored from.
      const rescores =
        ids === 'all' ? [] : store.runs().filter((r) => typeof r.args['rescoredFrom'] === 'string' && ids.includes(r.args['rescoredFrom']));
      const runs = [...named, ...rescores];
      for (const run of runs) {
        const key = `${path.resolve(store.file)}#${run.runId}`;
        if (seen.has(key)) continue;
        seen.add(key);
        out.push({ run, results: store.results(run.runId), db: store.file, dir: store.dir });
      }
    } finally {
      store.close();
    }
  };
  const ids: string[] = [];
  for (const arg of args) {
    if (looksLikePath(arg)) take(resultsFile(arg), 'all');
    else ids.push(arg);
  }
  if (ids.length) take(resultsFile(dbDir), ids);
  // Shards of one run in several folders are one run.
  return mergeShards(out);
}
