// Reading what an OpenAI-compatible server answers: lenient schemas (local
// servers omit fields the SDK calls required), streamed tool calls assembled by
// id or index, inline <think> reasoning split off. A reply over
// MAX_COMPLETION_CHARS is refused: model output is untrusted and unbounded.
import { z } from 'zod';
import { ModelError, type Completion, type ToolCall, type Usage } from './model';
import { splitThink, ThinkSplitter } from './reasoning';

/** Text, reasoning and tool-call arguments of one answer, together (characters). */
export const MAX_COMPLETION_CHARS = 2 * 1024 * 1024;

// Lenient schemas: local servers omit fields the SDK types call required, and
// some send arguments as an object rather than a JSON string.
const ArgsZ = z.union([z.string(), z.record(z.string(), z.unknown())]).nullish();
const UsageZ = z
  .object({
    prompt_tokens: z.number().nullish(),
    completion_tokens: z.number().nullish(),
    total_tokens: z.number().nullish(),
    // OpenRouter (and a few gateways) report the request's price here, in US dollars.
    cost: z.number().nonnegative().nullish().catch(undefined),
  })
  .nullish();
const ChunkZ = z.object({
  choices: z
    .array(
      z.object({
        delta: z
          .object({
            content: z.string().nullish(),
            reasoning_content: z.string().nullish(),
            reasoning: z.string().nullish(),
            tool_calls: z
              .array(
                z.object({
                  index: z.number().nullish(),
                  id: z.string().nullish(),
                  function: z.object({ name: z.string().nullish(), arguments: ArgsZ }).nullish(),
                }),
              )
              .nullish(),
          })
          .nullish(),
        finish_reason: z.string().nullish(),
      }),
    )
    .nullish(),
  usage: UsageZ,
});
const CompletionZ = z.object({
  choices: z
    .array(
      z.object({
        message: z.object({
          content: z.string().nullish(),
          reasoning_content: z.string().nullish(),
          reasoning: z.string().nullish(),
          tool_calls: z.array(z.object({ id: z.string().nullish(), function: z.object({ name: z.string(), arguments: ArgsZ }) })).nullish(),
        }),
        finish_reason: z.string().nullish(),
      }),
    )
    .min(1),
  usage: UsageZ,
});

type ChunkDelta = NonNullable<NonNullable<z.infer<typeof ChunkZ>['choices']>[number]['delta']>;
type ToolCallDelta = NonNullable<ChunkDelta['tool_calls']>[number];

function argsText(a: z.infer<typeof ArgsZ>): string {
  return a === undefined || a === null ? '' : typeof a === 'string' ? a : JSON.stringify(a);
}

function toUsage(u: z.infer<typeof UsageZ>): Usage | undefined {
  if (!u) return undefined;
  const promptTokens = u.prompt_tokens ?? 0;
  const completionTokens = u.completion_tokens ?? 0;
  return {
    promptTokens,
    completionTokens,
    totalTokens: u.total_tokens ?? promptTokens + completionTokens,
    ...(typeof u.cost === 'number' && Number.isFinite(u.cost) ? { costUsd: u.cost } : {}),
  };
}

let idSeq = 0;
/** Ids for calls the server sent without one (the history needs them to pair results). */
export function generatedCallId(): string {
  return `call_gen_${Date.now().toString(36)}_${(++idSeq).toString(36)}`;
}

/**
 * Assembles streamed tool calls. Keyed by id when present, else by index: a new
 * id at an occupied index starts a new call (Ollama sends every call at index 0),
 * split arguments are concatenated, and a nameless continuation joins the
 * latest call at its index.
 */
export class ToolCallAssembler {
  private readonly calls: Array<{ id?: string; name: string; args: string }> = [];
  private readonly byId = new Map<string, number>();
  private readonly byIndex = new Map<number, number>();

  push(tc: ToolCallDelta): void {
    const index = tc.index ?? undefined;
    const id = tc.id || undefined;
    const name = tc.function?.name || undefined;
    const args = argsText(tc.function?.arguments);
    let at: number | undefined;
    if (id !== undefined) {
      at = this.byId.get(id);
      if (at === undefined && index !== undefined) {
        // A call begun without an id may receive it later (same index, no id yet).
        const prev = this.byIndex.get(index);
        if (prev !== undefined && this.calls[prev]?.id === undefined && !this.calls[prev]?.name) at = prev;
      }
    } else {
      at = index !== undefined ? this.byIndex.get(index) : this.calls.length - 1;
      const prev = at !== undefined ? this.calls[at] : undefined;
      // No id, but a second name on a call whose arguments are complete: a new call.
      if (prev && name && prev.name && (prev.name !== name || isCompleteJson(prev.args))) at = undefined;
      if (at !== undefined && at < 0) at = undefined;
    }
    if (at === undefined) {
      at = this.calls.length;
      this.calls.push({ name: '', args: '' });
    }
    const call = this.calls[at];
    if (!call) return;
    if (id !== undefined && call.id === undefined) {
      call.id = id;
      this.byId.set(id, at);
    }
    if (index !== undefined) this.byIndex.set(index, at);
    if (name && !call.name) call.name = name;
    call.args += args;
  }

