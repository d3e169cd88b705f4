// What a request may name that makes a host read a file, open a model or call a
// server, as types that only the host policy makes (hosts/service/host-policy.ts).
// Each is a plain value at run time (it crosses threads and queues as it is); the
// brand is a unique symbol no module exports, so a plain string from a request
// cannot be passed where one is expected, and the lint rule `host-refs/minted-by-policy`
// refuses an `as` to any of them outside the policy. Code that reads a suite file,
// opens a model or looks a run up takes these types, never a string.

declare const HOST_REF: unique symbol;

/** A value of type T the host policy parsed and allowed as a K. */
export type HostRef<T, K extends string> = T & { readonly [HOST_REF]: K };

/** A suite file the host lets this door read (the CLI: the person typed it; pages: never). */
export type SuiteFile = HostRef<string, 'SuiteFile'>;

/** An evaluation suite: a built-in one by id, or a suite file the policy allowed. */
export type SuiteRef =
  | HostRef<{ readonly kind: 'builtin'; readonly id: string }, 'SuiteRef'>
  | HostRef<{ readonly kind: 'file'; readonly file: SuiteFile; readonly given: string }, 'SuiteRef'>;

/**
 * A model spec (`ollama:qwen3:8b`, `scripted:demo.json`, `local:NAME`, `oracle`…) the
 * policy parsed; whatever file it names is opened only under the ModelFiles grant the
 * same policy gives with it.
 */
export type ModelSpec = HostRef<string, 'ModelSpec'>;

/**
 * Where a model built on this host may read: `scripted:FILE` ('any' path, only a
 * scripts folder, or nothing) and `local:` ('any' path, or only the models folder).
 * 'any' is the terminal's grant; pages and queue jobs get a folder or nothing.
 */
export interface ModelFileRule {
  readonly scripts: 'any' | 'none' | { readonly dir: string };
  readonly localModels: 'any' | { readonly dir: string };
}
export type ModelFiles = HostRef<ModelFileRule, 'ModelFiles'>;

/** An evaluation run's id: looked up in a results database, never read as a path. */
export type RunId = HostRef<string, 'RunId'>;

/** A run of this session (its trace), by the id the session gave it: a name in its own traces, never a path. */
export type TraceRef = HostRef<string, 'TraceRef'>;

/** A picture in a run's trace, by its file name there (checked as a name, looked up in the run's own records): never a path. */
export type TraceImageId = HostRef<string, 'TraceImageId'>;

/** A model server's base URL, normalised, as keys are stored for it. */
export type ServerUrl = HostRef<string, 'ServerUrl'>;

/** A model of the host's models folder by id (a catalogue id or a file there): never a path. */
export type LocalModelId = HostRef<string, 'LocalModelId'>;

/** A scene: a built-in id, or a scene file this host lets its pages load. */
export type SceneRef = HostRef<{ readonly kind: 'builtin' | 'file'; readonly id: string }, 'SceneRef'>;

/** How a door reads again what a run recorded when it resumes it (its model, its judge, its suite file): the command line's policy. */
export interface ResumeRefs {
  model(spec: string, field?: string): ModelSpec;
  suiteFile(file: string): SuiteFile;
}

/** A door's policy as the evaluation layer reaches it (it may not import hosts/): the command line's, for sweeps and resumes. */
export interface RefPolicy extends ResumeRefs {
  suite(given: string, field?: string): SuiteRef;
  runId(id: string, field?: string): RunId;
  files(): ModelFiles;
}

/** The shape of a run id (letters, digits, `.`, `_`, `:`, `-`; no `/`): one folder name, never a path. */
export const RUN_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,200}$/;

/**
 * A robot description the host lets a door load: its URDF or xacro file, and the folders its
 * meshes, includes and `package://` paths may be read from (the URDF's own folder among them).
 * Nothing outside these folders is read for it.
 */
export interface RobotFileRule {
  readonly file: string;
  readonly folders: readonly string[];
  /** The sidecar JSON, when it is not the one beside the file (`NAME.skillbridge.json`). */
  readonly sidecar?: string;
}
export type RobotFiles = HostRef<RobotFileRule, 'RobotFiles'>;

/**
 * The package folders a robot description that is not a file may read its meshes from (the robot's own
 * `robot_description`, read over rosbridge): only the folders the person named, nothing beside a file.
 */
export interface RobotPackageRule {
  readonly folders: readonly string[];
  /** A sidecar JSON the person named (--robot-config): a robot publishes none. */
  readonly sidecar?: string;
}
export type RobotPackages = HostRef<RobotPackageRule, 'RobotPackages'>;

/** A file's path inside the robot folder a page uploads: relative, plain names, nothing above the folder. */
export type RobotUploadPath = HostRef<string, 'RobotUploadPath'>;

/** A rosbridge server a door may connect to: a ws:// or wss:// URL with a host (the terminal's: what the person typed). */
export type RosbridgeUrl = HostRef<string, 'RosbridgeUrl'>;
