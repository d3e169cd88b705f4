// The key rule of agents/models/spec.ts, for hosts that store keys (the desktop
// app's secret store reaches the agent layer only through hosts/service).
export { type KeyScope, type ModelProvider, normalizeBaseURL, presetBaseURL } from '../../agents/models/spec';
