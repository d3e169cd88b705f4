// The app's local models (GGUF files in the host's models folder): the list, a download with
// progress events, cancel, remove. Pages select one by setting the model spec to `local:ID`.
import { z } from 'zod';
import { hostField } from './host-fields';

const ModelId = hostField(z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._ -]{0,119}$/, 'a model id from listLocalModels'), 'local-model');
const Ack = z.object({ ok: z.boolean(), message: z.string() });

export const LocalModelInfo = z.object({
  id: z.string(),
  name: z.string(),
  /** From the catalogue, or a .gguf someone put in the folder. */
  source: z.enum(['catalogue', 'file']),
  installed: z.boolean(),
  sizeBytes: z.number().nullable(),
  /** Bytes of an unfinished download (the next pull resumes). */
  partialBytes: z.number(),
  /** A published SHA-256, the size only ("unverified"), or nothing (your own file). */
  check: z.enum(['sha256', 'size-only', 'none']),
  publisher: z.string().optional(),
  licence: z.string().optional(),
  ramBytes: z.number().optional(),
  quantisation: z.string().optional(),
  note: z.string().optional(),
});
export type LocalModelInfo = z.infer<typeof LocalModelInfo>;

export const LocalModelList = z.object({
  /** The host's models folder. */
  dir: z.string(),
  /** Whether this page may download and remove models (the host decides; see `manageNote`). */
  canManage: z.boolean(),
  /** Why not, and how the host allows it, when it does not. */
  manageNote: z.string().nullable(),
  /** Whether this build can run `local:` models at all. */
  runtime: z.object({ available: z.boolean(), message: z.string() }),
  models: z.array(LocalModelInfo),
  /** Downloads running now. */
  pulls: z.array(z.object({ id: z.string(), received: z.number(), total: z.number().nullable() })),
});
export type LocalModelList = z.infer<typeof LocalModelList>;

/** A download's progress and end, pushed as `{ type: 'model_pull' }` events. */
export const ModelPullEvent = z.object({
  id: z.string(),
  state: z.enum(['running', 'done', 'failed', 'cancelled']),
  received: z.number(),
  total: z.number().nullable(),
  bytesPerSecond: z.number(),
  /** A notice (resuming, starting over) or, at the end, what happened. */
  message: z.string().optional(),
});
export type ModelPullEvent = z.infer<typeof ModelPullEvent>;

export const LOCAL_MODEL_METHODS = {
  /** The catalogue and the host's models folder: installed or not, sizes, licences, downloads running. */
  listLocalModels: { request: z.object({}).strict(), response: LocalModelList },
  /** Starts downloading a catalogue model into the host's folder; progress streams as `model_pull` events. */
  pullLocalModel: { request: z.object({ id: ModelId }).strict(), response: Ack },
  /** Stops a download; its part stays and the next pull resumes it. */
  cancelLocalModelPull: { request: z.object({ id: ModelId }).strict(), response: Ack },
  /** Removes a model's file from the host's folder (an added file's original stays). */
  removeLocalModel: { request: z.object({ id: ModelId }).strict(), response: Ack },
} as const;
