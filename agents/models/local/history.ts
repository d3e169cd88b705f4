// OpenAI chat messages as node-llama-cpp's chat history, which its chat wrapper
// renders through the model's own template. Two shapes: with native function
// calling, tool calls and their results become the wrapper's function-call items
// (rendered in the syntax the model was trained on); with the grammar fallback,
// they stay JSON text the model reads and writes (see grammar-schema.ts).
import type { ChatHistoryItem, ChatModelFunctionCall } from 'node-llama-cpp';
import type { ChatMessage, ToolMessage } from '../model';

export type ToolMode = 'native' | 'grammar';

function toolResults(messages: readonly ChatMessage[]): Map<string, string> {
  const out = new Map<string, string>();
  for (const m of messages) if (m.role === 'tool') out.set(m.tool_call_id, m.content);
  return out;
}

function parseArgs(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/**
 * The history node-llama-cpp generates from, ending with an empty model turn for
 * the reply. `instructions` (the grammar fallback's reply format) joins the system prompt.
 */
export function toChatHistory(messages: readonly ChatMessage[], mode: ToolMode, instructions?: string): ChatHistoryItem[] {
  const out: ChatHistoryItem[] = [];
  const results = toolResults(messages);
  const system = messages.filter((m) => m.role === 'system').map((m) => m.content);
  if (instructions) system.push(instructions);
  if (system.length) out.push({ type: 'system', text: system.join('\n\n') });
  let pendingResults: ToolMessage[] = [];
  const flushResults = (): void => {
    if (!pendingResults.length) return;
    const lines = pendingResults.map((r) => JSON.stringify({ tool_call_id: r.tool_call_id, result: r.content }));
    out.push({ type: 'user', text: `Tool results:\n${lines.join('\n')}` });
    pendingResults = [];
  };
  for (const m of messages) {
    if (m.role === 'system') continue;
    if (m.role === 'tool') {
      if (mode === 'grammar') pendingResults.push(m);
      continue; // native: the result sits inside its function-call item
    }
    flushResults();
    if (m.role === 'user') {
      out.push({ type: 'user', text: m.content });
      continue;
    }
    const calls = m.tool_calls ?? [];
    if (mode === 'grammar') {
      const text = calls.length
        ? JSON.stringify({ tool_calls: calls.map((c) => ({ name: c.function.name, arguments: parseArgs(c.function.arguments) })) })
        : JSON.stringify({ answer: m.content ?? '' });
      out.push({ type: 'model', response: [text] });
      continue;
    }
    const response: ChatModelFunctionCall[] = calls.map((c) => ({
      type: 'functionCall',
      name: c.function.name,
      params: parseArgs(c.function.arguments),
      result: results.get(c.id) ?? '(no result)',
    }));
    out.push({ type: 'model', response: [...(m.content ? [m.content] : []), ...response] });
  }
  flushResults();
  out.push({ type: 'model', response: [] });
  return out;
}
