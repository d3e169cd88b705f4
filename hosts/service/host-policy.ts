// The host's policy: what a page, a client or a queue job may make the host do
// with the host's own things — its files, its models, its model servers and
// their keys, its results. Every request field that names one of these is
// parsed here, once, into a branded type of base/host-refs.ts that nothing else
// can make (the lint rule host-refs/minted-by-policy refuses a cast to one
// anywhere else); the code that reads files, opens models or looks runs up takes
// only those types. METHOD_POLICY lists what each AppApi method asks for, and a
// test walks every method and every field of the contract's schemas.
//
// One rule per door: a page (web mode, a classroom group, the desktop window)
// names built-in suites and scenes, scripts in the scripts folder or uploaded,
// local models in the models folder, and gets a key only for the base URL it is
// for; a queue job is held to the same rule with the worker's folders and keys;
// the command line (TERMINAL) takes what the person at it typed.
import path from 'node:path';
import { AppApiError, type MethodName } from '../../contract/api';
import {
  type HostRef,
  type LocalModelId,
  type ModelFileRule,
  type ModelFiles,
  type ModelSpec,
  type RefPolicy,
  type RunId,
  RUN_ID_PATTERN,
  type SceneRef,
  type ServerUrl,
  type SuiteFile,
  type SuiteRef,
  type TraceImageId,
  type TraceRef,
  type RobotUploadPath,
} from '../../base/host-refs';
import { PICTURE_NAME } from '../../contract/pictures';
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
  validateModelSpec,
} from '../../agents/models/spec';
import type { ModelStoreAccess } from './local-models';
import { defaultModelsDir } from '../../agents/models/local/models-dir';
import { referenceModelFactories } from '../../eval/reference/factories';
import { SUITES, findSuite } from '../../eval/suites/index';
import { isSuiteFile } from '../../eval/suites/file/index';
import type { EvalInputCode } from '../../eval/runner/errors';
import { isBuiltinScene, listScenes } from '../../scenes/registry';
import { SINGLE_HOST } from './single-host';
import { robotUploadPath, terminalRefuse } from './robot-file-policy';

/** The one place a value becomes a host ref: after this module's rule allowed it. */
function mint<T, K extends string>(value: T): HostRef<T, K> {
  return value as HostRef<T, K>;
}

/** A host's key store as pages reach it (set, ask, clear; never read). */
export type KeyStore = Pick<typeof SINGLE_HOST, 'setApiKey' | 'hasApiKey' | 'clearApiKey'>;

/**
 * What a method may touch of the host's: a model a client names (keys, script files, local models), an
 * evaluation suite, a run's results, a session's trace, a scene file, a server URL keys are stored for, the key
 * store, a model in the models folder, the models folder itself.
 */
export type Capability =
  'model' | 'suite' | 'run-id' | 'trace' | 'scene-file' | 'server-url' | 'key-store' | 'local-model' | 'model-store' | 'robot-upload';

/**
 * Every AppApi method and the capabilities it uses. A method added to the
 * contract without an entry here does not type-check, and the API-walk test
 * proves each method asks the policy for exactly these.
 */
export const METHOD_POLICY: { readonly [M in MethodName]: readonly Capability[] } = {
  listSuites: [],
  startEval: ['suite', 'model'],
  stopEval: [],
  listEvalRuns: [],
  evalCases: ['run-id'],
  evalReport: ['run-id'],
  caseTranscript: ['run-id'],
  replayCase: ['run-id'],
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
  exportTrace: ['trace'],
  listRuns: [],
  getRunReplay: ['trace'],
  getRunImage: ['trace'],
  getCaseImage: ['run-id', 'trace'],
  importTrace: [],
  setApiKey: ['server-url', 'key-store'],
  hasApiKey: ['server-url', 'key-store'],
  clearApiKey: ['server-url', 'key-store'],
  listExercises: [],
  addExercise: [],
  checkExercise: [],
  listSessions: [],
  observeSession: [],
  setSessionLabel: [],
  caseReplay: ['run-id'],
  stopGroups: [],
  setViewVisible: [],
  listLocalModels: ['model-store'],
  pullLocalModel: ['model-store', 'local-model'],
  cancelLocalModelPull: ['model-store', 'local-model'],
  removeLocalModel: ['model-store', 'local-model'],
  putRobotFile: ['robot-upload'],
  useRobot: [],
};

/** The capability that parses a request field of each kind the contract marks (`hostRef` in contract/host-fields.ts). */
export const FIELD_CAPABILITY = {
  suite: 'suite',
  model: 'model',
  'run-id': 'run-id',
  trace: 'trace',
  'trace-image': 'trace',
  scene: 'scene-file',
  'server-url': 'server-url',
  'local-model': 'local-model',
  'robot-upload': 'robot-upload',
} as const satisfies Record<string, Capability>;

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

