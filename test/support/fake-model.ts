// A tiny in-process Model for runtime tests: it replays assistant turns (or asks
// a function for each one), can be slow, hang until aborted, or fail, and keeps a
// copy of every request so a test can read what the model was shown.
import type { ChatMessage, Completion, CompletionRequest, Model, ToolCall, Usage } from '../../agents/models/model';
import { ModelError } from '../../agents/models/model';

export interface FakeTurn {
  content?: string | null;
  toolCalls?: Array<{ id?: string; name: string; arguments?: string | Record<string, unknown> }>;
  usage?: Usage;
  /** Reasoning reported beside the turn (through onReasoning and Completion.reasoning). */
  reasoning?: string;
  /** Answer after this many ms (aborts early with the signal, like a real adapter). */
  delayMs?: number;
  /** Never answer; reject only when the request's signal aborts. */
  hang?: boolean;
  /** With `hang` or `delayMs`: do not honour the signal (a stuck server). */
  ignoreSignal?: boolean;
  /** Fail with this error instead of answering. */
  error?: Error;
}

export type FakeStep = FakeTurn | ((req: CompletionRequest, index: number) => FakeTurn | Promise<FakeTurn>);

export interface SeenRequest {
  messages: ChatMessage[];
  tools: string[];
  toolChoice: CompletionRequest['toolChoice'];
}

export class FakeModel implements Model {
  readonly id: string;
  readonly requests: SeenRequest[] = [];
  private next = 0;
  private callIds = 0;

  constructor(
    private readonly steps: FakeStep[] | ((req: CompletionRequest, index: number) => FakeTurn | Promise<FakeTurn>),
    id = 'fake:model',
  ) {
    this.id = id;
  }

  async complete(req: CompletionRequest): Promise<Completion> {
    const index = this.next++;
    this.requests.push({
      messages: structuredClone([...req.messages]),
      tools: (req.tools ?? []).map((t) => t.function.name),
      toolChoice: req.toolChoice,
    });
    const step = typeof this.steps === 'function' ? this.steps : this.steps[index];
    if (!step) throw new ModelError(`fake model: no turn scripted for request ${index + 1}`, 'bad_response');
    const turn = typeof step === 'function' ? await step(req, index) : step;
    const signal = turn.ignoreSignal ? undefined : req.signal;
    if (turn.hang) await waitForAbort(signal);
    if (turn.delayMs) await delay(turn.delayMs, signal);
    if (turn.error) throw turn.error;
    if (turn.reasoning) req.onReasoning?.(turn.reasoning);
    if (turn.content) req.onText?.(turn.content);
    const toolCalls: ToolCall[] = (turn.toolCalls ?? []).map((c) => ({
      id: c.id ?? `fake_${++this.callIds}`,
      type: 'function',
      function: { name: c.name, arguments: typeof c.arguments === 'string' ? c.arguments : JSON.stringify(c.arguments ?? {}) },
    }));
    return {
      message: { role: 'assistant', content: turn.content ?? null, ...(toolCalls.length ? { tool_calls: toolCalls } : {}) },
      toolCalls,
      ...(turn.usage ? { usage: turn.usage } : {}),
      ...(turn.reasoning ? { reasoning: turn.reasoning } : {}),
      finishReason: toolCalls.length ? 'tool_calls' : 'stop',
      toolCallSource: 'native',
    };
  }
}

const aborted = () => new ModelError('the request was aborted', 'aborted');

function waitForAbort(signal: AbortSignal | undefined): Promise<never> {
  return new Promise((_resolve, reject) => {
    if (!signal) return; // hangs for good: the flow must not wait for it
    if (signal.aborted) return reject(aborted());
    signal.addEventListener('abort', () => reject(aborted()), { once: true });
  });
}

function delay(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(aborted());
    const t = setTimeout(resolve, ms);
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(t);
        reject(aborted());
      },
      { once: true },
    );
  });
}

/** Shorthand for a turn that calls one tool. */
export function call(name: string, args: Record<string, unknown> | string = {}, extra: Omit<FakeTurn, 'toolCalls'> = {}): FakeTurn {
  return { ...extra, toolCalls: [{ name, arguments: args }] };
}

/** Shorthand for a final answer. */
export function answer(text: string, extra: Omit<FakeTurn, 'content' | 'toolCalls'> = {}): FakeTurn {
  return { ...extra, content: text };
}
