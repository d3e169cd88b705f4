// A Model that replays assistant turns: deterministic tests, demos and
// benchmarks of workflows without a language model. A script is a JSON array
// of OpenAI assistant messages; `fromFunction` computes each turn instead.
import { readFailure, readUserTextSync } from '../../base/user-file';
import { z } from 'zod';
import { ModelError, type AssistantMessage, type Completion, type CompletionRequest, type Model, type ToolCall } from './model';
import { textToolCallFallback } from './text-tool-calls';

const ScriptToolCallZ = z.object({
  id: z.string().min(1).optional(),
  type: z.literal('function').optional(),
  function: z.object({
    name: z.string().min(1),
    // Hand-written scripts read better with an object; the history needs a string.
    arguments: z.union([z.string(), z.record(z.string(), z.unknown())]).optional(),
  }),
});

export const ScriptedTurnSchema = z.strictObject({
  role: z.literal('assistant').optional(),
  content: z.string().nullable().optional(),
  tool_calls: z.array(ScriptToolCallZ).optional(),
  /** Reasoning ("thinking") to report beside the turn, as vLLM and LM Studio send it. */
  reasoning_content: z.string().optional(),
});
export type ScriptedTurn = z.input<typeof ScriptedTurnSchema>;

export interface ScriptedModelOptions {
  /** Defaults to `scripted`. */
  id?: string;
  /** Simulated latency per turn (ms), during which an abort is honoured. */
  delayMs?: number;
  /** Keep every request in `requests` (default true, for tests); a long run (a benchmark) turns it off, or the kept histories grow with the square of its turns. */
  keepRequests?: boolean;
}

/** A Model whose requests a test can inspect. */
export interface ScriptedModel extends Model {
  /** Every request received, in order (none when made with `keepRequests: false`). */
  readonly requests: CompletionRequest[];
  /** Turns not yet replayed (Infinity for fromFunction). */
  remaining(): number;
}

/** A validated turn: the message for the history, and any reasoning reported beside it. */
export interface ParsedTurn {
  message: AssistantMessage;
  reasoning?: string;
}

/** Validates a script; errors name the turn index and the field. */
export function parseScript(turns: unknown, source = 'script'): ParsedTurn[] {
  if (!Array.isArray(turns))
    throw new ModelError(`${source}: expected a JSON array of assistant messages, got ${describe(turns)}.`, 'config');
  return turns.map((t, i) => normaliseTurn(t, i, source));
}

function normaliseTurn(turn: unknown, index: number, source: string): ParsedTurn {
  const r = ScriptedTurnSchema.safeParse(turn);
  if (!r.success) {
    const issues = r.error.issues
      .map((iss) => `${source}[${index}]${iss.path.map((p) => `.${String(p)}`).join('')}: ${iss.message}`)
      .join('; ');
    throw new ModelError(`Invalid scripted turn: ${issues}`, 'config');
  }
  const calls: ToolCall[] = (r.data.tool_calls ?? []).map((tc, j) => {
    const args = tc.function.arguments;
    let text = args === undefined ? '{}' : typeof args === 'string' ? args : JSON.stringify(args);
    if (typeof args === 'string' && !args.trim()) text = '{}';
    return { id: tc.id ?? `call_${index}_${j}`, type: 'function', function: { name: tc.function.name, arguments: text } };
  });
  const message: AssistantMessage = calls.length
    ? { role: 'assistant', content: r.data.content ?? null, tool_calls: calls }
    : { role: 'assistant', content: r.data.content ?? '' };
  return r.data.reasoning_content ? { message, reasoning: r.data.reasoning_content } : { message };
}

function describe(v: unknown): string {
  return v === null ? 'null' : Array.isArray(v) ? 'an array' : typeof v;
}

