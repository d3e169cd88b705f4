// What a skill returns: success with a one-line summary, or failure with a code
// a program can branch on and a reason a person can read.
export const FAILURE_CODES = [
  'out_of_reach',
  'blocked',
  'too_heavy',
  'too_big',
  'inside_closed_receptacle',
  'hand_full',
  'hand_empty',
  'receptacle_closed',
  'receptacle_full',
  'no_free_space',
  'not_pickable',
  'not_openable',
  'not_toggleable',
  'not_sliceable',
  'already_done',
  'needs_tool',
  'not_perceived',
  'stale_observation',
  'slipped',
  'placement_failed',
  'arm_outside_footprint',
  'path_blocked',
  'not_here',
  'docked',
  'not_docked',
  'not_at_entry',
  'battery_empty',
  'estop',
  'aborted',
  'timeout',
  'no_arm',
  'unsupported',
  'invalid_argument',
  'skill_failure',
] as const;
export type FailureCode = (typeof FAILURE_CODES)[number];

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