/** A model a page or job named, with what building it may use: the spec, the environment (keys as the rule allows) and the file grant. */
export interface EvalModel {
  spec: ModelSpec;
  env: Record<string, string | undefined>;
  files: ModelFiles;
}

/** A model a page named for a run or a probe: the spec and the options (keys, the key rule, the file grant) it is built with. */
export interface HostModel {
  spec: ModelSpec;
  options: CreateModelOptions & { localModels: ModelFiles['localModels'] };
}

const SESSION_RUN_ID = /^[\w-]{1,100}$/;
const MODEL_ID = /^[A-Za-z0-9][A-Za-z0-9._ -]{0,119}$/;

function refused(field: string, message: string): AppApiError {
  return new AppApiError('invalid_request', `${field}: ${message}`);
}

/** A door's way of refusing: pages get an AppApiError, the command line an EvalInputError (one line, exit 2). */
type Refuse = (field: string, message: string, code: EvalInputCode) => Error;
const pageRefuse: Refuse = (field, message) => refused(field, message);

/** The shape checks every door shares (a run id is a folder name, never a path). */
function checkRunId(id: string, field: string, refuse: Refuse): RunId {
  if (!RUN_ID_PATTERN.test(id))
    throw refuse(
      field,
      `"${id.slice(0, 80)}" is not a run id (letters, digits, ".", "_", ":" and "-"; listEvalRuns shows them)`,
      'bad-option',
    );
  return mint<string, 'RunId'>(id);
}

function builtinSuite(id: string, field: string, refuse: Refuse): SuiteRef {
  if (!findSuite(id))
    throw refuse(field, `unknown suite "${id.slice(0, 80)}"; suites: ${SUITES.map((s) => s.id).join(', ')}`, 'unknown-suite');
  return mint<{ kind: 'builtin'; id: string }, 'SuiteRef'>({ kind: 'builtin', id });
}

