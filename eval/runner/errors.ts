// The runner's one error for input it cannot use, kept apart from the runner so
// the command line can recognise it without loading the runner.
export type EvalInputCode =
  | 'unknown-suite'
  | 'unknown-workflow'
  | 'unknown-model'
  | 'bad-option'
  | 'resume-mismatch'
  | 'no-cases'
  | 'not-comparable'
  | 'bad-suite-file'
  | 'not-rescorable'
  | 'off-protocol'
  /** A run id used again for a new run (its content named when it differs). */
  | 'run-id-reused';

/** Input the runner cannot use: one line naming it and the fix. */
export class EvalInputError extends Error {
  override name = 'EvalInputError';
  constructor(
    readonly code: EvalInputCode,
    message: string,
  ) {
    super(message);
  }
}
