// Runs the evaluation worker from the TypeScript sources: a worker thread does not
// inherit the loader hooks tsx registered in the main thread, so register them here.
import { register } from 'tsx/esm/api';
import { workerData } from 'node:worker_threads';

register();
await import(workerData.entry);
