// The model store's failures: each carries a code (for `--json` and the app) and one line a
// person can act on. Anything else thrown from the store is a bug.
export type ModelStoreErrorCode =
  | 'unknown-model'
  | 'bad-catalogue'
  | 'bad-name'
  | 'not-installed'
  | 'exists'
  | 'no-file'
  | 'not-gguf'
  | 'unreachable'
  | 'http'
  | 'size'
  | 'checksum'
  | 'disk-full'
  | 'aborted'
  | 'busy'
  | 'io';

export class ModelStoreError extends Error {
  constructor(
    readonly code: ModelStoreErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'ModelStoreError';
  }
}

/** One line for a file-system failure while writing a model (disk full gets its own code). */
export function fileError(e: unknown, doing: string): ModelStoreError {
  const code = (e as NodeJS.ErrnoException).code;
  if (code === 'ENOSPC' || code === 'EDQUOT')
    return new ModelStoreError('disk-full', `the disk is full while ${doing}: free some space and pull again (the download resumes)`);
  if (code === 'EACCES' || code === 'EPERM' || code === 'EROFS')
    return new ModelStoreError(
      'io',
      `cannot write while ${doing} (${code}): choose a writable folder with --dir or SKILLBRIDGE_MODELS_DIR`,
    );
  return new ModelStoreError('io', `${doing} failed${code ? ` (${code})` : ''}: ${(e as Error).message}`);
}
