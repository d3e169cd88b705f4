// What a host tells the app service when it makes one (hosts/web, the desktop
// worker, the CLI's serve): pacing, folders, the key and file policy's inputs, a real robot.
import type { LoadedRobot } from '../../scenes/urdf/load';
import type { RobotForm } from '../../robot/sources';
import type { ScriptFiles, SecretLookup } from '../../agents/models/spec';
import type { HostPolicy } from './host-policy';

export interface AppServiceOptions {
  /** Step physics in wall time from a ticker (the app); otherwise skills step it as fast as they can. */
  paced?: boolean;
  seed?: number;
  /** Pose frames per second (30-60). */
  frameHz?: number;
  /** Extra scene sources (a scene file path) a host allows besides the built-in ids. */
  allowFiles?: boolean;
  /** Agent runs write their JSONL traces here (web mode ./traces, desktop userData/traces). */
  traceDir?: string;
  /** API keys besides the environment (the desktop app's keychain store), per base URL. */
  secrets?: SecretLookup;
  /** Base URLs a page's model may get the environment's SKILLBRIDGE_API_KEY for (serve --allow-key-for). */
  allowKeyFor?: string[];
  /** Asks the person at the host whether the environment's key may go to a base URL a page named. */
  confirmKey?: (baseURL: string) => Promise<boolean>;
  /** Where scripted:FILE may read; default none (a page uploads the script instead). */
  scriptFiles?: ScriptFiles;
  /** Ollama's OpenAI-compatible base URL for detection (default http://127.0.0.1:11434/v1). */
  ollamaURL?: string;
  /** The Evaluate view's results folder (default eval-results/). */
  evalDir?: string;
  /** A teacher's folder of exercise cards (serve --exercises DIR), besides the built-in ones. */
  exercisesDir?: string;
  log?: (line: string) => void;
  /**
   * A real robot (serve --robot): agent runs act on it through the safety chain,
   * and the loaded scene is its shadow — synchronised from it, each action played
   * there first (so the view shows the prediction), divergences in the run view.
   */
  robot?: RealRobotForm;
  /**
   * A robot from its description (serve --urdf): every scene loaded puts it in
   * place of its own, and the view draws it from its links. A scene it cannot
   * stand in is refused with each problem, never shown with the scene's robot.
   */
  urdf?: LoadedRobot;
  /** The models folder for local:ID models (the desktop app: userData/models); default defaultModelsDir(). */
  modelsDir?: string;
  /** Pages may download and remove models there (the desktop app; serve --allow-model-pull). */
  manageModels?: boolean;
  /** The policy itself (tests); otherwise built from the options above. */
  policy?: HostPolicy;
}

export type RealRobotForm = Extract<RobotForm, { kind: 'http' | 'rosbridge' }> & {
  /** The person accepted at start a robot that declares it reports no e-stop state (--accept-no-estop). */
  acceptNoEstop?: boolean;
};
