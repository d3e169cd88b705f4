// Messages across the sandbox worker's boundary. What the worker sends is
// validated with zod on the host: it carries values a model's program made.
import { z } from 'zod';
import type { SandboxLimits } from './types';

/** Host → worker (parentPort): run one program. */
export interface RunMessage {
  type: 'run';
  run: number;
  code: string;
  /** The API functions to install, by name. */
  names: string[];
  /** Host globals that end the program when touched (see explain.ts). */
  blocked: string[];
  limits: SandboxLimits;
}

/** Host → worker (the replies port): the answer to one API call. */
export type CallReply = { run: number; seq: number; ok: true; value: unknown } | { run: number; seq: number; ok: false; error: string };

/** A guest error as the worker read it; explain.ts turns it into a SandboxError. */
export const GuestErrorSchema = z.object({ name: z.string(), message: z.string(), stack: z.string() });
export type GuestError = z.infer<typeof GuestErrorSchema>;

/** Why the worker ended a program on its own, whatever the program caught. */
export const FatalSchema = z.enum(['timeout', 'api_limit', 'host_access']);

const run = z.int().nonnegative();

export const FromWorkerSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('ready') }),
  z.object({ type: z.literal('boot_failed'), message: z.string() }),
  z.object({ type: z.literal('call'), run, seq: z.int().positive(), name: z.string(), args: z.array(z.unknown()) }),
  z.object({ type: z.literal('output'), run, text: z.string(), dropped: z.int().nonnegative() }),
  z.object({
    type: z.literal('done'),
    run,
    ok: z.boolean(),
    value: z.unknown().optional(),
    error: GuestErrorSchema.optional(),
    fatal: FatalSchema.optional(),
    /** What the program reached for (a global's name, or `import("fs")`). */
    reach: z.string().optional(),
    /** The worker should not run another program (QuickJS failed in a way it may not recover from). */
    retire: z.boolean(),
    /** The sandbox's WebAssembly memory at the end: every byte QuickJS holds, capped at the memory limit plus the build's start. */
    heapBytes: z.int().nonnegative(),
  }),
]);
export type FromWorker = z.infer<typeof FromWorkerSchema>;
export type DoneMessage = Extract<FromWorker, { type: 'done' }>;
