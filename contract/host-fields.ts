// Request fields that name something of the host's — a suite, a model, an
// evaluated run, a session's trace or a picture in it, a scene, a model server's URL, a model of the
// models folder — carry the kind of host reference they are. The host policy
// (hosts/service/host-policy.ts) parses each such field into its branded type
// before any part of the host reads it, and a test walks every method's request
// schema: a string field is either marked here or listed there as plain text
// (a message, a label, an id of something in memory), so a new field cannot name
// a file or a server without the policy seeing it.
import type { z } from 'zod';

export const HOST_FIELD_KINDS = [
  'suite',
  'model',
  'run-id',
  'trace',
  'trace-image',
  'scene',
  'server-url',
  'local-model',
  'robot-upload',
] as const;
export type HostFieldKind = (typeof HOST_FIELD_KINDS)[number];

/** Marks a request field as naming a host reference of this kind (zod metadata, read by hostFieldKind). */
export function hostField<T extends z.ZodType>(schema: T, kind: HostFieldKind): T {
  return schema.meta({ hostRef: kind }) as T;
}

/** The host reference a field names, or undefined for a plain field. */
export function hostFieldKind(schema: z.ZodType): HostFieldKind | undefined {
  const kind = (schema.meta() as { hostRef?: unknown } | undefined)?.hostRef;
  return (HOST_FIELD_KINDS as readonly unknown[]).includes(kind) ? (kind as HostFieldKind) : undefined;
}
