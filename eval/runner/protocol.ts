// Messages between the evaluation runner and its worker threads (--jobs N).
// Cases and results are plain data (zod-validated where they enter the database).
import type { EvalCase } from '../core/case';
import type { ModelFiles, ModelSpec, SuiteFile } from '../../base/host-refs';
import type { CaseResult } from './run-case';
import type { NoiseOptions } from '../../sim/world/types';
import type { LoadedRobot } from '../../scenes/urdf/load';

/** What every worker needs to run cases of one run. */
export interface WorkerInit {
  suite: string;
  /** The run's identity (eval/results/identity.ts): a queue names the run's jobs with it. */
  identity?: string;
  /** A suite a user wrote (eval --suite FILE): read from this file instead of looked up by id. */
  suiteFile?: SuiteFile;
  workflow: string;
  model: ModelSpec;
  seed: number;
  traceDir: string;
  env: Record<string, string | undefined>;
  /** Where the model may read `scripted:FILE` and `local:` files: the door's grant (a page: its folders; the CLI: any). */
  files: ModelFiles;
  limits?: { timeLimitS?: number; maxIterations?: number };
  /** Perception and skill noise of every case's world (--noise), seeded by the run's seed; absent: none. */
  noise?: NoiseOptions;
  /** The described robot in every case's world in place of the scene's own (--urdf), as loaded by the door. */
  robot?: LoadedRobot;
  /** The judge's model spec (--judge), for suites with a free-text judge. */
  judge?: ModelSpec;
  /** The judge's environment where it differs from the model's (a queue job: keys bound to the judge's own server). */
  judgeEnv?: Record<string, string | undefined>;
  /** Cases in flight at once in each thread (--concurrency spread over the threads); each leases its own world. */
  concurrency?: number;
  /** Requests and tokens per minute for the model, shared by this thread's cases (--rpm/--tpm spread over the threads). */
  rates?: { rpm?: number; tpm?: number };
  /** A folder of model answers keyed by the request (--cache DIR): a request asked before is answered from it. */
  responseCache?: string;
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
