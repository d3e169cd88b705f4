// AppApi: the one typed interface between the renderer and a host. Each method
// is a request schema and a response schema; the same table drives the Electron
// IPC allowlist, the web-mode WebSocket dispatcher and the renderer's clients.
import { z } from 'zod';
import { EVAL_METHODS, EvalRunId } from './eval';
import { LOCAL_MODEL_METHODS } from './local-models';
import { PICTURE_METHODS } from './pictures';
import { MAX_TRACE_IMPORT_BYTES } from './limits';
import {
  bytesString,
  ApprovalDecision,
  ApprovalMode,
  AppEvent,
  BaseUrl,
  Battery,
  ExternalEvent,
  ImportedTrace,
  LocalModels,
  ProbeResult,
  SceneMeta,
  SceneSummary,
  ScriptText,
  SessionInfo,
  Snapshot,
  ToolCallResult,
  ToolInfo,
  ToolSetInfo,
  WorkflowInfo,
  SimState,
} from './schemas';
import { ExerciseInfo, ExerciseResult, RunReplay, RunSummary, WorldSettings } from './teaching';
import { RobotSafety } from './robot-safety';
import { hostField } from './host-fields';
import { ROBOT_METHODS } from './robot-upload';

/** A run of this session by the id it gave it (a trace of the session's own). */
const SessionRunId = hostField(z.string().regex(/^[\w-]{1,100}$/), 'trace');
/** A model server's base URL a key is stored for. */
const KeyBaseUrl = hostField(BaseUrl, 'server-url');

const Empty = z.object({}).strict();
const Ack = z.object({ ok: z.boolean(), message: z.string() });

