// The rosbridge mapping file: how a ROS 1 or ROS 2 robot's topics, services and
// actions stand for the Robot seam's skills and queries. Declarative JSON,
// validated with zod; a wrong field gets one line naming it and the fix.
// Positions in the file are in the ROS map frame (REP 103: x forward, y left,
// z up); the source converts them to Skillbridge's Y-up frame once (./frames.ts).
import { readFailure, readUserText } from '../../base/user-file';
import { z } from 'zod';
import { SKILL_NAMES, type SkillName } from '../skills';

export const MAPPING_FORMAT = 'skillbridge-rosbridge/1';

const RosName = z.string().regex(/^\/?[A-Za-z0-9_/~]+$/, 'must be a ROS name such as /navigate_to_pose');
const RosType = z
  .string()
  .regex(/^[A-Za-z0-9_]+\/(msg\/|srv\/|action\/)?[A-Za-z0-9_]+$/, 'must be a ROS type such as nav2_msgs/action/NavigateToPose');
const P3 = z.tuple([z.number(), z.number(), z.number()]);
/** A message template: strings "$name" are replaced by the call's values ($object, $pose, $point, $text…). */
const Template = z.record(z.string(), z.unknown());
/** A dotted path into a message, e.g. "error_code" or "pose.pose.position". */
const Path = z.string().min(1).max(200);

const ResultSpec = z.strictObject({
  /** A path whose value means success: compared with `equals` (default: truthy). */
  success: z.strictObject({ path: Path, equals: z.union([z.number(), z.string(), z.boolean()]).optional() }).optional(),
  /** A path to a readable reason when it failed (e.g. Jazzy's error_msg). */
  reason: Path.optional(),
  /** What a success says, with {path} substitutions. */
  summary: z.string().max(500).optional(),
});

const ActionSkill = z.strictObject({
  action: RosName,
  type: RosType,
  goal: Template.default({}),
  /** Feedback → progress: a text with {path} substitutions, and a path to a 0…1 fraction if the action reports one. */
  feedback: z.strictObject({ text: z.string().max(300).optional(), fraction: Path.optional() }).optional(),
  result: ResultSpec.optional(),
  /** Longest the action may run before it is cancelled, seconds. */
  timeoutS: z.number().positive().max(86_400).default(300),
});
const ServiceSkill = z.strictObject({
  service: RosName,
  type: RosType,
  request: Template.default({}),
  result: ResultSpec.optional(),
  timeoutS: z.number().positive().max(3600).default(30),
});
/** A topic skill's message: a template, or one value ("$pose" for Nav2's /goal_pose). */
const TopicSkill = z.strictObject({
  topic: RosName,
  type: RosType,
  msg: z.union([Template, z.string().regex(/^\$[\w.]+$/, 'must be a message template or one value such as "$pose"')]).default({}),
});
export const SkillMapping = z.union([ActionSkill, ServiceSkill, TopicSkill]);
export type SkillMapping = z.infer<typeof SkillMapping>;

const EstopTopic = z.strictObject({ topic: RosName, type: RosType.default('std_msgs/msg/Bool'), path: Path.default('data') });
const NoEstop = z.strictObject({ none: z.literal(true), why: z.string().max(300).optional() });

