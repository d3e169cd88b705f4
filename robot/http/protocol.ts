// The robot HTTP API (skillbridge-robot/1): the Robot seam over HTTP, as ALRM
// runs its robot behind a REST server (paper 002 §III.B.C). The server
// (hosts/robot-api) and the `http` robot source (./source.ts) both import these
// schemas, and the OpenAPI document (./openapi.ts) is generated from them, so
// the three cannot drift. Everything a client sends and everything it reads is
// validated: a robot that answers outside this protocol gets a one-line error
// naming the field.
import { z } from 'zod';
import { FAILURE_CODES } from '../robot';
import { SKILL_ARGS, SKILL_NAMES, type SkillName } from '../skills';

export const PROTOCOL = 'skillbridge-robot/1';
export const TOKEN_HEADER = 'authorization';

const Vec3 = z.tuple([z.number(), z.number(), z.number()]);
const Id = z.string().min(1).max(200);

export const CapabilitySchema = z.enum([
  'arm',
  'base',
  'rover',
  'perception',
  'people',
  'speech',
  'battery',
  'events',
  'world_model',
  'partial_observability',
  'camera',
]);

export const RobotInfoSchema = z.object({
  id: z.string(),
  name: z.string(),
  kind: z.enum(['fixed_arm', 'mobile_manipulator', 'rover']),
  description: z.string(),
  capabilities: z.array(CapabilitySchema),
  scene: z.object({ id: z.string(), title: z.string(), notes: z.array(z.string()), userInfo: z.array(z.string()), toolSet: z.string() }),
  arm: z.object({ reachM: z.number(), payloadKg: z.number(), gripperOpeningM: z.number(), postures: z.array(z.string()) }).optional(),
  base: z.object({ footprintM: z.tuple([z.number(), z.number()]), maxSpeedMps: z.number(), tucksArmItself: z.boolean() }).optional(),
  places: z.array(
    z.object({
      id: z.string(),
      kind: z.string(),
      title: z.string().optional(),
      position: Vec3,
      yaw: z.number(),
      serves: z.array(z.string()),
    }),
  ),
  referencePositions: z.array(z.object({ id: z.string(), position: Vec3, description: z.string().optional() })),
  batteryThresholds: z.object({ low: z.number(), critical: z.number() }),
  workspace: z.object({ min: Vec3, max: Vec3 }).optional(),
  /** 'not_reported': the robot has no e-stop state to report (motion then needs --accept-no-estop). */
  estop: z.enum(['reported', 'not_reported']).optional(),
});

/** GET /v1/info */
export const InfoResponse = z.object({
  protocol: z.literal(PROTOCOL),
  info: RobotInfoSchema,
  /** The relation names perception.related accepts. */
  relations: z.array(z.string()),
});
export type InfoResponse = z.infer<typeof InfoResponse>;

export const OutcomeSchema = z.union([
  z.object({
    ok: z.literal(true),
    summary: z.string(),
    data: z.record(z.string(), z.unknown()).optional(),
    incidents: z.array(z.string()).optional(),
  }),
  z.object({
    ok: z.literal(false),
    code: z.enum(FAILURE_CODES),
    summary: z.string(),
    data: z.record(z.string(), z.unknown()).optional(),
    incidents: z.array(z.string()).optional(),
  }),
]);

export const RobotEventSchema = z.object({
  id: z.number(),
  time: z.number(),
  type: z.string(),
  text: z.string(),
  data: z.record(z.string(), z.unknown()),
});
const BatterySchema = z.object({
  percent: z.number(),
  level: z.enum(['okay', 'low', 'critical', 'empty']),
  charging: z.boolean(),
  docked: z.boolean(),
});
/** The robot's e-stop and battery with their ages (the client judges freshness against maxAgeS). */
export const SafetyReportSchema = z.object({
  estop: z.object({
    state: z.enum(['released', 'pressed', 'unknown', 'not_reported']),
    ageS: z.number().min(0).optional(),
    detail: z.string().optional(),
  }),
  battery: z.object({ percent: z.number().optional(), ageS: z.number().min(0).optional() }).optional(),
  maxAgeS: z.number().positive(),
});
/** The first event of every event stream: the server's epoch, new at each start (event ids restart with it). */
export const StreamHello = z.object({ epoch: z.string().min(1).max(200) });
const WorldNode = z.object({
  id: z.string(),
  type: z.string(),
  name: z.string(),
  category: z.string(),
  parent: z.string().optional(),
  relation: z.enum(['on', 'in', 'at']).optional(),
  position: Vec3.optional(),
  attributes: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])),
  source: z.enum(['perception', 'operator']),
  known: z.object({ time: z.number(), how: z.enum(['seen', 'placed', 'held', 'handed']), stale: z.boolean() }).optional(),
  where: z.string().optional(),
  operatorSet: z.array(z.string()).optional(),
});
const NameKind = z.enum(['object', 'person', 'location']);

