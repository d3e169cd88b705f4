// Other frameworks' tool-calling loops, for measuring our runtime beside them
// (hosts/bench/agent-peers.ts): the openai SDK's own loop (chat.completions.
// runTools) and the OpenAI Agents SDK (Agent + run over chat completions). Each
// keeps one conversation going across turns, non-streaming, with one tool.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, sep } from 'node:path';
import OpenAI from 'openai';
import type { ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import { VERSION } from 'openai/version';

export interface PeerLoopSpec {
  baseURL: string;
  model: string;
  system: string;
  /** The one tool, taking no arguments. */
  tool: { name: string; description: string; run: () => Promise<string> };
  /** The answer every turn must end with (a scripted server's). */
  expect: string;
}

export interface PeerLoop {
  /** Package and version, or what ran. */
  what: string;
  /** Sends user message `request i` and resolves when the final answer is in. */
  turn(i: number): Promise<void>;
}

/** An installed package's version, read from its package.json (which its exports may not expose). */
function packageVersion(name: string): string {
  try {
    const entry = createRequire(import.meta.url).resolve(name);
    const marker = `${sep}node_modules${sep}`;
    const root = entry.slice(0, entry.lastIndexOf(marker) + marker.length + name.length);
    return (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string }).version;
  } catch {
    return '(version unknown)';
  }
}

function check(who: string, spec: PeerLoopSpec, content: string | null | undefined): void {
  if (content !== spec.expect)
    throw new Error(`${who}: a turn ended with ${JSON.stringify(content)} instead of ${JSON.stringify(spec.expect)}`);
}

export function openaiRunToolsLoop(spec: PeerLoopSpec): PeerLoop {
  const client = new OpenAI({ baseURL: spec.baseURL, apiKey: 'bench', maxRetries: 0 });
  let messages: ChatCompletionMessageParam[] = [{ role: 'system', content: spec.system }];
  return {
    what: `openai ${VERSION} chat.completions.runTools`,
    async turn(i) {
      messages.push({ role: 'user', content: `request ${i}` });
      const runner = client.chat.completions.runTools({
        model: spec.model,
        messages,
        tools: [
          {
            type: 'function',
            function: {
              name: spec.tool.name,
              description: spec.tool.description,
              parameters: { type: 'object', properties: {} },
              function: spec.tool.run,
              parse: JSON.parse,
            },
          },
        ],
      });
      check('openai runTools', spec, await runner.finalContent());
      messages = runner.messages;
    },
  };
}

/** Loads @openai/agents (a development dependency) when asked; throws when it is not installed. */
export async function openaiAgentsLoop(spec: PeerLoopSpec): Promise<PeerLoop> {
  const sdk = await import('@openai/agents');
  const { z } = await import('zod');
  sdk.setTracingDisabled(true);
  const client = new OpenAI({ baseURL: spec.baseURL, apiKey: 'bench', maxRetries: 0 });
  const agent = new sdk.Agent({
    name: 'bench',
    instructions: spec.system,
    model: new sdk.OpenAIChatCompletionsModel(client, spec.model),
    tools: [sdk.tool({ name: spec.tool.name, description: spec.tool.description, parameters: z.object({}), execute: spec.tool.run })],
  });
  let history: Array<import('@openai/agents').AgentInputItem> = [];
  return {
    what: `@openai/agents ${packageVersion('@openai/agents')} (Agent + run, chat completions)`,
    async turn(i) {
      const r = await sdk.run(agent, [...history, sdk.user(`request ${i}`)], { maxTurns: 10 });
      check('@openai/agents', spec, typeof r.finalOutput === 'string' ? r.finalOutput : null);
      history = r.history;
    },
  };
}
