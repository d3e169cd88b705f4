// The messages between the local provider and its model process
// (llama-process.mjs). The process is ours, but it runs native code on a file
// the user chose, so what comes back is checked like any other input.
import { z } from 'zod';

export const ErrorKindSchema = z.enum(['load', 'context', 'aborted', 'internal']);
export type LocalErrorKind = z.infer<typeof ErrorKindSchema>;

export const FromProcessSchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('loaded'),
    trainContextSize: z.number().int().positive(),
    chatWrapper: z.string(),
    /** The model's chat template renders tool definitions: use native function calling. */
    nativeTools: z.boolean(),
    loadMs: z.number(),
  }),
  z.object({ type: z.literal('text'), id: z.number(), delta: z.string() }),
  z.object({ type: z.literal('reasoning'), id: z.number(), delta: z.string() }),
  z.object({
    type: z.literal('done'),
    id: z.number(),
    text: z.string(),
    reasoning: z.string(),
    functionCalls: z.array(z.object({ name: z.string(), params: z.unknown() })),
    stopReason: z.string(),
    promptTokens: z.number().int().nonnegative(),
    completionTokens: z.number().int().nonnegative(),
    /** From the request reaching the process to the first generated token (includes reading the prompt). */
    timeToFirstTokenMs: z.number().nullable(),
    durationMs: z.number(),
    contextSize: z.number().int().positive(),
  }),
  z.object({
    type: z.literal('error'),
    id: z.number().optional(),
    kind: ErrorKindSchema,
    message: z.string(),
    promptTokens: z.number().optional(),
    limit: z.number().optional(),
  }),
]);
export type FromProcess = z.infer<typeof FromProcessSchema>;

export interface LoadRequest {
  type: 'load';
  file: string;
  gpu: false | 'auto';
  /** Largest context the process may allocate, in tokens (the model's trained context caps it too). */
  maxContext: number;
  /** CPU threads for generation (ggml's spinning thread pool loses badly when it asks for more cores than are free). */
  threads: number;
}

export interface GenerateRequest {
  type: 'generate';
  id: number;
  /** node-llama-cpp ChatHistoryItem[], ending with an empty model turn. */
  history: unknown[];
  /** Grammar fallback: the reply's JSON schema (grammar-schema.ts). */
  grammar?: unknown;
  /** Native function calling: node-llama-cpp ChatModelFunctions (params as grammar schemas). */
  functions?: Record<string, { description: string; params: unknown }>;
  maxTokens: number;
  temperature: number;
  seed: number;
}

export type ToProcess = LoadRequest | GenerateRequest | { type: 'abort'; id: number } | { type: 'dispose' };
