// The local OpenAI-compatible test server on its own thread, for `bench agent`:
// a real model server is another process, so its request parsing and garbage
// must not land in the runtime's measured time on the bench's thread.
import { parentPort, workerData } from 'node:worker_threads';
import { type ScriptStep, startOpenAIServer } from '../../test/support/openai-server';

const port = parentPort;
if (!port) throw new Error('model-server-worker.ts must run in a worker thread');
const { steps } = workerData as { steps: ScriptStep[] };
const server = await startOpenAIServer(steps);
port.on('message', (m: unknown) => {
  if (m === 'close') void server.close().then(() => port.close());
});
port.postMessage({ url: server.url });
