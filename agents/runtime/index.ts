// The runtime: the flow manager every workflow runs, Stop, approval, traces, sessions.
export * from './approval';
export * from './controller';
export * from './flow';
export * from './session';
export * from './trace';
