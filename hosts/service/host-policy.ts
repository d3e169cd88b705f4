// The host's policy: what a page or client may make the host do with the host's
// own things — its API keys, its files, its model servers. Each capability is
// decided by one function here, and every AppApi method that touches one goes
// through it (METHOD_POLICY lists them all; a test walks every method). A run,
// a probe and an evaluation started from a page therefore get the same answer
// for the same model spec: a key goes only to the base URL it is for, and a
// `scripted:FILE` reads only what the host allows (the scripts folder, or an upload).
import { AppApiError, type MethodName } from '../../contract/api';
import { ModelError } from '../../agents/models/model';
import {
  type CreateModelOptions,
  type ScriptFiles,
  type ServerProvider,
  type SecretLookup,
  createModel,
  keySources,
  normalizeBaseURL,
  parseModelSpec,
  resolveApiKey,
} from '../../agents/models/spec';
import type { ModelStoreAccess } from './local-models';
import { defaultModelsDir } from '../../agents/models/local/models-dir';
import type { LocalModelFiles } from '../../agents/models/local/local-spec';
import { SINGLE_HOST } from './single-host';

/** A host's key store as pages reach it (set, ask, clear; never read). */
export type KeyStore = Pick<typeof SINGLE_HOST, 'setApiKey' | 'hasApiKey' | 'clearApiKey'>;

/** What a method may touch of the host's: nothing, a model a client names (keys, script files), a scene file, the key store, its models folder. */
export type Capability = 'model' | 'scene-file' | 'key-store' | 'model-store';

/**
 * Every AppApi method and the capabilities it uses. A method added to the
 * contract without an entry here does not type-check, and the API-walk test
 * proves each method asks the policy for exactly these.
 */
export const METHOD_POLICY: { readonly [M in MethodName]: readonly Capability[] } = {
  listSuites: [],
  startEval: ['model'],
  stopEval: [],
  listEvalRuns: [],
  evalCases: [],
  evalReport: [],
  replayCase: [],
  listScenes: [],
  loadScene: ['scene-file'],
  resetScene: [],
  currentScene: [],
  listToolSets: [],
  listTools: [],
  callTool: [],
  cancelToolCall: [],
  injectEvent: [],
  getSnapshot: [],
  getBattery: [],
  getRobotSafety: [],
  setSpeed: [],
  getSimState: [],
  setPaused: [],
  stepPhysics: [],
  getWorldSettings: [],
  setWorldSettings: [],
  run: ['model'],
  stop: [],
  answerApproval: [],
  answerAsk: [],
  listWorkflows: [],
  probeModel: ['model'],
  detectModels: [],
  exportTrace: [],
  listRuns: [],
  getRunReplay: [],
  importTrace: [],
  setApiKey: ['key-store'],
  hasApiKey: ['key-store'],
  clearApiKey: ['key-store'],
  listExercises: [],
  addExercise: [],
  checkExercise: [],
  listSessions: [],
  observeSession: [],
  setSessionLabel: [],
  caseReplay: [],
  stopGroups: [],
  setViewVisible: [],
  listLocalModels: ['model-store'],
  pullLocalModel: ['model-store'],
  cancelLocalModelPull: ['model-store'],
  removeLocalModel: ['model-store'],
};

export interface HostPolicyOptions {
  /** Keys stored per base URL (the desktop app's keychain store). */
  secrets?: SecretLookup;
  /** Base URLs the environment's SKILLBRIDGE_API_KEY may go to although a page named them (serve --allow-key-for). */
  allowKeyFor?: readonly string[];
  /** Asks the person at the host whether the environment's key may go to a base URL a page named. */
  confirmKey?: (baseURL: string) => Promise<boolean>;
  /** Where `scripted:FILE` may read; default none (a page uploads its script). */
  scriptFiles?: ScriptFiles;
  /** The models folder `local:NAME` loads from; a page can name no other file (default: the user's models folder). */
  modelsDir?: string;
  /** Whether a scene may be a file path (besides the built-in ids). */
  allowFiles?: boolean;
  /** The host's environment (default process.env). */
  env?: Readonly<Record<string, string | undefined>>;
  /** Pages may download and remove models in the host's models folder (the desktop app; serve --allow-model-pull). */
  manageModels?: boolean;
}

