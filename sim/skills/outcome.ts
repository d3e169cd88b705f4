// What a skill returns: success with a one-line summary, or failure with a code
// a program can branch on and a reason a person can read.
import type { FailureCode } from '../../base/failure-codes';

export { FAILURE_CODES, type FailureCode } from '../../base/failure-codes';

export type SkillOutcome =
  | { ok: true; summary: string; data?: Record<string, unknown>; incidents?: string[] }
  | { ok: false; code: FailureCode; summary: string; data?: Record<string, unknown>; incidents?: string[] };

export const success = (summary: string, data?: Record<string, unknown>, incidents?: string[]): SkillOutcome => ({
  ok: true,
  summary,
  ...(data ? { data } : {}),
  ...(incidents?.length ? { incidents } : {}),
});

export const failure = (code: FailureCode, summary: string, data?: Record<string, unknown>, incidents?: string[]): SkillOutcome => ({
  ok: false,
  code,
  summary,
  ...(data ? { data } : {}),
  ...(incidents?.length ? { incidents } : {}),
});

/**
 * What a successful skill says now holds in the world: its post-condition, in
 * `data.claims`. Traces and the truth audit (eval/audit) check every claim
 * against the world; the model reads the summary.
 */
export type Claim =
  | { kind: 'held'; object: string }
  | { kind: 'rests'; object: string; relation: 'on' | 'in'; support: string }
  | { kind: 'at'; place: string }
  | { kind: 'base'; position: [number, number]; yawDeg: number }
  | { kind: 'posture'; posture: string }
  | { kind: 'tool'; position: [number, number, number] }
  | { kind: 'state'; object: string; state: 'open' | 'on' | 'sliced'; value: boolean }
  | { kind: 'handed'; object: string; person: string }
  | { kind: 'docked'; value: boolean }
  | { kind: 'battery'; atLeast: number };

export const claims = (...c: Claim[]): { claims: Claim[] } => ({ claims: c });

export interface SkillOptions {
  signal?: AbortSignal;
}
