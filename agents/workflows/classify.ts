// The classify step of hierarchical workflows (MAYA, AIMM): one short model
// call that sorts the request into a category before any tools are shown. The
// model answers with a single tool call; models that answer in text are read
// for the category word, so small local models still route.
import { z } from 'zod';
import type { ChatMessage, Model } from '../models/model';
import type { ClassifyResult } from '../runtime/flow';
import { defineTool } from '../tools/tool';

export interface Category {
  id: string;
  description: string;
}

export async function classifyWith(
  model: Model,
  messages: readonly ChatMessage[],
  categories: readonly [Category, ...Category[]],
  intro: string,
  signal: AbortSignal,
): Promise<ClassifyResult> {
  const ids = categories.map((c) => c.id) as [string, ...string[]];
  const tool = defineTool({
    name: 'classify_request',
    description: `Say which category the latest user request belongs to: ${categories.map((c) => `${c.id} (${c.description})`).join('; ')}.`,
    category: 'information',
    params: z.strictObject({ category: z.enum(ids) }),
    card: { outputs: 'the category', whenToUse: 'once, before the tools', dimension: 'reasoning' },
    execute: ({ category }) => ({ ok: true, content: category }),
  });
  // Only the conversation's user and assistant text: the classifier needs the request, not tool chatter.
  const convo = messages.filter(
    (m): m is Extract<ChatMessage, { role: 'user' | 'assistant' }> =>
      (m.role === 'user' || m.role === 'assistant') && typeof m.content === 'string' && m.content.length > 0,
  );
  const system: ChatMessage = {
    role: 'system',
    content: `${intro}\nClassify the latest user request by calling classify_request. Categories:\n${categories.map((c) => `- ${c.id}: ${c.description}`).join('\n')}`,
  };
  const c = await model.complete({
    messages: [system, ...convo],
    tools: [{ type: 'function', function: tool.schema() }],
    toolChoice: 'required',
    signal,
  });
  for (const call of c.toolCalls) {
    const p = tool.parse(call.function.arguments);
    if (p.ok) return { route: (p.args as { category: string }).category, ...(c.usage ? { usage: c.usage } : {}) };
  }
  const text = (c.message.content ?? '').toLowerCase();
  const named = ids.find((id) => new RegExp(`\\b${id}\\b`).test(text));
  // An unreadable answer falls back to the first category (information: nothing moves).
  return { route: named ?? ids[0], ...(c.usage ? { usage: c.usage } : {}) };
}
