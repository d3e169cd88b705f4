// Messages between a host thread and the simulation worker (same process, so a
// plain structured clone; the trust boundary is the host's own validation).
import type { ErrorCode } from '../../contract/api';
import type { KeyScope, ScriptFiles } from '../../agents/models/spec';
import type { MessagePort } from 'node:worker_threads';
import type { AppEvent } from '../../contract/schemas';
import type { RealRobotForm } from './app-service';
import type { LoadedRobot } from '../../scenes/urdf/load';

export interface WorkerOptions {
  paced: boolean;
  seed: number;
  frameHz: number;
  allowFiles: boolean;
  /** Agent runs write JSONL traces here. */
  traceDir?: string;
  /** The Evaluate view's results folder. */
  evalDir?: string;
  /** The host answers `secret` requests (API keys from its keychain store). */
  secrets?: boolean;
  /** Base URLs (normalised) a page's model may get SKILLBRIDGE_API_KEY for (serve --allow-key-for). */
  allowKeyFor?: string[];
  /** The host answers `confirm_key` requests (the desktop app asks its person). */
  confirmKeys?: boolean;
  /** Where scripted:FILE may read. */
  scriptFiles?: ScriptFiles;
  ollamaURL?: string;
  /** A teacher's folder of exercise cards. */
  exercisesDir?: string;
  /** A real robot's connection form (serve --robot): agent runs act on it, the scene is its shadow. */
  robot?: RealRobotForm;
  /** A described robot (serve --urdf), loaded and checked by the host, in place of each scene's own (data: cloned across). */
  urdf?: LoadedRobot;
  /** The models folder for local:ID models, and whether pages may download and remove there. */
  modelsDir?: string;
  manageModels?: boolean;
  /** Local models' processes start through the host thread (a launcher it was given: Electron's utilityProcess). */
  modelProcesses?: MessagePort;
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
  /** A line for the host's log (a bad exercise card in the teacher's folder). */
  | { t: 'log'; line: string }
  /** The worker needs the API key stored for a base URL (it never leaves the host's processes). */
  | { t: 'secret'; id: number; scope: KeyScope }
  /** May the environment's key go to this base URL a page named? Answered 'yes' or null. */
  | { t: 'confirm_key'; id: number; baseURL: string };
