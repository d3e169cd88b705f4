// The safety chain: one gate for every way an action reaches a
// robot. See chain.ts for the order of the checks and docs/architecture.md for the API.
export {
  SafetyChain,
  type DivergenceReport,
  type HoldRequest,
  type SafetyCheck,
  type SafetyDecision,
  type SafetyOptions,
  type SafetyScope,
  type SafetyVerdict,
  type SafetyVia,
} from './chain';
export { DEFAULT_SAFETY_LIMITS, type SafetyLimits, SafetyLimitsSchema, nonFinite, staticCheck } from './checks';
export { type SafeToolOptions, type SafeToolResult, type SafeToolStatus, runToolSafely } from './run-tool';
