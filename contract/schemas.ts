// The data that crosses between a host (Electron main, the web-mode server) and
// the renderer. Every request, response and event has a zod schema here: hosts
// validate what arrives, the renderer validates what comes back. Imports only zod.
import { z } from 'zod';
import { RunEndReason, RunEvent } from './agent-runs';
import { EvalEvent } from './eval';
import { ModelPullEvent } from './local-models';
import { MAX_COORDINATE_M, MAX_SCRIPT_BYTES, formatBytes, utf8Bytes } from './limits';

export * from './agent-runs';

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

/** Most vertices one drawn mesh may carry (a described robot's link: its visual meshes' triangles, or its convex hull). */
export const MESH_MAX_VERTICES = 65_536;

/** Triangles: x, y, z per vertex, three vertex indices per face, each naming a vertex there is. */
const MeshPrimitive = z
  .object({
    shape: z.literal('mesh'),
    positions: z.array(z.number().finite()).max(MESH_MAX_VERTICES * 3),
    indices: z.array(z.number().int().nonnegative()).max(MESH_MAX_VERTICES * 6),
  })
  .superRefine((m, ctx) => {
    if (m.positions.length % 3) ctx.addIssue({ code: 'custom', path: ['positions'], message: 'three numbers per vertex (x, y, z)' });
    if (m.indices.length % 3) ctx.addIssue({ code: 'custom', path: ['indices'], message: 'three indices per triangle' });
    const n = m.positions.length / 3;
    if (m.indices.some((i) => i >= n))
      ctx.addIssue({ code: 'custom', path: ['indices'], message: `an index beyond the ${Math.floor(n)} vertices` });
  });

export const Primitive = z.discriminatedUnion('shape', [
  MeshPrimitive,
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
  /** Robot bodies: "base", then arm links ("turret", "upper", ...; a described arm's other links as "link:<name>"). */
  bodies: z.array(BodyMeta.extend({ part: z.string() })),
  camera: z.object({
    mount: z.enum(['head', 'wrist']),
    /** Head camera position in the base frame. */
    position: Vec3,
    pitchDeg: z.number(),
    fovDeg: z.number(),
    range: z.number(),
  }),
  /** The arm's joints in frame order, the gripper opening last: the built-in arm's five, or a described arm's own. */
  jointNames: z.array(z.string()),
  /** A described robot's links drawn other than their <visual> says (as collision shapes, simplified), each with why. */
  drawNotes: z.array(z.string()),
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
  // `by` names who pressed it when it was not the session's own person (a teacher), for the trace.
  z.object({ type: z.literal('estop_pressed'), by: z.string().min(1).max(100).optional() }).strict(),
  z.object({ type: z.literal('estop_released'), by: z.string().min(1).max(100).optional() }).strict(),
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

/**
 * A group's scene from above, small: enough for the teacher's overview to draw a
 * thumbnail (footprints at their latest poses) without a 3D view per group.
 */
export const GroupGlance = z.object({
  /** Floor size [x, z], metres. */
  floor: z.tuple([z.number(), z.number()]),
  floorColor: Color,
  /** Footprints: `k` object, robot part or person; centre (x, z), size (w along x, d along z), yaw about +Y. */
  shapes: z
    .array(
      z.object({
        k: z.enum(['object', 'robot', 'person']),
        x: z.number(),
        z: z.number(),
        w: z.number(),
        d: z.number(),
        yaw: z.number(),
        color: Color,
      }),
    )
    .max(400),
  /** Simulated seconds of the pose the glance was drawn from (null: no pose yet). */
  simTime: z.number().nullable(),
});
export type GroupGlance = z.infer<typeof GroupGlance>;

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
  /** Its e-stop is pressed (absent from hosts that do not follow it). */
  estop: z.boolean().optional(),
  /** Its scene from above as it stands (the classroom teacher's overview; absent elsewhere). */
  glance: GroupGlance.nullable().optional(),
});
export type SessionInfo = z.infer<typeof SessionInfo>;

/** Everything a host pushes besides pose frames. */
export const AppEvent = z.discriminatedUnion('type', [
  z.object({ type: z.literal('scene_loaded'), sceneId: z.string(), generation: z.number().int() }),
  z.object({ type: z.literal('robot_event'), event: RobotEventInfo }),
  /**
   * Someone in the scene spoke, as the view shows it: the speaker as the scene
   * knows them (null: a voice the scene does not draw). The robot's own event
   * names only people it has identified; the view draws the world.
   */
  z.object({ type: z.literal('person_spoke'), id: z.number().int(), person: z.string().nullable(), text: z.string() }),
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
  /** A local model's download moved on or ended. */
  z.object({ type: z.literal('model_pull'), event: ModelPullEvent }),
]);
export type AppEvent = z.infer<typeof AppEvent>;