export const METHODS = {
  ...EVAL_METHODS,
  ...LOCAL_MODEL_METHODS,
  ...PICTURE_METHODS,
  ...ROBOT_METHODS,
  listScenes: { request: Empty, response: z.array(SceneSummary) },
  /** Loads a scene and returns its static metadata; poses then stream. */
  loadScene: { request: z.object({ id: hostField(z.string().min(1).max(200), 'scene') }).strict(), response: SceneMeta },
  /** Rebuilds the current scene from its data (same seed). */
  resetScene: { request: Empty, response: SceneMeta },
  /** The metadata of the scene now loaded (after a reconnect). */
  currentScene: { request: Empty, response: SceneMeta.nullable() },
  listToolSets: { request: Empty, response: z.array(ToolSetInfo) },
  /** Tools of a set (default: the scene's default set), as a model sees them. */
  listTools: { request: z.object({ set: z.string().min(1).max(100).optional() }).strict(), response: z.array(ToolInfo) },
  /**
   * Calls a tool exactly as a model's call runs: `args` is passed to the tool's own
   * validation, so a bad call returns the validation message the model would read.
   */
  callTool: {
    request: z
      .object({ name: z.string().min(1).max(100), args: z.unknown().optional(), set: z.string().min(1).max(100).optional() })
      .strict(),
    response: ToolCallResult,
  },
  /** Stops the tool call the console is running (its skill ends as "aborted"). */
  cancelToolCall: { request: Empty, response: Ack },
  injectEvent: { request: ExternalEvent, response: Ack },
  getSnapshot: { request: Empty, response: Snapshot },
  getBattery: { request: Empty, response: Battery },
  /** A real robot's e-stop, battery and link with their ages (serve --robot); null when the session drives only the simulator. */
  getRobotSafety: { request: Empty, response: RobotSafety.nullable() },
  /** Simulated seconds per wall second while paced (the desktop and web app). */
  setSpeed: { request: z.object({ factor: z.number().min(0.1).max(10) }).strict(), response: z.object({ factor: z.number() }) },
  /** The physics clock: paused or running, simulated time, speed. */
  getSimState: { request: Empty, response: SimState },
  /** Pauses the physics (time stands still, skills wait) or resumes it. */
  setPaused: { request: z.object({ paused: z.boolean() }).strict(), response: SimState },
  /** Advances a paused world by whole physics steps (240 per simulated second). */
  stepPhysics: { request: z.object({ steps: z.number().int().min(1).max(2400) }).strict(), response: SimState },
  /** The seed and noise the next load or reset builds the world with. */
  getWorldSettings: { request: Empty, response: WorldSettings },
  /** Sets the seed and noise; they apply when the scene is next loaded or reset. */
  setWorldSettings: { request: WorldSettings, response: WorldSettings },
  // ---- agent runs: the model drives the same robot the console does; events stream as { type: 'run' }.
  /** Starts a run (one turn of the conversation; it continues while workflow, model and set stay the same). */
  run: {
    request: z
      .object({
        message: z.string().min(1).max(20_000),
        workflow: z.string().min(1).max(100),
        model: hostField(z.string().min(1).max(500), 'model'),
        toolSet: z.string().min(1).max(100).optional(),
        approval: ApprovalMode.optional(),
        /** Forget the conversation before this turn. */
        fresh: z.boolean().optional(),
        /** The user's edited system prompt for this workflow (a saved preset); omitted = the workflow's own. */
        systemPrompt: z.string().min(1).max(50_000).optional(),
        /** A scripted model's turns, uploaded (a page cannot name files on the host). */
        script: ScriptText.optional(),
      })
      .strict(),
    response: z.object({ runId: z.string(), tracePath: z.string().nullable() }),
  },
  /** Stops the running agent turn: the model request and the running skill at once. */
  stop: { request: Empty, response: Ack },
  answerApproval: {
    request: z.object({ id: z.string().min(1).max(100), decision: ApprovalDecision, note: z.string().max(2000).optional() }).strict(),
    response: Ack,
  },
  /** Answers a question the running workflow asked the person (a run event `ask`). */
  answerAsk: {
    request: z.object({ id: z.string().min(1).max(100), answer: z.string().max(5000) }).strict(),
    response: Ack,
  },
  listWorkflows: { request: Empty, response: z.array(WorkflowInfo) },
  /** Checks a model server: reachable, native tool calls, text fallback; an error says how to fix it. */
  probeModel: {
    request: z.object({ spec: hostField(z.string().min(1).max(500), 'model'), script: ScriptText.optional() }).strict(),
    response: ProbeResult,
  },
  /** Model servers found on this machine (Ollama on 127.0.0.1:11434). */
  detectModels: { request: Empty, response: LocalModels },
  /** The JSONL trace of a run of this session. */
  exportTrace: {
    request: z.object({ runId: SessionRunId }).strict(),
    response: z.object({ name: z.string(), text: z.string() }),
  },
  /** Every run of this session, oldest first (kept while the session lives, up to a limit). */
  listRuns: { request: Empty, response: z.array(RunSummary) },
  /** A run's trace and its recorded poses, to watch it again in 3D. */
  getRunReplay: { request: z.object({ runId: SessionRunId }).strict(), response: RunReplay },
  /** Validates a JSONL trace (for read-only replay). */
  importTrace: { request: z.object({ text: bytesString(MAX_TRACE_IMPORT_BYTES, 'the trace') }).strict(), response: ImportedTrace },
  // API keys live in the desktop host only (encrypted with the OS keychain), one
  // per model server base URL: a key is sent to the server it was stored for and
  // no other. The renderer can set or clear one and learn whether one is stored, never read it.
  setApiKey: { request: z.object({ baseURL: KeyBaseUrl, key: z.string().min(1).max(500) }).strict(), response: Ack },
  hasApiKey: { request: z.object({ baseURL: KeyBaseUrl }).strict(), response: z.object({ stored: z.boolean() }) },
  clearApiKey: { request: z.object({ baseURL: KeyBaseUrl }).strict(), response: Ack },
  // ---- exercises: task cards for the loaded scene, checked on the world's facts and the runs' tool calls.
  listExercises: { request: Empty, response: z.array(ExerciseInfo) },
  /** Adds a card written as JSON (for this session); a wrong field is named in the error. */
  addExercise: { request: z.object({ text: bytesString(16 * 1024, 'the exercise card') }).strict(), response: ExerciseInfo },
  /** Checks a card's goal on the world now and the tool calls since the scene was loaded. */
  checkExercise: { request: z.object({ id: z.string().min(1).max(80) }).strict(), response: ExerciseResult },
  // ---- sessions: a host serving several (web mode, one per tab) lists them; a
  // client may observe another read-only (classroom mode builds on this).
  listSessions: { request: Empty, response: z.array(SessionInfo) },
  /** Watch another session read-only (its events and poses; calls that change it are refused); null returns to your own. */
  observeSession: {
    request: z.object({ id: z.string().min(1).max(64).nullable() }).strict(),
    response: z.object({ ok: z.boolean(), message: z.string(), observing: z.string().nullable() }),
  },
  /**
   * Names this session (a group in classroom mode), as the teacher's overview shows it; the teacher names a group by its `id`.
   * `reconnect`: a tab reattaching offers the name it kept; a session that has a name keeps it (a reconnect is not a
   * rename: the teacher's name wins), and the reply's `label` is the name the session has.
   */
  setSessionLabel: {
    request: z
      .object({ label: z.string().trim().min(1).max(40), id: z.string().min(1).max(64).optional(), reconnect: z.boolean().optional() })
      .strict(),
    response: Ack.extend({ label: z.string().nullable().optional() }),
  },
  /** An evaluated case's recorded trace, to watch on the replay timeline (nothing runs again; the live world is left as it is). */
  caseReplay: {
    request: z.object({ runId: EvalRunId, caseId: z.string().min(1).max(300), trial: z.number().int().min(1).max(1000) }).strict(),
    response: RunReplay,
  },
  /**
   * The page's 3D view is hidden (its tab is in the background) or shown again: a host serving several tabs
   * sends a hidden one poses at a low rate and the newest at once when it shows; events are never held back.
   */
  setViewVisible: { request: z.object({ visible: z.boolean() }).strict(), response: Ack },
  /** Classroom teacher: press (or release) the e-stop of one group (`id`) or of every group (null). */
  stopGroups: {
    request: z.object({ id: z.string().min(1).max(64).nullable(), release: z.boolean().optional() }).strict(),
    response: Ack,
  },
} as const;

