// The OpenAI-compatible adapter as its tests drive it: against a local server,
// with short timeouts and backoffs, one user turn and two tools.
import type { ChatMessage, ModelTool } from '../../agents/models/model';
import { createOpenAICompatibleModel, type OpenAICompatibleOptions } from '../../agents/models/openai-compatible';
import type { OpenAIServer } from './openai-server';

/** The adapter pointed at `s`, with a 2 s timeout and 5–20 ms retry backoff unless `opts` says otherwise. */
export function model(s: OpenAIServer, opts: Partial<OpenAICompatibleOptions> = {}) {
  return createOpenAICompatibleModel({
    id: 'test',
    baseURL: s.url,
    model: 'test-model',
    timeoutMs: 2000,
    retryBaseMs: 5,
    retryMaxMs: 20,
    ...opts,
  });
}

export const user: ChatMessage[] = [{ role: 'user', content: 'hi' }];

export const tool = (name: string, props: Record<string, unknown> = {}): ModelTool => ({
  type: 'function',
  function: { name, description: `${name} tool`, parameters: { type: 'object', properties: props } },
});

export const tools = [tool('dist_to_target', { target: { type: 'string' } }), tool('pick', { object: { type: 'string' } })];

/** Resolves once `cond` holds; fails after `ms`. */
export async function waitFor(cond: () => boolean, ms = 1000): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 5));
  }
}