function checkedSpec(spec: string, field: string, refuse: Refuse): ModelSpec {
  try {
    validateModelSpec(spec, referenceModelFactories());
  } catch (e) {
    if (e instanceof ModelError) throw refuse(field, e.message, 'unknown-model');
    throw e;
  }
  return mint<string, 'ModelSpec'>(spec.trim());
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

  /** Where models built for this door may read: the scripts folder (or nothing) and the models folder. */
  modelFiles(): ModelFiles {
    return mint<ModelFileRule, 'ModelFiles'>({
      scripts: this.o.scriptFiles ?? 'none',
      localModels: { dir: this.modelsDir() },
    });
  }

  /** The options a model a page names is built with (keys, the key rule, the file grant). */
  private modelOptions(script?: string): HostModel['options'] {
    const files = this.modelFiles();
    return {
      env: this.env,
      ...(this.o.secrets ? { secrets: this.o.secrets } : {}),
      allowEnvKeyFor: (u) => this.envKeyMayGo(u),
      scriptFiles: files.scripts,
      localModels: files.localModels,
      ...(script !== undefined ? { scriptText: script } : {}),
    };
  }

  /**
   * Models for a run or a probe: the spec parsed, with the options it is built or probed with — the key
   * rule and this door's file grant (a scripted file from the scripts folder or the upload, a local model
   * from the models folder), so a page can make the host read nothing else.
   */
  model(spec: string, script?: string, field = 'model'): HostModel {
    const s = spec.trim();
    const options = this.modelOptions(script);
    try {
      parseModelSpec(s);
    } catch (e) {
      throw refused(field, e instanceof ModelError ? e.message : 'not a model spec');
    }
    // What a scripted or local spec may read is the options' grant, applied where the model is built or probed.
    return { spec: mint<string, 'ModelSpec'>(s), options };
  }

  /** A scripted or local spec built once (it reads only what this door allows); its error, the same for every path. */
  private checkFileModel(spec: string, field: string): void {
    try {
      createModel(spec, this.modelOptions());
    } catch (e) {
      throw refused(field, e instanceof ModelError ? e.message : 'the model cannot be used');
    }
  }

  /** The host's models folder: `local:NAME` loads from here in runs and evaluations alike, and the store manages it. */
  modelsDir(): string {
    return this.o.modelsDir ?? defaultModelsDir(this.env as NodeJS.ProcessEnv);
  }

  /**
   * Models built elsewhere (an evaluation's worker thread, a queue worker's case): checked here with the
   * same rule as a run, and handed an environment with no key but the one this rule resolves, bound to
   * the spec's own base URL — so the thread can send it nowhere else.
   */
  async evalModel(spec: string, field = 'model'): Promise<EvalModel> {
    const s = spec.trim();
    const env: Record<string, string | undefined> = {};
    for (const [k, v] of Object.entries(this.env)) if (!KEY_VARS.has(k)) env[k] = v;
    const files = this.modelFiles();
    const checked = checkedSpec(s, field, pageRefuse);
    let parsed;
    try {
      parsed = parseModelSpec(s);
    } catch {
      return { spec: checked, env, files }; // a reference policy (oracle, floor:…): no key, no file
    }
    if (parsed.provider === 'scripted' || parsed.provider === 'local') {
      this.checkFileModel(s, field);
      return { spec: checked, env, files };
    }
    const key = await resolveApiKey(parsed, this.modelOptions());
    if (key) {
      const name = keySources(parsed.provider)[0]!;
      env[name] = key;
      if (name === 'SKILLBRIDGE_API_KEY') env['SKILLBRIDGE_API_BASE_URL'] = parsed.baseURL;
    }
    return { spec: checked, env, files };
  }

  /** Suites: a page or a job names a built-in suite by id; never a file (so nothing of the host is read, opened or probed). */
  suite(given: string, field = 'suite'): SuiteRef {
    return builtinSuite(given, field, pageRefuse);
  }

  /** A run id of this host's results: looked up in its database, never read as a path. */
  runId(id: string, field = 'runId'): RunId {
    return checkRunId(id, field, pageRefuse);
  }

  /** A run of this session (its trace): a name in the session's own traces, never a path. */
  traceId(id: string, field = 'runId'): TraceRef {
    if (!SESSION_RUN_ID.test(id)) throw refused(field, `"${id.slice(0, 80)}" is not a run id of this session (listRuns shows them)`);
    return mint<string, 'TraceRef'>(id);
  }

  /** A picture in a run's trace: a file name there (looked up in the run's own records), never a path. */
  traceImageId(id: string, field = 'image'): TraceImageId {
    if (!PICTURE_NAME.test(id)) throw refused(field, `"${id.slice(0, 80)}" is not a picture of a run (a name such as call_1-1.png)`);
    return mint<string, 'TraceImageId'>(id);
  }

  /** Scenes: a built-in id, or a scene file where this host allows files (the desktop app; a test). */
  scene(id: string): SceneRef {
    if (isBuiltinScene(id)) return mint<{ kind: 'builtin'; id: string }, 'SceneRef'>({ kind: 'builtin', id });
    if ((this.o.allowFiles ?? false) && /\.json$/i.test(id)) return mint<{ kind: 'file'; id: string }, 'SceneRef'>({ kind: 'file', id });
    const known = listScenes().map((s) => s.id);
    throw new AppApiError('unknown_scene', `unknown scene "${id.slice(0, 200)}"; known scenes: ${known.join(', ')}`);
  }

  /** A file of the robot folder a page uploads: a path inside the session's upload folder, never above it. */
  robotUploadPath(given: string, field = 'path'): RobotUploadPath {
    return robotUploadPath(given, (message) => refused(field, message));
  }

  /** A model server's base URL as keys are stored for it (normalised); nothing is called. */
  serverUrl(url: string, field = 'baseURL'): ServerUrl {
    if (!/^https?:\/\/[^\s/]+/.test(url)) throw refused(field, 'expected an http(s) URL such as http://127.0.0.1:8080/v1');
    return mint<string, 'ServerUrl'>(normalizeBaseURL(url));
  }

  /** A model of the models folder by id: a name there, never a path. */
  localModelId(id: string, field = 'id'): LocalModelId {
    if (!MODEL_ID.test(id) || path.basename(id) !== id || id.includes('..'))
      throw refused(field, `"${id.slice(0, 80)}" is not a model id (listLocalModels shows them)`);
    return mint<string, 'LocalModelId'>(id);
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
}

/**
 * The command line's door: the person at the terminal typed these, so a suite may be a file,
 * a scripted model any file and a local model any path (the person's own machine and files).
 */
export const TERMINAL: RefPolicy = {
  /** A built-in suite id, or a suite file (a path, or a name ending in .json). */
  suite(given: string, field = '--suite'): SuiteRef {
    if (!isSuiteFile(given)) return builtinSuite(given, field, terminalRefuse);
    const file = mint<string, 'SuiteFile'>(path.resolve(given));
    return mint<{ kind: 'file'; file: SuiteFile; given: string }, 'SuiteRef'>({ kind: 'file', file, given });
  },
  /** A model spec as typed: checked for its form (the files it names are read when it is built). */
  model(spec: string, field = '--model'): ModelSpec {
    return checkedSpec(spec, field, terminalRefuse);
  },
  /** A suite file a resumed run recorded (the person's run, on the person's machine). */
  suiteFile(file: string): SuiteFile {
    return mint<string, 'SuiteFile'>(path.resolve(file));
  },
  /** Any file the person names. */
  files(): ModelFiles {
    return mint<ModelFileRule, 'ModelFiles'>({ scripts: 'any', localModels: 'any' });
  },
  runId(id: string, field = '--resume'): RunId {
    return checkRunId(id, field, terminalRefuse);
  },
};

// Robot files are granted by their own small module (the command line's `call` loads it without this one's imports).
export { terminalRobotFiles, terminalRobotPackages, terminalRosbridgeUrl } from './robot-file-policy';
