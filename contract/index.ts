// The contract's public surface: import from here.
export * from './api';
export * from './frames';
export * from './limits';
export * from './schemas';
export * from './wire';
export * from './eval';
export * from './teaching';
export * from './local-models';
export * from './robot-safety';
export * from './pictures';
