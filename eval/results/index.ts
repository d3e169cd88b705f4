// The results database's public surface: see eval/README.md for the schema.
export { ResultsError, type ResultsErrorCode } from './errors';
export { PACKAGE_VERSION, gitCommit, hostInfo, newRunId } from './provenance';
export {
  ERROR_KINDS,
  type ErrorKind,
  type HostInfo,
  type ResultInput,
  type ResultRecord,
  type ResultStatus,
  type RunRecord,
  type RunStart,
  type RunStatus,
  doneKey,
} from './records';
export { DB_FILE, SCHEMA_VERSION } from './schema';
export { type OpenOptions, ResultsDb, openResults, resultsFile } from './store';
