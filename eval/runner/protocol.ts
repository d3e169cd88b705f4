// Messages between the evaluation runner and its worker threads (--jobs N).
// Cases and results are plain data (zod-validated where they enter the database).
import type { EvalCase } from '../core/case';
import type { ScriptFiles } from '../../agents/models/spec';
import type { LocalModelFiles } from '../../agents/models/local/local-spec';
import type { CaseResult } from './run-case';
import type { NoiseOptions } from '../../sim/world/types';

/** What every worker needs to run cases of one run. */
export interface WorkerInit {
  suite: string;
  /** A suite a user wrote (eval --suite FILE): read from this file instead of looked up by id. */
  suiteFile?: string;
  workflow: string;
  model: string;
  seed: number;
  traceDir: string;
  env: Record<string, string | undefined>;
  /** Where `scripted:FILE` may read (a run started from a page: the host's policy; the CLI: any). */
  scriptFiles?: ScriptFiles;
  /** Where `local:NAME` loads from (a run started from a page: the host's models folder; the CLI: any). */
  localModels?: LocalModelFiles;
  limits?: { timeLimitS?: number; maxIterations?: number };
  /** Perception and skill noise of every case's world (--noise), seeded by the run's seed; absent: none. */
  noise?: NoiseOptions;
  /** The judge's model spec (--judge), for suites with a free-text judge. */
  judge?: string;
  /** Cases in flight at once in each thread (--concurrency spread over the threads); each leases its own world. */
  concurrency?: number;
  /** Requests and tokens per minute for the model, shared by this thread's cases (--rpm/--tpm spread over the threads). */
  rates?: { rpm?: number; tpm?: number };
}

export type ToWorker =
  | { type: 'case'; job: number; case: EvalCase; trial: number }
  /** Stop the running cases (Ctrl-C): they come back as "stopped". */
  | { type: 'stop' }
  | { type: 'close' };

export type FromWorker =
  | { type: 'ready' }
  | { type: 'result'; job: number; result: CaseResult }
  /** The worker cannot run at all (a suite that does not exist in this build). */
  | { type: 'fatal'; message: string };
