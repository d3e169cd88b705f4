// The runtime: the flow manager every workflow runs, the workflow seam, Stop,
// approval, events, traces and conversations.
export * from './approval';
export * from './controller';
export * from './conversation';
export * from './events';
export * from './flow';
export * from './memory';
export * from './trace';
export * from './trace-recorder';
export * from './workflow';
