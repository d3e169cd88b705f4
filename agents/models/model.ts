// The provider-neutral Model seam: OpenAI chat-completion messages in, one
// assistant turn out. Adapters (OpenAI-compatible servers, scripted replays)
// hide server quirks so the flow manager sees one shape.
import { z } from 'zod';
import { ImagePartSchema, type ImagePart } from '../../base/image-part';

export const ToolCallSchema = z.object({
  id: z.string(),
  type: z.literal('function'),
  function: z.object({ name: z.string(), arguments: z.string() }),
});
export type ToolCall = z.infer<typeof ToolCallSchema>;

// Pictures (the robot's camera) travel with user messages; see base/image-part.ts.
export { ImagePartSchema, type ImagePart };

export const SystemMessageSchema = z.object({ role: z.literal('system'), content: z.string() });
/** `images` go with the text; every reader of `content` keeps working as before. */
export const UserMessageSchema = z.object({ role: z.literal('user'), content: z.string(), images: z.array(ImagePartSchema).optional() });
export const AssistantMessageSchema = z.object({
  role: z.literal('assistant'),
  content: z.string().nullable().optional(),
  tool_calls: z.array(ToolCallSchema).optional(),
});
export const ToolMessageSchema = z.object({ role: z.literal('tool'), tool_call_id: z.string(), content: z.string() });
export const ChatMessageSchema = z.discriminatedUnion('role', [
  SystemMessageSchema,
  UserMessageSchema,
  AssistantMessageSchema,
  ToolMessageSchema,
]);

export type SystemMessage = z.infer<typeof SystemMessageSchema>;
export type UserMessage = z.infer<typeof UserMessageSchema>;
export type AssistantMessage = z.infer<typeof AssistantMessageSchema>;
export type ToolMessage = z.infer<typeof ToolMessageSchema>;
export type ChatMessage = z.infer<typeof ChatMessageSchema>;

/** A function the model may call, in the OpenAI `tools` shape. */
export interface ModelTool {
  type: 'function';
  function: { name: string; description: string; parameters: Record<string, unknown> };
}

export interface Usage {
  promptTokens: number;
  completionTokens: number;
  totalTokens: number;
  /** The request's price in US dollars, where the provider reports it (OpenRouter's usage.cost). */
  costUsd?: number;
  /** From the request to the first generated token, where the provider measures it (the local provider). */
  timeToFirstTokenMs?: number;
  /** Generation speed after the first token, where the provider measures it (the local provider). */
  tokensPerSecond?: number;
}

export interface CompletionRequest {
  /** The conversation so far: the flow's own list, unchanged while the call runs. A model that keeps a request after answering copies it. */
  messages: readonly ChatMessage[];
  tools?: readonly ModelTool[];
  /** 'required' forces a tool call where the server supports it; adapters drop it where not. */
  toolChoice?: 'auto' | 'required' | 'none';
  temperature?: number;
  signal?: AbortSignal;
  /** Called with each streamed text delta; adapters that cannot stream call it once with the whole text. */
  onText?: (delta: string) => void;
  /** Called with each streamed delta of the model's reasoning ("thinking"), kept out of onText. */
  onReasoning?: (delta: string) => void;
  /**
   * Called before an adapter retries (rate limit, server error, dropped stream).
   * Text already passed to onText belongs to the abandoned attempt: reset any display.
   */
  onRetry?: (info: RetryInfo) => void;
}

export interface RetryInfo {
  /** 1 for the first retry. */
  attempt: number;
  delayMs: number;
  /** Why, as a person would read it ("429 rate limited", "connection dropped"). */
  reason: string;
}

export interface Completion {
  /** The assistant turn as it goes into the history (tool calls assembled, ids assigned). */
  message: AssistantMessage;
  /** Convenience: message.tool_calls ?? []. */
  toolCalls: ToolCall[];
  /** The model's reasoning ("thinking"), when the server sent any; never part of `message`. */
  reasoning?: string;
  usage?: Usage;
  finishReason?: string;
  /** How the tool calls were obtained: native tool calls, or parsed from text by a fallback. */
  toolCallSource?: 'native' | 'text';
}

export interface Model {
  /** The spec string this model was made from, e.g. `ollama:qwen3:8b` (never holds a key). */
  readonly id: string;
  /**
   * 'images': the model reads image parts in user messages (declared by its spec, or
   * found by the probe); absent or 'text': images are dropped, so no camera tool is offered.
   */
  readonly input?: 'text' | 'images';
  complete(req: CompletionRequest): Promise<Completion>;
}

export type ModelErrorKind = 'unreachable' | 'auth' | 'rate_limit' | 'server' | 'bad_response' | 'timeout' | 'aborted' | 'config';

/** A model call that failed in a way the user should read (endpoint, status, fix). */
export class ModelError extends Error {
  /** The endpoint that failed, e.g. http://127.0.0.1:11434/v1. */
  readonly endpoint?: string;
  /** What to do about it, one sentence (also part of `message`). */
  readonly fix?: string;

  constructor(
    message: string,
    readonly kind: ModelErrorKind,
    readonly status?: number,
    details: { endpoint?: string; fix?: string; cause?: unknown } = {},
  ) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.name = 'ModelError';
    if (details.endpoint !== undefined) this.endpoint = details.endpoint;
    if (details.fix !== undefined) this.fix = details.fix;
  }
}

export function toModelTools(schemas: readonly { name: string; description: string; parameters: Record<string, unknown> }[]): ModelTool[] {
  return schemas.map((s) => ({ type: 'function', function: { name: s.name, description: s.description, parameters: s.parameters } }));
}
