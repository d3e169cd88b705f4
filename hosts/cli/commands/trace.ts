// skillbridge trace FILE: prints a recorded run readably (or validated JSON).
import { UserFileError } from '../../../base/user-file';
import { formatTrace, readTrace, TraceFormatError, traceNotes } from '../../../agents/runtime/trace';
import { type Parsed, UsageError } from '../args';
import { type Output, json } from '../output';

export function traceCommand(p: Parsed, o: Output): number {
  const [file] = p.positionals;
  if (!file) throw new UsageError('give a trace file: skillbridge trace traces/RUN.jsonl');
  let t;
  try {
    t = readTrace(file);
  } catch (e) {
    if (e instanceof TraceFormatError) throw new UsageError(e.message);
    if (e instanceof UserFileError) {
      if (e.reason.startsWith('a folder')) {
        throw new UsageError(`${file} is a folder: give one trace file, e.g. ${file.replace(/\/+$/, '')}/RUN.jsonl`);
      }
      throw new UsageError(`cannot read ${file}: ${e.reason}`);
    }
    throw e;
  }
  if (p.flags['json']) json(o, t);
  else o.out(formatTrace(t));
  for (const note of traceNotes(t)) o.err(`note: ${file}: ${note}`);
  return 0;
}
