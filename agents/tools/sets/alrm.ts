// ALRM's eight robot API actions (paper 002 §III.B): control (pick, place,
// move_to_home_pos, move_to), perception (get_objects, get_reference_names) and
// poses (compute_grasp, get_pose). Here they run on the physics world, so a move
// that the arm cannot make fails with the reason instead of returning a placeholder.
// Positions are in the robot's base frame (REP 103, ./../frames.ts), converted here.
import { z } from 'zod';
import type { Robot } from '../../../robot/robot';
import { fail, guarded, list, ok, outcomeResult, resolveName } from '../common';
import { BASE_FRAME, outcomeInBaseFrame, showPoint, toBase, toWorld } from '../frames';
import { type Tool, defineTool } from '../tool';

const Position = z.strictObject({ x: z.number(), y: z.number(), z: z.number() }).describe(BASE_FRAME);
const Pose = z.strictObject({
  position: Position,
  tilt_deg: z.number().min(0).max(90).default(0).describe('hand tilt from pointing straight down (0) to horizontal (90)'),
});

async function targetPoint(
  robot: Robot,
  target: string,
): Promise<{ position: [number, number, number]; label: string; object?: string } | undefined> {
  const ref = await robot.perception.referencePoint(target);
  if (ref) return ref;
  const r = await robot.perception.resolve(target, { kinds: ['object'] });
  if (!r.ok) return undefined;
  const pose = await robot.perception.pose(r.id);
  return pose ? { position: pose.position, label: r.id, object: r.id } : undefined;
}

