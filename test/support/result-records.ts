// Result and run records as the results store holds them, for tests of what is
// computed from them (statistics, leaderboards, reports): every field at a
// neutral value unless the test sets it.
import type { ResultRecord, RunRecord } from '../../eval/results/index';

const HOST = { platform: 'x', arch: 'x', release: 'x', node: 'x', cpus: 1, cpuModel: 'x', memoryGb: 1 };
const AT = '2026-11-23T00:00:00.000Z';

export function runRecord(over: Partial<RunRecord> = {}): RunRecord {
  return {
    runId: 'r',
    suite: 'alrm',
    model: 'm',
    workflow: 'alrm/tap',
    variant: null,
    commit: null,
    seed: 1,
    trials: 1,
    args: {},
    startedAt: AT,
    finishedAt: null,
    status: 'finished',
    note: null,
    packageVersion: '0',
    host: HOST,
    ...over,
  };
}

/** A scored case × trial: passed (score 1) or not (score 0), as `pass` says. */
export function resultRecord(caseId: string, pass: boolean, over: Partial<ResultRecord> = {}): ResultRecord {
  return {
    runId: 'r',
    caseId,
    trial: 1,
    status: 'ok',
    success: pass,
    score: pass ? 1 : 0,
    metrics: {},
    labels: {},
    durationMs: null,
    modelMs: null,
    tokensIn: null,
    tokensOut: null,
    costUsd: null,
    toolCalls: null,
    failureClass: null,
    error: null,
    errorKind: null,
    tracePath: null,
    worldHashStart: null,
    worldHashEnd: null,
    scorerVersion: null,
    recordedAt: AT,
    ...over,
  };
}