export function createScriptedModel(turns: unknown, opts: ScriptedModelOptions = {}): ScriptedModel {
  const id = opts.id ?? 'scripted';
  const script = parseScript(turns, id);
  let next = 0;
  return build(
    id,
    opts,
    () => {
      const turn = script[next];
      if (!turn) {
        throw new ModelError(
          `${id}: the script has no turn ${next} (it has ${script.length}). Add assistant turns to the script, or end the workflow sooner.`,
          'config',
        );
      }
      next++;
      return turn;
    },
    () => script.length - next,
  );
}

/** Reads a script from a JSON file (`scripted:FILE`). */
export function loadScriptedModel(file: string, opts: ScriptedModelOptions = {}): ScriptedModel {
  let text: string;
  try {
    text = readUserTextSync(file);
  } catch (e) {
    throw new ModelError(`Cannot read the script ${file}: ${readFailure(e)}`, 'config');
  }
  return createScriptedModel(parseScriptJson(text, `The script ${file}`), { id: `scripted:${file}`, ...opts });
}

/**
 * JSON text of a script (a UTF-8 BOM is allowed). The error says where, not
 * what: the parser's message quotes the text, which need not be a script at all.
 */
export function parseScriptJson(text: string, what: string): unknown {
  const body = text.replace(/^\uFEFF/, '');
  try {
    return JSON.parse(body) as unknown;
  } catch (e) {
    const at = /position (\d+)/.exec(e instanceof Error ? e.message : '');
    const pos = at ? Number(at[1]) : -1;
    const before = pos >= 0 ? body.slice(0, pos) : '';
    const where = pos >= 0 ? ` at line ${before.split('\n').length}, column ${pos - before.lastIndexOf('\n')}` : '';
    throw new ModelError(`${what} is not valid JSON${where}: expected a JSON array of assistant messages.`, 'config');
  }
}

/** A Model computing each turn from the request (turn counts from 0). */
export function fromFunction(
  fn: (req: CompletionRequest, turn: number) => ScriptedTurn | Promise<ScriptedTurn>,
  opts: ScriptedModelOptions = {},
): ScriptedModel {
  const id = opts.id ?? 'scripted';
  let turn = 0;
  return build(
    id,
    opts,
    async (req) => {
      const n = turn++;
      return normaliseTurn(await fn(req, n), n, id);
    },
    () => Infinity,
  );
}

function build(
  id: string,
  opts: ScriptedModelOptions,
  nextTurn: (req: CompletionRequest) => ParsedTurn | Promise<ParsedTurn>,
  remaining: () => number,
): ScriptedModel {
  const requests: CompletionRequest[] = [];
  let textIds = 0;
  return {
    id,
    requests,
    remaining,
    async complete(req: CompletionRequest): Promise<Completion> {
      if (opts.keepRequests !== false) requests.push({ ...req, messages: req.messages.slice() });
      const abortedError = (): ModelError => new ModelError(`${id}: the request was aborted.`, 'aborted');
      if (req.signal?.aborted) throw abortedError();
      if (opts.delayMs) await delay(opts.delayMs, req.signal, abortedError);
      const { message, reasoning } = await nextTurn(req);
      if (req.signal?.aborted) throw abortedError();
      if (reasoning) req.onReasoning?.(reasoning);
      if (message.content) req.onText?.(message.content);
      const toolCalls = message.tool_calls ?? [];
      const done: Completion = {
        message,
        toolCalls,
        ...(reasoning ? { reasoning } : {}),
        finishReason: toolCalls.length ? 'tool_calls' : 'stop',
        ...(toolCalls.length ? { toolCallSource: 'native' as const } : {}),
      };
      // As a local server's adapter does: calls the turn wrote as text (to offered tools) become calls.
      return textToolCallFallback(done, req, () => `call_text_${++textIds}`);
    },
  };
}

function delay(ms: number, signal: AbortSignal | undefined, err: () => Error): Promise<void> {
  return new Promise((resolve, reject) => {
    const t = setTimeout(() => {
      signal?.removeEventListener('abort', stop);
      resolve();
    }, ms);
    const stop = (): void => {
      clearTimeout(t);
      reject(err());
    };
    signal?.addEventListener('abort', stop, { once: true });
  });
}
