// The seam a host uses to start local models' processes (agents/models/local/process-launcher.ts),
// for the desktop shell, which may import only this layer: it injects a launcher built on
// Electron's utilityProcess, and the session's worker threads reach it through a relay.
export { type ModelProcess, type ModelProcessLauncher, setModelProcessLauncher } from '../../agents/models/local/process-launcher';
export type { ToProcess } from '../../agents/models/local/protocol';
export { unloadLocalModels } from '../../agents/models/local/model-cache';
