// An evaluated case opened in the app: its recorded trace on the replay
// timeline, read from the results folder. Nothing runs again and the live world
// is left as it is (re-running a case in the live world changed the scene
// without asking and lost its state).
import { readUserText } from '../../base/user-file';
import path from 'node:path';
import { AppApiError } from '../../contract/api';
import type { RunEndReason } from '../../contract/schemas';
import type { RunReplay } from '../../contract/teaching';
import { TRACE_MAX_BYTES, TraceFormatError, parseTrace, traceNotes } from '../../agents/runtime/trace';
import type { TraceImageId } from '../../base/host-refs';
import type { RunImage } from '../../contract/pictures';
import { runPicture } from './run-pictures';
import type { ResultRecord, RunRecord } from '../../eval/results/records';
import { casePoses } from './case-poses';

/** A trace's end reasons (agents/runtime) as a run's (the same table the app reads an imported trace with). */
const REASONS: Record<string, RunEndReason> = {
  final: 'done',
  stopped: 'stopped',
  model_error: 'error',
  time_limit: 'limit',
  max_iterations: 'limit',
};

/** The case's trace file: the results folder's own traces only (a row cannot name a file elsewhere). */
function traceFile(dir: string, row: ResultRecord): string {
  if (!row.tracePath) throw new AppApiError('invalid_request', `case ${row.caseId} trial ${row.trial} recorded no trace`);
  const file = path.resolve(dir, row.tracePath);
  if (path.relative(path.resolve(dir), file).startsWith('..')) {
    throw new AppApiError('invalid_request', `case ${row.caseId}: its trace is outside the results folder`);
  }
  return file;
}

async function readCaseTrace(file: string, row: ResultRecord): Promise<ReturnType<typeof parseTrace>> {
  let text: string;
  try {
    text = await readUserText(file, { maxBytes: TRACE_MAX_BYTES });
  } catch {
    throw new AppApiError('invalid_request', `case ${row.caseId} trial ${row.trial}: its trace file is gone`);
  }
  try {
    return parseTrace(text, `trace of ${row.caseId}`);
  } catch (e) {
    throw new AppApiError('invalid_request', e instanceof TraceFormatError ? e.message : `not a trace: ${(e as Error).message}`);
  }
}

/** A picture a tool gave in the case, read from beside its trace (run-pictures.ts says where). */
export async function caseImage(dir: string, row: ResultRecord, image: TraceImageId): Promise<RunImage> {
  const file = traceFile(dir, row);
  const records = (await readCaseTrace(file, row)).records;
  const named = { dir: path.dirname(file), name: path.basename(file).replace(/\.jsonl$/, '') };
  return runPicture(`case ${row.caseId} trial ${row.trial}`, image, { memory: undefined, file: named, readRecords: async () => records });
}

export async function caseReplay(dir: string, run: RunRecord, row: ResultRecord): Promise<RunReplay> {
  const file = traceFile(dir, row);
  const t = await readCaseTrace(file, row);
  const end = t.records.find((r) => r.type === 'end');
  // A finished case always has a reason: one its trace does not name is an error, never "running".
  const reason: RunEndReason = (typeof end?.['reason'] === 'string' ? REASONS[end['reason']] : undefined) ?? 'error';
  const calls = t.records.filter((r) => r.type === 'tool_call').length;
  const startedAt = typeof t.header['startedAt'] === 'string' ? t.header['startedAt'] : run.startedAt;
  const stamps = t.records.map((r) => Date.parse(typeof r['t'] === 'string' ? r['t'] : '')).filter(Number.isFinite);
  const startMs = Math.min(Date.parse(startedAt), ...stamps);
  const endMs = Math.max(startMs, ...stamps);
  // Its start and end in 3D where they can be had as they were; a replay without them still shows the trace.
  const poses = Number.isFinite(startMs) ? await casePoses(run, row, file, startMs, endMs).catch(() => null) : null;
  return {
    run: {
      runId: `${run.runId}-${row.caseId}-${row.trial}`.replace(/[^\w-]/g, '-'),
      message: `${row.caseId} (trial ${row.trial})`,
      workflow: run.workflow,
      model: run.model,
      scene: typeof t.header['scene'] === 'string' ? t.header['scene'] : null,
      startedAt,
      running: false,
      reason,
      toolCalls: calls,
      durationMs: row.durationMs ?? 0,
      poses: poses !== null,
    },
    trace: { header: t.header, records: t.records, truncated: t.truncated !== undefined, notes: traceNotes(t) },
    poses,
    evalCase: { runId: run.runId, caseId: row.caseId, trial: row.trial },
  };
}
