// Helpers shared by the model adapter tests: catching the ModelError a call
// must raise, and a local OpenAI-compatible server started per test.
import { afterEach } from 'vitest';
import { ModelError } from '../../agents/models/model';
import { type OpenAIServer, type OpenAIServerOptions, type StepSource, startOpenAIServer } from './openai-server';

/** The ModelError `fn` throws (anything else is rethrown). */
export function errorOf(fn: () => unknown): ModelError {
  try {
    fn();
  } catch (e) {
    if (e instanceof ModelError) return e;
    throw e;
  }
  throw new Error('expected a ModelError');
}

/** The ModelError the promise rejects with. */
export async function caught(p: Promise<unknown>): Promise<ModelError> {
  try {
    await p;
  } catch (e) {
    if (e instanceof ModelError) return e;
    throw new Error(`expected a ModelError, got ${String(e)}`);
  }
  throw new Error('expected the call to fail');
}

/** Call at a test file's top level: `start(script)` gives a fresh server, closed after each test. */
export function serverPerTest(): (script: StepSource[], options?: OpenAIServerOptions) => Promise<OpenAIServer> {
  let server: OpenAIServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });
  return async (script, options) => {
    server = await startOpenAIServer(script, options);
    return server;
  };
}