export const ALRM: Tool[] = [
  defineTool({
    name: 'get_objects',
    description: 'Returns the names of the objects present in the environment.',
    category: 'information',
    params: z.strictObject({}),
    card: {
      outputs: 'object names with their kind',
      whenToUse: 'first, to learn which objects exist before acting on them',
      dimension: 'perception',
      requires: ['perception'],
      tags: ['objects', 'names', 'list', 'environment'],
    },
    execute: async (_a, { robot }) => {
      const seen = await robot.perception.detect();
      return ok(
        `Objects: ${list(seen.map((d) => `${d.id} (${d.name}, ${d.category})`))}.`,
        seen.map((d) => d.id),
      );
    },
  }),
  defineTool({
    name: 'get_reference_names',
    description:
      'Returns the names of reference positions objects can be placed at (e.g. center, center-left, front), and the relative forms "left of <object>", "right of <object>", "in front of <object>", "behind <object>".',
    category: 'information',
    params: z.strictObject({}),
    card: {
      outputs: 'reference position names and what they mean',
      whenToUse: 'before placing at a named position',
      dimension: 'perception',
      tags: ['reference', 'position', 'where', 'place'],
    },
    execute: async (_a, { robot }) => {
      const refs = robot.info.referencePositions;
      const lines = refs.map((r) => `${r.id}${r.description ? `: ${r.description}` : ''}`);
      return ok(
        `Reference positions: ${list(lines)}. Relative to any object: "left of <object>", "right of <object>", "in front of <object>", "behind <object>".`,
        refs.map((r) => r.id),
      );
    },
  }),
  defineTool({
    name: 'get_pose',
    description: `Returns the position of an object or of a reference position (e.g. "bowl_1", "center-left", "left of coke_can_1") in the ${BASE_FRAME}.`,
    category: 'information',
    params: z.strictObject({ name: z.string().min(1).describe('object name or reference position') }),
    card: {
      outputs: 'position {x, y, z} in metres, robot base frame (x forward, y left, z up)',
      whenToUse: 'to know where something is, or where a reference position lies',
      dimension: 'perception',
      requires: ['perception'],
      tags: ['pose', 'position', 'where', 'location'],
    },
    execute: async ({ name }, { robot }) => {
      const t = await targetPoint(robot, name);
      if (!t) {
        const r = await robot.perception.resolve(name, { kinds: ['object'] });
        return fail(
          r.ok ? `no pose for ${name}` : `${r.message} Reference positions: ${robot.info.referencePositions.map((x) => x.id).join(', ')}.`,
        );
      }
      const position = toBase(t.position, await robot.perception.basePose());
      return ok(`Pose of ${t.label} (base frame): ${JSON.stringify({ position })}.`, { position });
    },
  }),
  defineTool({
    name: 'compute_grasp',
    description: `Computes a grasp pose for an object: the gripper position in the ${BASE_FRAME}, and its tilt.`,
    category: 'information',
    params: z.strictObject({ object_name: z.string().min(1) }),
    card: {
      outputs: 'grasp pose {position, tilt_deg}, or why no grasp exists',
      whenToUse: 'before picking, to check a grasp exists',
      dimension: 'reasoning',
      requires: ['arm'],
      tags: ['grasp', 'pose', 'pick'],
    },
    execute: async ({ object_name }, { robot }) =>
      guarded(async () => {
        const id = await resolveName(robot, object_name);
        const g = await robot.arm!.graspPose(id);
        if (!g.ok) return fail(g.summary);
        const pose = { position: toBase(g.pose.position, await robot.perception.basePose()), tilt_deg: Math.round(g.pose.tiltDeg) };
        return ok(`Grasp pose for ${id} (base frame): ${JSON.stringify(pose)}.`, pose);
      }),
  }),
  defineTool({
    name: 'pick',
    description: 'Picks up an object: moves to its grasp pose, closes the gripper and lifts it.',
    category: 'action',
    params: z.strictObject({ object_name: z.string().min(1) }),
    card: {
      outputs: 'e.g. "The lemon was successfully picked" or the reason it failed',
      whenToUse: 'to take one object; the gripper must be empty',
      dimension: 'execution',
      requires: ['arm'],
      tags: ['pick', 'grasp', 'take'],
    },
    execute: async ({ object_name }, { robot, signal }) =>
      guarded(async () => outcomeResult(await robot.arm!.pick(await resolveName(robot, object_name), signal))),
  }),
  defineTool({
    name: 'place',
    description:
      'Places the held object at a target: an object (a container such as a bowl or basket, or a surface), a reference position ("center", "left of coke_can_1"), or an explicit position.',
    category: 'action',
    params: z
      .strictObject({
        target: z.string().min(1).optional().describe('object or reference position name'),
        position: Position.optional().describe(`explicit position on a surface, ${BASE_FRAME}`),
      })
      .refine((a) => Boolean(a.target) !== Boolean(a.position), { message: 'give exactly one of "target" or "position"' }),
    card: {
      outputs: 'where the object ended up, or why it could not be placed',
      whenToUse: 'after pick, to put the object down',
      dimension: 'execution',
      requires: ['arm'],
      tags: ['place', 'put', 'drop'],
    },
    execute: async ({ target, position }, { robot, signal }) =>
      guarded(async () => {
        if (position) {
          const base = await robot.perception.basePose();
          const o = await robot.arm!.place({ kind: 'point', position: toWorld(position, base), label: showPoint(position) }, signal);
          return outcomeResult(outcomeInBaseFrame(o, base));
        }
        const ref = await robot.perception.referencePoint(target!);
        const base = await robot.perception.basePose();
        if (ref)
          return outcomeResult(
            outcomeInBaseFrame(await robot.arm!.place({ kind: 'point', position: ref.position, label: ref.label }, signal), base),
          );
        return outcomeResult(
          outcomeInBaseFrame(await robot.arm!.place({ kind: 'object', id: await resolveName(robot, target!) }, signal), base),
        );
      }),
  }),
  defineTool({
    name: 'move_to',
    description: `Moves the gripper to a pose: a position in the ${BASE_FRAME}, and a tilt.`,
    category: 'action',
    params: z.strictObject({ pose: Pose }),
    card: {
      outputs: 'the pose reached, or why it is unreachable',
      whenToUse: 'to position the gripper explicitly',
      dimension: 'execution',
      requires: ['arm'],
      tags: ['move', 'gripper', 'pose'],
    },
    execute: async ({ pose }, { robot, signal }) => {
      const base = await robot.perception.basePose();
      const o = await robot.arm!.moveTool({ position: toWorld(pose.position, base), tiltDeg: pose.tilt_deg }, signal);
      return outcomeResult(outcomeInBaseFrame(o, base));
    },
  }),
  defineTool({
    name: 'move_to_home_pos',
    description: 'Moves the arm to its home position.',
    category: 'action',
    params: z.strictObject({}),
    card: {
      outputs: 'confirmation',
      whenToUse: 'at the end of a task, or to clear the workspace',
      dimension: 'execution',
      requires: ['arm'],
      tags: ['home', 'reset', 'retract'],
    },
    execute: async (_a, { robot, signal }) => outcomeResult(await robot.arm!.moveToPosture('home', signal)),
  }),
];
