// Messages between a host thread and the simulation worker (same process, so a
// plain structured clone; the trust boundary is the host's own validation).
import type { ErrorCode } from '../../electron/contract/api';
import type { AppEvent } from '../../electron/contract/schemas';

export interface WorkerOptions {
  paced: boolean;
  seed: number;
  frameHz: number;
  allowFiles: boolean;
  /** Set when running from TypeScript sources: the bootstrap registers tsx, then imports this. */
  entry?: string;
}

export type ToWorker = { t: 'call'; id: number; method: string; request: unknown } | { t: 'dispose' };

export type FromWorker =
  | { t: 'ready' }
  | { t: 'disposed' }
  | { t: 'reply'; id: number; ok: true; value: unknown }
  | { t: 'reply'; id: number; ok: false; error: { code: ErrorCode; message: string } }
  | { t: 'event'; event: AppEvent }
  | { t: 'poses'; frame: Float32Array };
