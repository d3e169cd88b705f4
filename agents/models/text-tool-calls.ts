// Tool calls written as text, for models without native tool calling (and for
// servers that leak calls into `content`: LM Studio with tool_choice "required",
// Ollama and llama.cpp template mismatches). RAIDER (paper 001 §3.3) prompts the
// model to write `call_tool{tool: name, args: [a, b]}` and its program flow
// manager parses that; other models write JSON (`{"name":…, "arguments":…}`) or
// Hermes `<tool_call>{…}</tool_call>`. The parser is text-parse.ts, the prompt
// text-prompt.ts; this module wraps a Model with them.
import { HeldBackText } from './held-back-text';
import { ModelError, type Completion, type CompletionRequest, type Model, type ToolCall } from './model';
import { parseTextToolCalls, type TextToolCallFormat } from './text-parse';
import { textHistory } from './text-prompt';

export {
  MAX_TEXT_TOOL_CALL_INPUT,
  parseTextToolCalls,
  positional,
  type ParsedTextToolCall,
  type TextToolCallFormat,
  type TextToolCallParse,
} from './text-parse';
export { describeTools, formatInstructions, renderTextToolCall, textHistory } from './text-prompt';
export { parseJsonish } from './text-scan';

export const TEXT_TOOL_CALL_FORMATS: readonly TextToolCallFormat[] = ['raider', 'json', 'hermes'];

export interface TextToolCallOptions {
  format: TextToolCallFormat;
  /** Defaults to the wrapped model's id. */
  id?: string;
}

/**
 * For models without native tool calling: the tool list and the call format go
 * into the system message, no `tools` are sent, and calls are parsed from the
 * reply (toolCallSource 'text'). Earlier calls and results in the history are
 * rewritten as text too, since such servers may drop or reject `tool` messages.
 */
export function withTextToolCalls(model: Model, opts: TextToolCallOptions): Model {
  let seq = 0;
  return {
    id: opts.id ?? model.id,
    ...(model.input ? { input: model.input } : {}),
    async complete(req: CompletionRequest): Promise<Completion> {
      const tools = req.tools ?? [];
      const messages = textHistory(req.messages, tools, opts.format, req.toolChoice);
      const filter = req.onText ? new HeldBackText(req.onText) : undefined;
      const inner = await model.complete({
        ...req,
        messages,
        tools: undefined,
        toolChoice: undefined,
        onText: filter ? (d) => filter.push(d) : undefined,
        onRetry: (info) => {
          filter?.reset();
          req.onRetry?.(info);
        },
      });
      if (inner.toolCalls.length) {
        filter?.end(inner.message.content ?? '');
        return inner;
      }
      const content = inner.message.content ?? '';
      const parsed = tools.length && req.toolChoice !== 'none' ? parseTextToolCalls(content, { tools }) : { calls: [], text: content };
      throwIfAborted(req.signal);
      filter?.end(parsed.text);
      if (!parsed.calls.length) return { ...inner, message: { role: 'assistant', content } };
      const turn = ++seq;
      const toolCalls: ToolCall[] = parsed.calls.map((c, i) => ({
        id: `call_text_${turn}_${i + 1}`,
        type: 'function',
        function: { name: c.name, arguments: c.arguments },
      }));
      return {
        ...inner,
        message: { role: 'assistant', content: parsed.text || null, tool_calls: toolCalls },
        toolCalls,
        finishReason: 'tool_calls',
        toolCallSource: 'text',
      };
    },
  };
}

/**
 * The guarded fallback for adapters whose model may leave calls in its text (a
 * local server's template mismatch, a scripted demo): only calls to tools the
 * request offered, and only when no native call came.
 */
export function textToolCallFallback(result: Completion, req: CompletionRequest, newId: () => string): Completion {
  const content = result.message.content;
  if (!req.tools?.length || result.toolCalls.length || !content || req.toolChoice === 'none') return result;
  const parsed = parseTextToolCalls(content, { tools: req.tools, onlyKnown: true });
  throwIfAborted(req.signal);
  if (!parsed.calls.length) return result;
  const toolCalls: ToolCall[] = parsed.calls.map((c) => ({
    id: newId(),
    type: 'function',
    function: { name: c.name, arguments: c.arguments },
  }));
  return {
    ...result,
    message: { role: 'assistant', content: parsed.text || null, tool_calls: toolCalls },
    toolCalls,
    finishReason: 'tool_calls',
    toolCallSource: 'text',
  };
}

/** Parsing is bounded, but a Stop or time limit that came meanwhile wins over its result. */
function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new ModelError('The request was aborted.', 'aborted', undefined, { cause: signal.reason });
}
