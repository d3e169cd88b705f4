// The data that crosses between a host (Electron main, the web-mode server) and
// the renderer. Every request, response and event has a zod schema here: hosts
// validate what arrives, the renderer validates what comes back. Imports only zod.
import { z } from 'zod';
import { EvalEvent } from './eval';
import { MAX_COORDINATE_M, MAX_SCRIPT_BYTES, formatBytes, utf8Bytes } from './limits';

export const Vec3 = z.tuple([z.number(), z.number(), z.number()]);
export type Vec3 = z.infer<typeof Vec3>;
/** Quaternion [x, y, z, w], right-handed, Y up (the sim's frame; the renderer draws it as is). */
export const Quat = z.tuple([z.number(), z.number(), z.number(), z.number()]);
export type Quat = z.infer<typeof Quat>;

export const Color = z.string().regex(/^#[0-9a-fA-F]{6}$/);

/** A string limited in UTF-8 bytes (what it costs on the wire), with a message that says so. */
export function bytesString(max: number, what: string) {
  return z
    .string()
    .min(1)
    .max(max, `${what} is over ${formatBytes(max)}`)
    .refine((s) => utf8Bytes(s) <= max, { message: `${what} is over ${formatBytes(max)} (UTF-8)` });
}

/** A coordinate given from outside: finite (zod 4 refuses Infinity and NaN) and within the world. */
const Coordinate = z.number().min(-MAX_COORDINATE_M).max(MAX_COORDINATE_M);
/** A position given from outside, metres. */
export const Position = z.tuple([Coordinate, Coordinate, Coordinate]);

/** A model server's base URL, e.g. http://127.0.0.1:8080/v1. */
export const BaseUrl = z
  .string()
  .max(500)
  .regex(/^https?:\/\/[^\s/]+[^\s]*$/, 'expected an http(s) URL such as http://127.0.0.1:8080/v1');

/** An uploaded script for a scripted model: a JSON array of assistant turns, as text. */
export const ScriptText = bytesString(MAX_SCRIPT_BYTES, 'the script');

// ------------------------------------------------------------------ scenes

export const SceneSummary = z.object({
  id: z.string(),
  title: z.string(),
  description: z.string(),
  robot: z.string(),
  robotKind: z.enum(['fixed_arm', 'mobile_manipulator', 'rover']),
  toolSet: z.string(),
  toolSets: z.array(z.string()),
  objects: z.number().int(),
  paper: z.string().nullable(),
});
export type SceneSummary = z.infer<typeof SceneSummary>;

export const Primitive = z.discriminatedUnion('shape', [
  z.object({ shape: z.literal('box'), size: Vec3 }),
  z.object({ shape: z.literal('sphere'), radius: z.number() }),
  z.object({ shape: z.literal('cylinder'), radius: z.number(), height: z.number() }),
  z.object({ shape: z.literal('capsule'), radius: z.number(), height: z.number() }),
]);
export type Primitive = z.infer<typeof Primitive>;

/** One drawable primitive in its body's frame. */
export const ShapePart = z.object({
  name: z.string(),
  geometry: Primitive,
  position: Vec3,
  rotation: Quat,
  color: Color,
});
export type ShapePart = z.infer<typeof ShapePart>;

/** A body the renderer draws: visual parts, the physics colliders (debug view), its pose. */
export const BodyMeta = z.object({
  /** Index of this body in every pose frame, or null when it never moves. */
  stream: z.number().int().nullable(),
  position: Vec3,
  rotation: Quat,
  parts: z.array(ShapePart),
  colliders: z.array(ShapePart),
});
export type BodyMeta = z.infer<typeof BodyMeta>;

export const ObjectMeta = z.object({
  id: z.string(),
  name: z.string(),
  type: z.string(),
  category: z.string(),
  color: Color,
  fixed: z.boolean(),
  hidden: z.boolean(),
  /** Local bounding-box size, metres. */
  size: Vec3,
  body: BodyMeta,
  /** The moving part of an articulated object (a door, a drawer). */
  door: BodyMeta.nullable(),
  states: z.record(z.string(), z.boolean()),
});
export type ObjectMeta = z.infer<typeof ObjectMeta>;

export const RobotMeta = z.object({
  id: z.string(),
  title: z.string(),
  kind: z.enum(['fixed_arm', 'mobile_manipulator', 'rover']),
  description: z.string(),
  baseColor: Color,
  armColor: Color,
  /** Base footprint box [length, height, width]. */
  baseSize: Vec3,
  wheelRadius: z.number().nullable(),
  /** Robot bodies: "base", then arm links ("turret", "upper", ...). */
  bodies: z.array(BodyMeta.extend({ part: z.string() })),
  camera: z.object({
    mount: z.enum(['head', 'wrist']),
    /** Head camera position in the base frame. */
    position: Vec3,
    pitchDeg: z.number(),
    fovDeg: z.number(),
    range: z.number(),
  }),
  jointNames: z.array(z.string()),
});
export type RobotMeta = z.infer<typeof RobotMeta>;

export const LocationMeta = z.object({
  id: z.string(),
  title: z.string().nullable(),
  kind: z.string(),
  position: Vec3,
  yawDeg: z.number(),
});
export type LocationMeta = z.infer<typeof LocationMeta>;

export const PersonMeta = z.object({
  id: z.string(),
  name: z.string(),
  height: z.number(),
  seated: z.boolean(),
  body: BodyMeta,
});
export type PersonMeta = z.infer<typeof PersonMeta>;

export const Environment = z.enum(['workbench', 'workshop', 'kitchen', 'field']);
export type Environment = z.infer<typeof Environment>;

/** Everything static about a loaded scene, sent once per load. Poses then stream. */
export const SceneMeta = z.object({
  id: z.string(),
  title: z.string(),
  description: z.string(),
  /** Increases on every load or reset; pose frames carry it so stale frames are dropped. */
  generation: z.number().int(),
  environment: Environment,
  floor: z.object({ size: z.tuple([z.number(), z.number()]), color: Color, kind: z.enum(['floor', 'grass']) }),
  objects: z.array(ObjectMeta),
  robot: RobotMeta,
  locations: z.array(LocationMeta),
  people: z.array(PersonMeta),
  /** Stream ids in frame order (object ids, "<id>#door", people, "robot#<part>"). */
  stream: z.array(z.string()),
  toolSet: z.string(),
  notes: z.array(z.string()),
});
export type SceneMeta = z.infer<typeof SceneMeta>;

// ------------------------------------------------------------------ tools

export const ToolCard = z.object({
  capability: z.string(),
  inputs: z.string(),
  outputs: z.string(),
  whenToUse: z.string(),
  constraints: z.string().nullable(),
  mode: z.enum(['on-demand', 'continuous', 'event']),
  dimension: z.enum(['perception', 'cognition', 'reasoning', 'execution']),
  requires: z.array(z.string()),
  tags: z.array(z.string()),
});
export type ToolCard = z.infer<typeof ToolCard>;

/** A JSON Schema object, as the model receives it. */
export const JsonSchema = z.record(z.string(), z.unknown());
export type JsonSchema = z.infer<typeof JsonSchema>;

export const ToolInfo = z.object({
  name: z.string(),
  description: z.string(),
  category: z.enum(['information', 'action']),
  parameters: JsonSchema,
  card: ToolCard,
});
export type ToolInfo = z.infer<typeof ToolInfo>;

export const ToolSetInfo = z.object({
  id: z.string(),
  title: z.string(),
  paper: z.string(),
  description: z.string(),
  /** Whether this scene's robot can use the set; if not, `reason` says why. */
  available: z.boolean(),
  reason: z.string().nullable(),
  isDefault: z.boolean(),
});
export type ToolSetInfo = z.infer<typeof ToolSetInfo>;

/** What a tool call gives back: `content` is exactly the text a model reads. */
export const ToolCallResult = z.object({
  callId: z.number().int(),
  tool: z.string(),
  set: z.string(),
  ok: z.boolean(),
  content: z.string(),
  data: z.unknown().optional(),
  elapsedMs: z.number(),
  simSeconds: z.number(),
});
export type ToolCallResult = z.infer<typeof ToolCallResult>;

// ------------------------------------------------------------------ world state and events

export const ExternalEvent = z.discriminatedUnion('type', [
  z.object({ type: z.literal('estop_pressed') }).strict(),
  z.object({ type: z.literal('estop_released') }).strict(),
  z.object({ type: z.literal('person_said'), person: z.string().min(1).max(100).optional(), text: z.string().min(1).max(2000) }).strict(),
  z
    .object({ type: z.literal('object_moved'), object: z.string().min(1).max(200), to: Position, by: z.string().max(100).optional() })
    .strict(),
  z.object({ type: z.literal('set_battery'), percent: z.number().min(0).max(100) }).strict(),
]);
export type ExternalEvent = z.infer<typeof ExternalEvent>;

export const Battery = z.object({
  percent: z.number(),
  level: z.enum(['okay', 'low', 'critical', 'empty']),
  charging: z.boolean(),
  docked: z.boolean(),
});
export type Battery = z.infer<typeof Battery>;

export const RobotEventInfo = z.object({
  id: z.number().int(),
  time: z.number(),
  type: z.string(),
  text: z.string(),
});
export type RobotEventInfo = z.infer<typeof RobotEventInfo>;

export const Snapshot = z.object({
  sceneId: z.string(),
  time: z.number(),
  facts: z.array(z.string()),
  battery: Battery,
  estop: z.boolean(),
  holding: z.string().nullable(),
  at: z.string().nullable(),
  posture: z.string().nullable(),
  busy: z.boolean(),
  events: z.array(RobotEventInfo),
});
export type Snapshot = z.infer<typeof Snapshot>;

// ------------------------------------------------------------------ agent runs

export const ApprovalDecision = z.enum(['approve', 'reject']);
export type ApprovalDecision = z.infer<typeof ApprovalDecision>;

export const ApprovalMode = z.enum(['auto', 'ask', 'deny']);
export type ApprovalMode = z.infer<typeof ApprovalMode>;

export const TokenUsage = z.object({ promptTokens: z.number(), completionTokens: z.number(), totalTokens: z.number() });
export type TokenUsage = z.infer<typeof TokenUsage>;

/** How a run ended: done (a final answer), stopped, limit (time or iterations), error (the model failed). */
export const RunEndReason = z.enum(['done', 'stopped', 'limit', 'error']);
export type RunEndReason = z.infer<typeof RunEndReason>;

/**
 * The stage path of the flow an event comes from ("planner", "planner/executor",
 * "critic"); absent for a single-loop workflow. The trace panel nests by it.
 */
const staged = { stage: z.string().optional() };

/** One API call a sandboxed program made, with what it got back. */
export const CodeRunCall = z.object({
  seq: z.number().int(),
  name: z.string(),
  args: z.unknown(),
  ok: z.boolean(),
  result: z.string().optional(),
  error: z.string().optional(),
  durationMs: z.number(),
});
export type CodeRunCall = z.infer<typeof CodeRunCall>;

/** What an agent run reports as it goes, in order; `callId` is the model's tool-call id. */
export const RunEvent = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('started'),
    runId: z.string(),
    message: z.string(),
    workflow: z.string(),
    model: z.string(),
    tracePath: z.string().nullable(),
  }),
  z.object({ kind: z.literal('text_delta'), runId: z.string(), ...staged, iteration: z.number().int(), text: z.string() }),
  /** Streamed reasoning ("thinking") of a model that reports it; shown apart from the answer. */
  z.object({ kind: z.literal('reasoning_delta'), runId: z.string(), ...staged, iteration: z.number().int(), text: z.string() }),
  /** One model turn is complete: its text and the tokens it took. */
  z.object({
    kind: z.literal('assistant'),
    runId: z.string(),
    ...staged,
    iteration: z.number().int(),
    text: z.string().nullable(),
    usage: TokenUsage.nullable(),
    reasoning: z.string().optional(),
  }),
  z.object({
    kind: z.literal('tool_call'),
    runId: z.string(),
    ...staged,
    callId: z.string(),
    iteration: z.number().int(),
    name: z.string(),
    args: z.unknown().optional(),
    /** The call that made this one: a sandboxed program's API calls name its run_program call. */
    parent: z.string().optional(),
  }),
  z.object({
    kind: z.literal('tool_result'),
    runId: z.string(),
    ...staged,
    callId: z.string(),
    name: z.string(),
    ok: z.boolean(),
    status: z.string(),
    content: z.string(),
    durationMs: z.number(),
  }),
  z.object({
    kind: z.literal('warning'),
    runId: z.string(),
    ...staged,
    code: z.string(),
    message: z.string(),
    callId: z.string().optional(),
  }),
  z.object({
    kind: z.literal('approval_request'),
    runId: z.string(),
    id: z.string(),
    /** The tool call it gates (the view puts the prompt before that call's line). */
    callId: z.string().optional(),
    tool: z.string(),
    args: z.unknown().optional(),
    reason: z.string(),
  }),
  z.object({
    kind: z.literal('approval'),
    runId: z.string(),
    callId: z.string(),
    tool: z.string(),
    decision: z.enum(['approved', 'rejected', 'denied']),
    note: z.string().optional(),
  }),
  /** Shadow mode: the simulator's prediction and the real robot's report differ. */
  z.object({
    kind: z.literal('divergence'),
    runId: z.string(),
    subject: z.string(),
    predicted: z.string(),
    actual: z.string(),
    callId: z.string().optional(),
  }),
  /** The workflow asks the person (RAIDER's recovery `ask`); the app answers with answerAsk. */
  z.object({ kind: z.literal('ask'), runId: z.string(), id: z.string(), question: z.string(), stage: z.string() }),
  /** The question was answered (by the person, or nobody when the run stopped first). */
  z.object({
    kind: z.literal('answer'),
    runId: z.string(),
    id: z.string(),
    answer: z.string(),
    by: z.enum(['person', 'simulated', 'none']),
  }),
  /** A workflow's own step: a route, a hand-off, a critic's verdict, a preemption. */
  z.object({ kind: z.literal('note'), runId: z.string(), ...staged, text: z.string(), data: z.unknown().optional() }),
  /**
   * A program a model wrote ran in the sandbox (ALRM's Code-as-Policy, RAIDER's
   * recovery): the code, how it ended, its output and every API call with its
   * result. `callId` is the tool call that ran it, when a tool did.
   */
  z.object({
    kind: z.literal('code_run'),
    runId: z.string(),
    ...staged,
    id: z.string(),
    callId: z.string().optional(),
    language: z.literal('javascript'),
    code: z.string(),
    ok: z.boolean(),
    error: z.object({ kind: z.string(), message: z.string(), line: z.number().optional() }).optional(),
    output: z.string(),
    calls: z.array(CodeRunCall),
    durationMs: z.number(),
  }),
  z.object({ kind: z.literal('stop'), runId: z.string(), ...staged, message: z.string() }),
  z.object({ kind: z.literal('error'), runId: z.string(), ...staged, message: z.string() }),
  z.object({
    kind: z.literal('final'),
    runId: z.string(),
    text: z.string(),
    reason: RunEndReason,
    detail: z.string(),
    tracePath: z.string().nullable(),
    iterations: z.number().int(),
    toolCalls: z.number().int(),
    usage: TokenUsage,
    durationMs: z.number(),
  }),
]);
export type RunEvent = z.infer<typeof RunEvent>;