export type Methods = typeof METHODS;
export type MethodName = keyof Methods;
export const METHOD_NAMES = Object.keys(METHODS) as MethodName[];
export type Request<M extends MethodName> = z.input<Methods[M]['request']>;
export type Response<M extends MethodName> = z.output<Methods[M]['response']>;

export function isMethodName(name: unknown): name is MethodName {
  return typeof name === 'string' && Object.hasOwn(METHODS, name);
}

/** One packed frame: header then 7 floats per streamed body, then the robot's joints. */
export type PoseListener = (frame: Float32Array) => void;
export type EventListener = (event: AppEvent) => void;
export type Unsubscribe = () => void;

export type AppMethods = { [M in MethodName]: (request: Request<M>) => Promise<Response<M>> };

export interface AppApi extends AppMethods {
  /** Latest pose frame wins: a slow consumer sees fewer frames, never a backlog. */
  onPoses(listener: PoseListener): Unsubscribe;
  onEvent(listener: EventListener): Unsubscribe;
}

export const ErrorCode = z.enum([
  'not_connected',
  'invalid_request',
  'no_scene',
  'unknown_scene',
  'unsupported',
  'busy',
  /** The call is not allowed here (e.g. a change to a session observed read-only). */
  'forbidden',
  'internal',
  'transport',
]);
export type ErrorCode = z.infer<typeof ErrorCode>;
export const ApiErrorBody = z.object({ code: ErrorCode, message: z.string() });

export class AppApiError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'AppApiError';
  }
}

/** Describes a zod failure in one line for an error reply. */
export function describeZodError(error: z.ZodError): string {
  return error.issues
    .slice(0, 5)
    .map((i) => `${i.path.length ? i.path.map(String).join('.') : '(request)'}: ${i.message}`)
    .join('; ');
}

/** Validates a request for a method; throws AppApiError('invalid_request') with the reason. */
export function parseRequest<M extends MethodName>(method: M, request: unknown): z.output<Methods[M]['request']> {
  const r = METHODS[method].request.safeParse(request ?? {});
  if (!r.success) throw new AppApiError('invalid_request', `${method}: ${describeZodError(r.error)}`);
  return r.data as z.output<Methods[M]['request']>;
}

/** Transport-neutral call: what a client needs to build the typed facade. */
export type Invoke = <M extends MethodName>(method: M, request: Request<M>) => Promise<Response<M>>;

/** Builds the typed AppApi from a transport's invoke and subscriptions. */
export function makeAppApi(invoke: Invoke, onPoses: AppApi['onPoses'], onEvent: AppApi['onEvent']): AppApi {
  const api: Partial<AppMethods> = {};
  for (const m of METHOD_NAMES) {
    // Each entry forwards to invoke with its own name; the mapped type keeps it typed.
    (api as Record<string, unknown>)[m] = (request: unknown) => invoke(m, request as never);
  }
  return { ...(api as AppMethods), onPoses, onEvent };
}

/** Calls a method on an AppApi by name (dispatchers use this after validation). */
export function dispatch<M extends MethodName>(api: AppMethods, method: M, request: Request<M>): Promise<Response<M>> {
  const fn = api[method] as (r: Request<M>) => Promise<Response<M>>;
  return fn.call(api, request);
}
