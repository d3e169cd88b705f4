// RAIDER's human-assistive tools (paper 001 §5.2, Fig. 16): who is around, what
// they hold, see and need, answered from what the robot perceives of people.
import { z } from 'zod';
import { fail, guarded, metres, ok, resolveName } from '../common';
import { type Tool, defineTool } from '../tool';
import { objectDetection, reachAnswer, robotHolding } from './raider';

const humanParam = z.strictObject({
  specific_human: z
    .string()
    .min(1)
    .describe('the person: a recognised person by id or name, anyone else by the handle check_humans_around gave (person_1)'),
});

export const RAIDER_ASSISTIVE: Tool[] = [
  objectDetection,
  defineTool({
    name: 'check_free_path',
    description: 'Checks if the path to move to a target (human or object) is free and can be approached.',
    category: 'information',
    params: z.strictObject({ target: z.string().min(1).describe('human, object or place to approach') }),
    card: {
      outputs: 'whether the way is free, or what blocks it',
      whenToUse: 'before approaching a person, object or counter',
      dimension: 'perception',
      requires: ['base', 'people'],
      tags: ['path', 'free', 'blocked', 'approach', 'obstacle'],
    },
    execute: async ({ target }, { robot }) =>
      guarded(async () => {
        // Named as move_to names it, and planned as move_to drives it: "blocked" here is "blocked" there.
        const id = await resolveName(robot, target, ['location', 'person', 'object']);
        const r = await robot.people!.freePath(id);
        if (r.reason) return fail(`No path to ${id}: ${r.reason}.`, r);
        if (!r.free) return ok(`The path to ${id} is blocked by ${r.obstacle ?? 'an obstacle'}.`, r);
        const via = r.via ? ` (the straight way is blocked; it goes round via ${r.via} named place${r.via > 1 ? 's' : ''})` : '';
        return ok(`The path to ${id} is free${via}.`, r);
      }),
  }),
  defineTool({
    name: 'dist_between_objs',
    description: 'Returns the distance between two objects.',
    category: 'information',
    params: z.strictObject({ obj1: z.string().min(1), obj2: z.string().min(1) }),
    card: {
      outputs: 'distance in metres between the two objects',
      whenToUse: 'to ground "the medicine closest to the plant"',
      dimension: 'perception',
      requires: ['perception'],
      tags: ['distance', 'closest', 'between'],
    },
    execute: async ({ obj1, obj2 }, { robot }) =>
      guarded(async () => {
        const a = await resolveName(robot, obj1, ['object', 'person'], 'visible');
        const b = await resolveName(robot, obj2, ['object', 'person'], 'visible');
        const d = await robot.perception.distanceBetween(a, b);
        return ok(`${a} and ${b} are ${metres(d)} apart.`, { distanceM: Number(d.toFixed(3)) });
      }),
  }),
  robotHolding,
  defineTool({
    name: 'dist_robot_to_obj',
    description: 'Returns the distance from the robot to an object.',
    category: 'information',
    params: z.strictObject({ obj: z.string().min(1) }),
    card: {
      outputs: 'distance in metres from the robot arm to the object',
      whenToUse: 'to check the object is within reach before picking it',
      dimension: 'perception',
      requires: ['perception'],
      tags: ['distance', 'reach', 'reachable'],
    },
    execute: async ({ obj }, { robot }) =>
      guarded(async () => {
        const id = await resolveName(robot, obj, ['object'], 'visible');
        return reachAnswer(robot, id);
      }),
  }),
  defineTool({
    name: 'check_humans_around',
    description:
      'Checks for humans present (not necessarily recognized): a recognized person by name, anyone else by a handle (person_1) and where they are.',
    category: 'information',
    params: z.strictObject({}),
    card: {
      outputs: 'the people in view: names of those recognised, handles and places of the others',
      whenToUse: 'before any action that involves a person',
      dimension: 'perception',
      requires: ['people'],
      tags: ['human', 'people', 'person', 'present'],
    },
    execute: async (_a, { robot }) => {
      const people = robot.people!;
      const ids = await people.around();
      const known = new Map((await people.recognize()).map((p) => [p.id, p.name]));
      // A name only for someone recognised; anyone else is their handle and where they stand.
      const said = await Promise.all(
        ids.map(async (id) => {
          const name = known.get(id);
          if (name) return `${name} (${id})`;
          const where = people.describe ? await people.describe(id) : 'a person not recognized';
          return `${id} (${where}, not recognized)`;
        }),
      );
      return ok(ids.length ? `Humans around: ${said.join(', ')}.` : 'No humans around.', ids);
    },
  }),
  defineTool({
    name: 'recognize_humans',
    description: 'Identifies specific humans in sight with a name.',
    category: 'information',
    params: z.strictObject({}),
    card: {
      outputs: 'names of the people the robot recognises',
      whenToUse: 'to confirm the person to serve is present and identified',
      dimension: 'perception',
      requires: ['people'],
      tags: ['recognize', 'identify', 'name', 'face'],
    },
    execute: async (_a, { robot }) => {
      const r = await robot.people!.recognize();
      return ok(r.length ? `Recognized: ${r.map((p) => `${p.name} (${p.id})`).join(', ')}.` : 'Nobody is recognized.', r);
    },
  }),
  defineTool({
    name: 'dist_robot_to_human',
    description: 'Returns the distance from the robot to a human.',
    category: 'information',
    params: humanParam,
    card: {
      outputs: 'distance in metres between the robot and the person',
      whenToUse: 'before a handover (it must happen within 0.5 m)',
      dimension: 'perception',
      requires: ['people'],
      tags: ['distance', 'human', 'handover'],
    },
    execute: async ({ specific_human }, { robot }) =>
      guarded(async () => {
        const id = await resolveName(robot, specific_human, ['person']);
        const d = await robot.people!.distanceTo(id);
        return ok(`${id} is ${metres(d)} from the robot.`, { distanceM: Number(d.toFixed(3)) });
      }),
  }),
  defineTool({
    name: 'human_hands_free',
    description: "Checks if the human's hands are free to receive an object.",
    category: 'information',
    params: humanParam,
    card: {
      outputs: 'whether the person has a free hand',
      whenToUse: 'before handing something over',
      dimension: 'perception',
      requires: ['people'],
      tags: ['hands', 'free', 'handover', 'receive'],
    },
    execute: async ({ specific_human }, { robot }) =>
      guarded(async () => {
        const id = await resolveName(robot, specific_human, ['person']);
        const free = await robot.people!.handsFree(id);
        return ok(free ? `${id}'s hands are free.` : `${id}'s hands are not free.`, { handsFree: free });
      }),
  }),
  defineTool({
    name: 'detect_human_gaze',
    description: 'Checks if the human is looking at the robot, ready for interaction.',
    category: 'information',
    params: humanParam,
    card: {
      outputs: 'whether the person looks at the robot',
      whenToUse: 'before a handover or a spoken question',
      dimension: 'perception',
      requires: ['people'],
      tags: ['gaze', 'looking', 'attention'],
    },
    execute: async ({ specific_human }, { robot }) =>
      guarded(async () => {
        const id = await resolveName(robot, specific_human, ['person']);
        const g = await robot.people!.gazeAtRobot(id);
        return ok(g ? `${id} is looking at the robot.` : `${id} is not looking at the robot.`, { gazeAtRobot: g });
      }),
  }),
];
