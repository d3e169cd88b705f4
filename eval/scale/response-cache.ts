// An opt-in cache of model answers keyed by the request (eval --cache DIR): the
// model spec, the messages, the tools, the tool choice and the temperature,
// hashed. A run that asks what an earlier run asked gets the recorded answer —
// its tool calls, their ids and its token counts — without calling the model,
// so scorers, reports and the harness can be run again at no cost and give the
// same rows. Only answers are kept: a failed call is never cached. One JSON file
// per request, written whole and renamed into place, so threads and processes
// sharing the folder never read half a file.
import { createHash } from 'node:crypto';
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { readUserTextSync } from '../../base/user-file';
import path from 'node:path';
import { z } from 'zod';
import { AssistantMessageSchema, type Completion, type CompletionRequest, type Model, ToolCallSchema } from '../../agents/models/model';

export const CACHE_FORMAT = 'skillbridge-response-cache/1';

const CachedSchema = z.object({
  format: z.literal(CACHE_FORMAT),
  completion: z.object({
    message: AssistantMessageSchema,
    toolCalls: z.array(ToolCallSchema),
    reasoning: z.string().optional(),
    usage: z
      .object({ promptTokens: z.number(), completionTokens: z.number(), totalTokens: z.number(), costUsd: z.number().optional() })
      .optional(),
    finishReason: z.string().optional(),
    toolCallSource: z.enum(['native', 'text']).optional(),
  }),
});

/** What a cache did, for a run's figures and for tests. */
export interface CacheCounts {
  hits: number;
  misses: number;
}

/** The key of a request: everything that decides the answer, nothing that does not (callbacks, the abort signal). */
export function requestKey(modelId: string, req: CompletionRequest): string {
  const asked = {
    model: modelId,
    messages: req.messages,
    tools: req.tools ?? null,
    toolChoice: req.toolChoice ?? null,
    temperature: req.temperature ?? null,
  };
  return createHash('sha256').update(CACHE_FORMAT).update(JSON.stringify(asked)).digest('hex');
}

function fileOf(dir: string, key: string): string {
  return path.join(dir, key.slice(0, 2), `${key}.json`);
}

function read(file: string): Completion | undefined {
  let text: string;
  try {
    // The folder is one a person named: an entry is read as any file they name (a regular file, within the size cap).
    text = readUserTextSync(file);
  } catch {
    return undefined;
  }
  try {
    const r = CachedSchema.safeParse(JSON.parse(text));
    // A damaged entry is a miss: the model is asked again and the entry rewritten.
    return r.success ? (r.data.completion as Completion) : undefined;
  } catch {
    return undefined;
  }
}

function write(file: string, c: Completion): void {
  mkdirSync(path.dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
  const completion = {
    message: c.message,
    toolCalls: c.toolCalls,
    ...(c.reasoning !== undefined ? { reasoning: c.reasoning } : {}),
    ...(c.usage ? { usage: c.usage } : {}),
    ...(c.finishReason !== undefined ? { finishReason: c.finishReason } : {}),
    ...(c.toolCallSource ? { toolCallSource: c.toolCallSource } : {}),
  };
  writeFileSync(tmp, JSON.stringify({ format: CACHE_FORMAT, completion }));
  renameSync(tmp, file);
}

/** The model with answers served from, and recorded into, `dir`. */
export function withResponseCache(model: Model, dir: string, counts: CacheCounts = { hits: 0, misses: 0 }): Model {
  return {
    id: model.id,
    async complete(req) {
      const file = fileOf(dir, requestKey(model.id, req));
      const hit = read(file);
      if (hit) {
        counts.hits++;
        // Whoever watches the stream sees the answer once, whole.
        if (hit.reasoning) req.onReasoning?.(hit.reasoning);
        if (hit.message.content) req.onText?.(hit.message.content);
        return hit;
      }
      counts.misses++;
      const c = await model.complete(req);
      try {
        write(file, c);
      } catch {
        // A cache that cannot be written costs only the next run's calls.
      }
      return c;
    },
  };
}
