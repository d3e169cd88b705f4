// Code written by a model, run in QuickJS (WebAssembly) on a worker thread: the
// Code-as-Policy executor of ALRM (paper 002 §III.B.2) and RAIDER's recovery
// plans. Takes an API record, so it imports nothing from robot/, tools or workflows.
export { Sandbox, SandboxConfigError, resolveLimits, runProgram } from './sandbox';
export { describeApi, formatResult, namedArgs, paramsOf, type ApiDoc, type JsonSchema } from './describe';
export {
  DEFAULT_LIMITS,
  type RunOptions,
  type SandboxApi,
  type SandboxCall,
  type SandboxError,
  type SandboxErrorKind,
  type SandboxFunction,
  type SandboxLimits,
  type SandboxResult,
} from './types';
