// Every way a results database can be unusable, as one typed error whose message
// is a single line naming the file and what to do about it.

export type ResultsErrorCode =
  | 'results-missing' // no database where one was expected
  | 'results-corrupt' // not an SQLite file, or damaged, or not ours
  | 'results-version' // written by a newer skillbridge
  | 'results-locked' // another process holds it for too long
  | 'results-input' // a record the caller passed does not validate
  | 'unknown-run' // a run id that is not in the database
  | 'run-exists' // startRun with an id already used
  | 'not-shards'; // runs sharing an id across folders that are not shares of one run

export class ResultsError extends Error {
  constructor(
    readonly code: ResultsErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'ResultsError';
  }
}

/** Maps an SQLite failure to the error a person can act on. */
export function fromSqlite(file: string, e: unknown): ResultsError | undefined {
  const msg = e instanceof Error ? e.message : String(e);
  if (/file is not a database|malformed|disk image|not a database|SQLITE_CORRUPT|SQLITE_NOTADB/i.test(msg)) {
    return corrupt(file, msg);
  }
  if (/database is locked|SQLITE_BUSY/i.test(msg)) {
    return new ResultsError(
      'results-locked',
      `${file} is locked by another process (${msg}); wait for the other eval or report to finish, or remove ${file}.lock if none is running`,
    );
  }
  return undefined;
}

export function corrupt(file: string, why: string): ResultsError {
  return new ResultsError(
    'results-corrupt',
    `${file} is not a readable skillbridge results database (${why}); move it aside (mv ${file} ${file}.bad) or use another results folder`,
  );
}
