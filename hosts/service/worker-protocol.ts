// Messages between a host thread and the simulation worker (same process, so a
// plain structured clone; the trust boundary is the host's own validation).
import type { ErrorCode } from '../../contract/api';
import type { AppEvent } from '../../contract/schemas';
import type { RealRobotForm } from './session';

export interface WorkerOptions {
  paced: boolean;
  seed: number;
  frameHz: number;
  allowFiles: boolean;
  /** Agent runs write JSONL traces here. */
  traceDir?: string;
  /** The host answers `secret` requests (API keys from its keychain store). */
  secrets?: boolean;
  ollamaURL?: string;
  /** A real robot's connection form (serve --robot): agent runs act on it, the scene is its shadow. */
  robot?: RealRobotForm;
  /** Set when running from TypeScript sources: the bootstrap registers tsx, then imports this. */
  entry?: string;
}

export type ToWorker =
  { t: 'call'; id: number; method: string; request: unknown } | { t: 'dispose' } | { t: 'secret_reply'; id: number; value: string | null };

export type FromWorker =
  | { t: 'ready' }
  | { t: 'disposed' }
  | { t: 'reply'; id: number; ok: true; value: unknown }
  | { t: 'reply'; id: number; ok: false; error: { code: ErrorCode; message: string } }
  | { t: 'event'; event: AppEvent }
  | { t: 'poses'; frame: Float32Array }
  /** The worker needs an API key for a provider (it never leaves the host's processes). */
  | { t: 'secret'; id: number; provider: string };