  result(): ToolCall[] {
    return this.calls
      .filter((c) => c.name || c.args)
      .map((c) => ({
        id: c.id ?? generatedCallId(),
        type: 'function',
        function: { name: c.name, arguments: c.args.trim() ? c.args : '{}' },
      }));
  }
}

function isCompleteJson(s: string): boolean {
  if (!s.trim()) return false;
  try {
    JSON.parse(s);
    return true;
  } catch {
    return false;
  }
}

export class StreamAssembler {
  private text = '';
  private reasoning = '';
  private readonly tools = new ToolCallAssembler();
  private readonly think: ThinkSplitter;
  private finishReason: string | undefined;
  private usage: Usage | undefined;
  private size = 0;
  /** A finish_reason arrived: the stream was not cut short. */
  finished = false;

  constructor(
    private readonly endpoint: string,
    onText: ((d: string) => void) | undefined,
    private readonly onReasoning: ((d: string) => void) | undefined,
  ) {
    // Inline <think> text goes to onReasoning as it streams; the whole text is split again at the end.
    this.think = new ThinkSplitter(
      (d) => onText?.(d),
      (d) => onReasoning?.(d),
    );
  }

  push(raw: unknown): void {
    const parsed = ChunkZ.safeParse(raw);
    if (!parsed.success) return; // keep-alives and vendor events carry nothing we use
    const chunk = parsed.data;
    if (chunk.usage) this.usage = toUsage(chunk.usage);
    for (const choice of chunk.choices ?? []) {
      const d = choice.delta;
      const r = d?.reasoning_content || d?.reasoning;
      if (r) {
        this.reasoning += r;
        this.onReasoning?.(r);
      }
      if (d?.content) {
        this.text += d.content;
        this.think.push(d.content);
      }
      for (const tc of d?.tool_calls ?? []) this.tools.push(tc);
      this.size +=
        (r?.length ?? 0) +
        (d?.content?.length ?? 0) +
        (d?.tool_calls?.reduce((n, tc) => n + argsText(tc.function?.arguments).length, 0) ?? 0);
      if (this.size > MAX_COMPLETION_CHARS) throw tooLong(this.endpoint, this.size);
      if (choice.finish_reason) {
        this.finishReason = choice.finish_reason;
        this.finished = true;
      }
    }
  }

  result(): Completion {
    this.think.end();
    return completion(this.text, this.reasoning, this.tools.result(), this.finishReason, this.usage);
  }
}

function completion(
  content: string,
  fieldReasoning: string,
  toolCalls: ToolCall[],
  finishReason: string | undefined,
  usage: Usage | undefined,
): Completion {
  const split = splitThink(content);
  const text = split.text;
  const reasoning = [fieldReasoning.trim(), split.reasoning].filter(Boolean).join('\n\n');
  // Tool calls decide, not finish_reason: Ollama says "stop" beside calls.
  const has = toolCalls.length > 0;
  return {
    message: has ? { role: 'assistant', content: text || null, tool_calls: toolCalls } : { role: 'assistant', content: text },
    toolCalls,
    ...(reasoning ? { reasoning } : {}),
    ...(usage ? { usage } : {}),
    // 'length' survives: a call cut off by the token limit has broken arguments.
    ...(has && finishReason !== 'length' ? { finishReason: 'tool_calls' } : finishReason ? { finishReason } : {}),
    ...(has ? { toolCallSource: 'native' as const } : {}),
  };
}

export function fromCompletion(raw: unknown, endpoint: string): Completion {
  const parsed = CompletionZ.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new ModelError(
      `${endpoint} sent an answer that is not a chat completion (${issue ? `${issue.path.join('.') || 'body'}: ${issue.message}` : 'invalid'}).`,
      'bad_response',
      undefined,
      { endpoint, fix: 'Check that the base URL points at an OpenAI-compatible /v1 endpoint.' },
    );
  }
  const choice = parsed.data.choices[0];
  const calls = (choice?.message.tool_calls ?? []).map((tc): ToolCall => ({
    id: tc.id || generatedCallId(),
    type: 'function',
    function: { name: tc.function.name, arguments: argsText(tc.function.arguments) || '{}' },
  }));
  const size =
    (choice?.message.content?.length ?? 0) +
    (choice?.message.reasoning_content?.length ?? choice?.message.reasoning?.length ?? 0) +
    calls.reduce((n, c) => n + c.function.arguments.length, 0);
  if (size > MAX_COMPLETION_CHARS) throw tooLong(endpoint, size);
  return completion(
    choice?.message.content ?? '',
    choice?.message.reasoning_content || choice?.message.reasoning || '',
    calls,
    choice?.finish_reason ?? undefined,
    toUsage(parsed.data.usage),
  );
}

function tooLong(endpoint: string, size: number): ModelError {
  const fix = 'Lower the server\u2019s max_tokens, or check that the model is not stuck repeating itself.';
  return new ModelError(
    `${endpoint} sent an answer of over ${Math.floor(size / 1024)} KiB; answers are limited to ${MAX_COMPLETION_CHARS / 1024} KiB. ${fix}`,
    'bad_response',
    undefined,
    { endpoint, fix },
  );
}