export const WorkflowInfo = z.object({
  id: z.string(),
  /** In plain words, for the picker ("Plan, act and check the result"). */
  title: z.string(),
  /** The paper it comes from, e.g. "003" (see /papers). */
  paper: z.string(),
  /** Where in the paper, e.g. "§3–§5". */
  section: z.string().optional(),
  /** The paper's own name for it (shown second): "DFKI planner–executor". */
  source: z.string().optional(),
  /** The stages a turn may run, in order ("router", "planner", "critic"). */
  stages: z.array(z.string()).optional(),
  description: z.string(),
  /** The system prompt this workflow gives a model for the robot now loaded. */
  systemPrompt: z.string(),
});
export type WorkflowInfo = z.infer<typeof WorkflowInfo>;

export const ProbeResult = z.object({
  spec: z.string(),
  baseURL: z.string(),
  reachable: z.boolean(),
  models: z.array(z.string()),
  nativeToolCalls: z.boolean(),
  textToolCalls: z.boolean(),
  latencyMs: z.number(),
  notes: z.array(z.string()),
  error: z.object({ kind: z.string(), message: z.string(), fix: z.string().nullable() }).nullable(),
});
export type ProbeResult = z.infer<typeof ProbeResult>;

export const LocalModels = z.object({
  ollama: z.object({ baseURL: z.string(), reachable: z.boolean(), models: z.array(z.string()) }),
});
export type LocalModels = z.infer<typeof LocalModels>;

