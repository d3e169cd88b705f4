// What a run holds against what it set out to run: every planned case × trial is
// scored, errored (no score: its outcome is unknown), stopped or missing, and the
// four add up to the plan. A resumed run runs again exactly the ones not scored.
import { doneKey } from '../results/index';
import type { ResultStatus } from '../results/index';

export interface CaseTrial {
  caseId: string;
  trial: number;
}

export interface RunCounts {
  /** Case × trials this run set out to run (on this shard). */
  planned: number;
  /** Scored (status ok): every mean is over these. */
  scored: number;
  /** Ended in an error: no score, counted apart, run again by --resume. */
  errors: number;
  /** Stopped before the end (Ctrl-C): run again by --resume. */
  stopped: number;
  /** Never recorded: run by --resume. */
  missing: number;
}

/** The latest status of each planned case × trial (one row per pair: the store replaces a pair's row). */
function statusOf(results: ReadonlyArray<CaseTrial & { status: ResultStatus }>): Map<string, ResultStatus> {
  const m = new Map<string, ResultStatus>();
  for (const r of results) m.set(doneKey(r.caseId, r.trial), r.status);
  return m;
}

export function tally(planned: readonly CaseTrial[], results: ReadonlyArray<CaseTrial & { status: ResultStatus }>): RunCounts {
  const status = statusOf(results);
  const counts: RunCounts = { planned: 0, scored: 0, errors: 0, stopped: 0, missing: 0 };
  const seen = new Set<string>();
  for (const p of planned) {
    const k = doneKey(p.caseId, p.trial);
    if (seen.has(k)) continue;
    seen.add(k);
    counts.planned++;
    const s = status.get(k);
    if (s === 'ok') counts.scored++;
    else if (s === 'error') counts.errors++;
    else if (s === 'stopped') counts.stopped++;
    else counts.missing++;
  }
  return counts;
}

/** The planned case × trials still to run: every one not scored (errored, stopped or missing), in plan order. */
export function toRun<T extends CaseTrial>(planned: readonly T[], results: ReadonlyArray<CaseTrial & { status: ResultStatus }>): T[] {
  const status = statusOf(results);
  const seen = new Set<string>();
  return planned.filter((p) => {
    const k = doneKey(p.caseId, p.trial);
    if (seen.has(k)) return false;
    seen.add(k);
    return status.get(k) !== 'ok';
  });
}

/** Whether every planned case × trial has a score: a run that is complete by this measure exits 0. */
export const allScored = (c: RunCounts): boolean => c.scored === c.planned;
