// The flow manager: one loop of model turns and tool calls with RAIDER's warnings.
export * from './limits';
export * from './run-flow';
export { Preemptor } from './tool-call';
export * from './warnings';