export const Mapping = z.strictObject({
  format: z.literal(MAPPING_FORMAT),
  /** ROS 1 (actionlib over topics) or ROS 2 (rosbridge 2.x native actions). */
  ros: z.union([z.literal(1), z.literal(2)]),
  robot: z.strictObject({
    id: z.string().min(1),
    name: z.string().min(1),
    kind: z.enum(['fixed_arm', 'mobile_manipulator', 'rover']),
    description: z.string().default(''),
    postures: z.array(z.string()).default([]),
  }),
  /** The frame poses are given in and sent with. */
  frame: z.string().min(1).default('map'),
  places: z
    .array(
      z.strictObject({
        id: z.string().min(1),
        title: z.string().optional(),
        x: z.number(),
        y: z.number(),
        z: z.number().default(0),
        yawDeg: z.number().default(0),
      }),
    )
    .default([]),
  referencePositions: z.array(z.strictObject({ id: z.string().min(1), position: P3, description: z.string().optional() })).default([]),
  workspace: z.strictObject({ min: P3, max: P3 }).optional(),
  battery: z
    .strictObject({
      topic: RosName,
      type: RosType.default('sensor_msgs/msg/BatteryState'),
      low: z.number().min(0).max(100).default(20),
      critical: z.number().min(0).max(100).default(5),
    })
    .optional(),
  /**
   * The emergency stop: a Bool topic, true while pressed; or, for a robot that
   * cannot report one, {"none": true} (motion then needs the person's consent).
   */
  estop: z.union([EstopTopic, NoEstop], {
    error: (i) =>
      i.input === undefined
        ? 'required: map the e-stop topic ({"topic": "/emergency_stop", "type": "std_msgs/msg/Bool", "path": "data"}) or declare {"none": true} if the robot cannot report one'
        : 'must be {"topic", "type", "path"} or {"none": true, "why"}',
  }),
  /** The oldest a reading may be and still count, seconds: by arrival, and by its header.stamp where it has one. */
  maxAgeS: z.number().positive().max(3600).default(2),
  /**
   * false: the robot runs no rosapi node. The ROS version is then the mapping's
   * `ros`, and the mapping is not checked against the robot at connect (a path
   * that names no field still never reads as a value: it stays unknown).
   */
  rosapi: z.boolean().default(true),
  /** Where the robot is (its localisation): a pose topic and the path to a geometry_msgs/Pose in it. */
  pose: z
    .strictObject({ topic: RosName, type: RosType, path: Path.default('pose.pose'), maxAgeS: z.number().positive().max(86_400).optional() })
    .optional(),
  /** sensor_msgs/JointState: the joints as the robot measures them (shadow mode compares them with the twin's, by name). */
  jointStates: z
    .strictObject({
      topic: RosName,
      type: RosType.default('sensor_msgs/msg/JointState'),
      maxAgeS: z.number().positive().max(86_400).optional(),
    })
    .optional(),
  /** What the robot sees: an array topic, with paths to each item's id, name and position (ROS frame). */
  detections: z
    .strictObject({
      topic: RosName,
      type: RosType,
      items: Path.default('detections'),
      id: Path,
      name: Path.optional(),
      category: Path.optional(),
      position: Path,
      maxAgeS: z.number().positive().max(86_400).optional(),
    })
    .optional(),
  skills: z.record(z.string(), SkillMapping).superRefine((skills, ctx) => {
    for (const k of Object.keys(skills)) {
      if (!(SKILL_NAMES as string[]).includes(k))
        ctx.addIssue({ code: 'custom', path: [k], message: `is not a skill; skills are ${SKILL_NAMES.join(', ')}` });
    }
  }),
});
export type Mapping = z.infer<typeof Mapping>;
export type MappedSkills = Partial<Record<SkillName, SkillMapping>>;

export class MappingError extends Error {
  override name = 'MappingError';
}

/** Reads and validates a mapping file; one line naming the file, the field and the problem. */
export async function loadMapping(file: string): Promise<Mapping> {
  let text: string;
  try {
    text = await readUserText(file);
  } catch (e) {
    throw new MappingError(`mapping ${file}: ${readFailure(e)}`);
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (e) {
    throw new MappingError(`mapping ${file} is not valid JSON: ${(e as Error).message}`);
  }
  return parseMapping(data, file);
}

export function parseMapping(data: unknown, file = '(mapping)'): Mapping {
  const r = Mapping.safeParse(data);
  if (!r.success) {
    const i = r.error.issues[0]!;
    const where = i.path.length ? i.path.map(String).join('.') : '(top level)';
    const hint = i.code === 'unrecognized_keys' ? ' (remove it, or check its spelling against examples/rosbridge/nav2-moveit.json)' : '';
    throw new MappingError(`mapping ${file}: ${where}: ${i.message}${hint}`);
  }
  return r.data;
}

export function kindOf(m: SkillMapping): 'action' | 'service' | 'topic' {
  return 'action' in m ? 'action' : 'service' in m ? 'service' : 'topic';
}
