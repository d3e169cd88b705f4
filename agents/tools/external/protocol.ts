// The wire between Skillbridge and a tool that runs outside it (paper 004 §3.1:
// "session isolation additionally supports concurrent calls and remote
// execution"). A source declares its tools with cards and JSON Schemas, answers
// calls by id, and honours cancel. Everything that arrives is validated here.
import { z } from 'zod';
import { TOOL_NAME } from '../tool';

export const ExternalCardSchema = z.strictObject({
  capability: z.string().min(1).optional(),
  outputs: z.string().min(1),
  whenToUse: z.string().min(1),
  constraints: z.string().optional(),
  mode: z.enum(['on-demand', 'continuous', 'event']).optional(),
  dimension: z.enum(['perception', 'cognition', 'reasoning', 'execution']),
  tags: z.array(z.string()).optional(),
});

export const ExternalToolDeclSchema = z.strictObject({
  name: z.string().regex(TOOL_NAME, 'letters, digits, _ and - only, at most 64'),
  description: z.string().min(1),
  category: z.enum(['information', 'action']).default('information'),
  /** JSON Schema of the arguments: an object schema. */
  parameters: z.record(z.string(), z.unknown()).refine((s) => s['type'] === 'object', 'must be a JSON Schema with "type": "object"'),
  card: ExternalCardSchema,
});
export type ExternalToolDecl = z.infer<typeof ExternalToolDeclSchema>;

export const ChildMessageSchema = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('ready') }),
  z.strictObject({ type: z.literal('tools'), tools: z.array(z.unknown()) }),
  z.strictObject({
    type: z.literal('result'),
    id: z.int(),
    ok: z.boolean(),
    content: z.string(),
    data: z.unknown().optional(),
  }),
  z.strictObject({ type: z.literal('error'), id: z.int().optional(), message: z.string() }),
]);
export type ChildMessage = z.infer<typeof ChildMessageSchema>;

export type HostMessage = { type: 'list' } | { type: 'call'; id: number; name: string; args: unknown } | { type: 'cancel'; id: number };