const PROVIDERS: readonly ServerProvider[] = ['openai', 'ollama', 'lmstudio', 'llamacpp', 'vllm', 'openai-compatible'];
/** Environment variables that hold or bind a model key: never handed on as they are. */
const KEY_VARS = new Set([...PROVIDERS.flatMap((p) => keySources(p)), 'SKILLBRIDGE_API_BASE_URL']);

/** What an evaluation's worker builds the model a page named with (HostPolicy.evalModel). */
export interface EvalModelSetup {
  env: Record<string, string | undefined>;
  scriptFiles: ScriptFiles;
  /** Where `local:NAME` loads from: the host's models folder. */
  localModels: LocalModelFiles;
}

export class HostPolicy {
  private readonly allowed: Set<string>;

  constructor(private readonly o: HostPolicyOptions = {}) {
    this.allowed = new Set((o.allowKeyFor ?? []).map(normalizeBaseURL));
  }

  private get env(): Readonly<Record<string, string | undefined>> {
    return this.o.env ?? process.env;
  }

  /** Keys: may the environment's unbound key go to this base URL a page named? Listed at the host, or confirmed by its person. */
  async envKeyMayGo(baseURL: string): Promise<boolean> {
    return this.allowed.has(normalizeBaseURL(baseURL)) || ((await this.o.confirmKey?.(baseURL)) ?? false);
  }

  /** Models: the options any model a page names is built with (keys, the key rule, script sources). */
  modelOptions(script?: string): CreateModelOptions {
    return {
      env: this.env,
      ...(this.o.secrets ? { secrets: this.o.secrets } : {}),
      allowEnvKeyFor: (u) => this.envKeyMayGo(u),
      scriptFiles: this.o.scriptFiles ?? 'none',
      localModels: { dir: this.modelsDir() },
      ...(script !== undefined ? { scriptText: script } : {}),
    };
  }

  /** The host's models folder: `local:NAME` loads from here in runs and evaluations alike, and the store manages it. */
  modelsDir(): string {
    return this.o.modelsDir ?? defaultModelsDir(this.env as NodeJS.ProcessEnv);
  }

  /**
   * Models built elsewhere (an evaluation's worker thread): checked here with the
   * same rule as a run, and handed an environment with no key but the one this
   * rule resolves, bound to the spec's own base URL — so the worker can send it nowhere else.
   */
  async evalModel(spec: string): Promise<EvalModelSetup> {
    const env: Record<string, string | undefined> = {};
    for (const [k, v] of Object.entries(this.env)) if (!KEY_VARS.has(k)) env[k] = v;
    const scriptFiles = this.o.scriptFiles ?? 'none';
    // The worker resolves local:NAME in this host's folder, never in one its environment names.
    const localModels = { dir: this.modelsDir() };
    let parsed;
    try {
      parsed = parseModelSpec(spec.trim());
    } catch {
      return { env, scriptFiles, localModels }; // a reference policy (oracle, floor:…): no key, no file
    }
    if (parsed.provider === 'scripted' || parsed.provider === 'local') {
      try {
        // The same check a run makes: one answer whatever the path is, exists or holds.
        createModel(spec.trim(), this.modelOptions());
      } catch (e) {
        throw new AppApiError('invalid_request', e instanceof ModelError ? e.message : 'the script cannot be used');
      }
      return { env, scriptFiles, localModels };
    }
    const key = await resolveApiKey(parsed, this.modelOptions());
    if (key) {
      const name = keySources(parsed.provider)[0]!;
      env[name] = key;
      if (name === 'SKILLBRIDGE_API_KEY') env['SKILLBRIDGE_API_BASE_URL'] = parsed.baseURL;
    }
    return { env, scriptFiles, localModels };
  }

  /** Keys at rest: the store pages may set and clear keys in (none in a host that serves pages from one process). */
  keyStore(): KeyStore {
    return SINGLE_HOST;
  }

  /**
   * The models folder: a download writes gigabytes to the host's disk, so pages may start one
   * (or remove a model) only where the host allows it; every page may list and select.
   */
  modelStore(): ModelStoreAccess {
    return this.o.manageModels
      ? { canManage: true, note: null }
      : {
          canManage: false,
          note: 'this host does not let pages download or remove models; on the host run "skillbridge models pull ID", or start it with "skillbridge serve --allow-model-pull"',
        };
  }

  /** Files: may a scene be loaded from this path? */
  sceneFile(id: string): boolean {
    return (this.o.allowFiles ?? false) && /\.json$/i.test(id);
  }
}