/** One trace line as recorded (agents/runtime/trace validates the full shape on import). */
export const TraceLineInfo = z.object({ type: z.string() }).passthrough();
export type TraceLineInfo = z.infer<typeof TraceLineInfo>;

export const ImportedTrace = z.object({
  header: TraceLineInfo,
  records: z.array(TraceLineInfo),
  truncated: z.boolean(),
  /** What the reader should know: lines left out (damaged), a run cut off before its end. */
  notes: z.array(z.string()).optional(),
});
export type ImportedTrace = z.infer<typeof ImportedTrace>;

/** The physics clock of a paced world. */
export const SimState = z.object({
  paused: z.boolean(),
  /** Simulated seconds since the scene loaded. */
  time: z.number(),
  /** Simulated seconds per wall second while running. */
  speed: z.number(),
  /** Seconds one physics step advances. */
  dt: z.number(),
});
export type SimState = z.infer<typeof SimState>;

/** An exercise's state as a classroom overview shows it: leaf goals that hold, of all. */
export const ExerciseScore = z.object({
  id: z.string(),
  title: z.string(),
  ok: z.boolean(),
  passed: z.number().int(),
  total: z.number().int(),
});
export type ExerciseScore = z.infer<typeof ExerciseScore>;

/** A session of a host that serves several (web mode: one per browser tab). */
export const SessionInfo = z.object({
  /** Public id: names the session for observers; it gives no control. */
  id: z.string(),
  scene: z.string().nullable(),
  /** Tabs connected to it (0 while it waits for a reload). */
  clients: z.number().int(),
  observers: z.number().int(),
  running: z.boolean(),
  createdAt: z.string(),
  /** The caller's own session. */
  own: z.boolean(),
  /** The name a group gave itself (classroom mode), or null. */
  label: z.string().nullable(),
  /** The last run: what was asked and how it ended (null while it runs). */
  lastRun: z.object({ message: z.string(), reason: RunEndReason.nullable() }).nullable(),
  /** The exercise last checked, with its score. */
  exercise: ExerciseScore.nullable(),
});
export type SessionInfo = z.infer<typeof SessionInfo>;

/** Everything a host pushes besides pose frames. */
export const AppEvent = z.discriminatedUnion('type', [
  z.object({ type: z.literal('scene_loaded'), sceneId: z.string(), generation: z.number().int() }),
  z.object({ type: z.literal('robot_event'), event: RobotEventInfo }),
  z.object({
    type: z.literal('tool_activity'),
    phase: z.enum(['start', 'end']),
    callId: z.number().int(),
    tool: z.string(),
    args: z.unknown().optional(),
    /** Objects, people or places the call names: the view highlights them. */
    targets: z.array(z.string()),
    ok: z.boolean().nullable(),
    source: z.enum(['console', 'agent']),
  }),
  z.object({ type: z.literal('run'), event: RunEvent }),
  z.object({ type: z.literal('eval'), event: EvalEvent }),
  /** The physics clock was paused, resumed or stepped. */
  z.object({ type: z.literal('sim_state'), state: SimState }),
  /** An exercise was checked (the classroom overview shows the score). */
  z.object({ type: z.literal('exercise'), score: ExerciseScore }),
]);
export type AppEvent = z.infer<typeof AppEvent>;