/** Every query of the seam: POST /v1/query/{name} with `args`, answered `{ "value": … }`. */
export const QUERIES = {
  'perception.resolve': {
    args: z.strictObject({
      name: z.string().max(500),
      kinds: z.array(NameKind).optional(),
      pool: z.enum(['all', 'visible', 'known']).optional(),
    }),
    value: z.union([
      z.object({ ok: z.literal(true), id: z.string(), kind: NameKind }),
      z.object({ ok: z.literal(false), reason: z.enum(['unknown', 'ambiguous']), message: z.string(), candidates: z.array(z.string()) }),
    ]),
  },
  'perception.detect': {
    args: z.strictObject({}),
    value: z.array(z.object({ id: z.string(), name: z.string(), category: z.string(), distanceM: z.number(), position: Vec3 })),
  },
  'perception.distanceTo': { args: z.strictObject({ id: Id }), value: z.number() },
  'perception.distanceBetween': { args: z.strictObject({ a: Id, b: Id }), value: z.number() },
  'perception.objectState': { args: z.strictObject({ id: Id }), value: z.record(z.string(), z.boolean()) },
  'perception.objectProperties': { args: z.strictObject({ id: Id }), value: z.record(z.string(), z.unknown()) },
  'perception.holding': { args: z.strictObject({}), value: z.string().nullable() },
  'perception.related': { args: z.strictObject({ relation: z.string().max(100), id: Id }), value: z.array(z.string()) },
  'perception.snapshot': { args: z.strictObject({}), value: z.array(z.string()) },
  'perception.pose': { args: z.strictObject({ id: Id }), value: z.object({ position: Vec3, yawDeg: z.number() }).nullable() },
  'perception.basePose': { args: z.strictObject({}), value: z.object({ position: Vec3, yawDeg: z.number() }) },
  'perception.referencePoint': {
    args: z.strictObject({ name: z.string().max(500) }),
    value: z.object({ position: Vec3, label: z.string() }).nullable(),
  },
  'people.around': { args: z.strictObject({}), value: z.array(z.string()) },
  'people.recognize': { args: z.strictObject({}), value: z.array(z.object({ id: z.string(), name: z.string() })) },
  'people.distanceTo': { args: z.strictObject({ person: Id }), value: z.number() },
  'people.handsFree': { args: z.strictObject({ person: Id }), value: z.boolean() },
  'people.gazeAtRobot': { args: z.strictObject({ person: Id }), value: z.boolean() },
  'people.freePath': {
    args: z.strictObject({ target: Id }),
    value: z.object({ free: z.boolean(), obstacle: z.string().optional(), via: z.number().optional(), reason: z.string().optional() }),
  },
  'arm.graspPose': {
    args: z.strictObject({ object: Id }),
    value: z.union([
      z.object({ ok: z.literal(true), pose: z.object({ position: Vec3, tiltDeg: z.number() }) }),
      z.object({ ok: z.literal(false), summary: z.string() }),
    ]),
  },
  'worldModel.nodes': { args: z.strictObject({}), value: z.array(WorldNode) },
  'worldModel.node': { args: z.strictObject({ id: Id }), value: WorldNode.nullable() },
  'worldModel.addNode': {
    args: z.strictObject({ id: Id, type: Id, parent: Id, relation: z.enum(['on', 'in']).optional() }),
    value: WorldNode,
  },
  'worldModel.setAttribute': {
    args: z.strictObject({ id: Id, key: Id, value: z.union([z.string().max(1000), z.number(), z.boolean()]) }),
    value: WorldNode,
  },
  'camera.picture': {
    args: z.strictObject({ width: z.int().min(16).max(640).optional() }),
    value: z.object({
      mimeType: z.literal('image/png'),
      data: z.base64().max(4_000_000),
      width: z.int().positive(),
      height: z.int().positive(),
      time: z.number(),
    }),
  },
  'robot.battery': { args: z.strictObject({}), value: BatterySchema },
  'robot.time': { args: z.strictObject({}), value: z.number() },
  'robot.safety': { args: z.strictObject({}), value: SafetyReportSchema },
  'events.since': { args: z.strictObject({ lastId: z.int().min(0) }), value: z.array(RobotEventSchema) },
  'events.lastId': { args: z.strictObject({}), value: z.int() },
} as const;
export type QueryName = keyof typeof QUERIES;
export const QUERY_NAMES = Object.keys(QUERIES) as QueryName[];

export const QueryResponse = z.object({ value: z.unknown() });

/** A long skill runs as a job: POST /v1/skills/{skill} starts it, GET /v1/jobs/{id} reads it, POST …/cancel stops it. */
export const JobStatus = z.enum(['running', 'succeeded', 'failed', 'cancelled']);
export const JobSchema = z.object({
  id: z.string(),
  skill: z.enum(SKILL_NAMES as [SkillName, ...SkillName[]]),
  args: z.unknown(),
  status: JobStatus,
  /** How far the skill has got: robot seconds since it started, and a fraction and text where the robot reports them. */
  progress: z.object({ elapsedS: z.number(), fraction: z.number().min(0).max(1).optional(), text: z.string().optional() }),
  outcome: OutcomeSchema.nullable(),
});
export type Job = z.infer<typeof JobSchema>;
export const JobResponse = z.object({ job: JobSchema });

export { SKILL_ARGS };

/** ALRM's eight actions by their paper names (paper 002 §III.B.B), with the paper's argument names. */
export const ALRM_ACTIONS = [
  'pick',
  'place',
  'move_to_home_pos',
  'move_to',
  'get_objects',
  'get_reference_names',
  'compute_grasp',
  'get_pose',
] as const;
export type AlrmAction = (typeof ALRM_ACTIONS)[number];
export const AlrmResponse = z.object({ ok: z.boolean(), result: z.string(), data: z.unknown().optional() });

export const ErrorResponse = z.object({ error: z.object({ code: z.string(), message: z.string() }) });
export type ErrorCode =
  'unauthorized' | 'bad_request' | 'not_found' | 'unsupported' | 'too_large' | 'too_slow' | 'query_failed' | 'internal' | 'wrong_host';

/** One line naming the first wrong field of a zod error. */
export function firstIssue(e: z.ZodError, what: string): string {
  const i = e.issues[0]!;
  const where = i.path.length ? i.path.map(String).join('.') : '(body)';
  return `${what} ${where}: ${i.message}`;
}
