// World-model getters and setters in the spirit of AIMM (paper 000 §II.C.3): the
// operator can ask for object poses and empty storages, and tell the robot about
// objects and properties. Every answer is the robot's world model, i.e. its
// belief (what it perceived, with when; what operators set, marked so), never
// the world behind it:
// - get_object_poses: the pose and support where the object was last perceived
//   (or put by the robot's own hand), and says when ("last seen at 12.4 s on
//   table_1"); an object moved out of view keeps its old place until seen again.
// - get_empty_storages: "empty" only for a storage the robot has looked inside
//   since the last change it could have missed; every other storage it believes
//   empty is "not known" (closed, or its inside not in view since).
// - add_object / set_object_property write the belief, as the operator's word.
import { z } from 'zod';
import type { WorldModelNode } from '../../../robot/robot';
import { fail, ok } from '../common';
import { BASE_FRAME, toBase } from '../frames';
import { type Tool, defineTool } from '../tool';

/**
 * A time as the record keeps it (to the hundredth): rounded once. Rounding the record's
 * 0.55 again to "0.6" told a time 0.05 s off the record, later than the "now 0.5 s" beside it.
 */
const seconds = (t: number): string => `${Number(t.toFixed(2))} s`;

/** When and how the robot knows where a node is, in words. */
function knownHow(n: WorldModelNode, now: number): string {
  if (n.source === 'operator') return `${n.where ?? 'where the operator said'}; not perceived`;
  if (!n.known) return n.type === 'robot' ? 'where the robot localises itself' : 'from the map (it does not move)';
  const t = seconds(n.known.time);
  const where = n.where ?? 'somewhere unknown';
  const said =
    n.known.how === 'held'
      ? "in the robot's hand now"
      : n.known.how === 'handed'
        ? `handed over at ${t} (${where})`
        : n.known.how === 'placed'
          ? /^resting on the robot/.test(where)
            ? `${where}, felt at ${t}`
            : `put ${where} by the robot itself at ${t}`
          : `last seen at ${t} ${where}`;
  const age = n.known.how === 'held' ? '' : ` (now ${seconds(now)}${n.known.time < now - 0.05 ? '; it may have moved since' : ''})`;
  const stale = n.known.stale ? '; seen by the wrist camera before the base last moved, so that pose is stale' : '';
  return `${said}${age}${stale}`;
}

const Value = z.union([z.string(), z.number(), z.boolean()]);

export const WORLD_MODEL_ACCESSORS: Tool[] = [
  defineTool({
    name: 'get_object_poses',
    description: `Returns the pose of an object in the robot's world model: its position in the ${BASE_FRAME} and what it is on or in, where the robot last perceived it, and when.`,
    category: 'information',
    params: z.strictObject({ object_name: z.string().min(1) }),
    card: {
      outputs: 'position and parent of the object',
      whenToUse: 'where is X?',
      dimension: 'cognition',
      requires: ['world_model'],
      tags: ['getter', 'pose', 'where', 'position'],
    },
    execute: async ({ object_name }, { robot }) => {
      const r = await robot.perception.resolve(object_name, { kinds: ['object'] });
      const wm = robot.worldModel!;
      const node = await wm.node(r.ok ? r.id : object_name);
      if (!node) return fail(r.ok ? `${r.id} is not in the world model` : r.message);
      // The pose of the thing asked, never of a place or a parent standing in for it.
      if (!node.position) return fail(`the world model has no position for ${node.id}`);
      const where = node.parent ? `${node.relation} ${node.parent}` : (node.where ?? 'not on anything known');
      const position = toBase(node.position, await robot.perception.basePose());
      const how = knownHow(node, await robot.time());
      return ok(`${node.id}: position ${JSON.stringify(position)} (base frame), ${where}; ${how}.`, { ...node, position, frame: 'base' });
    },
  }),
  defineTool({
    name: 'get_empty_storages',
    description:
      'Returns the storages (containers and receptacles) the robot knows to hold nothing (it looked inside since anything could have changed), and those whose contents it does not know.',
    category: 'information',
    params: z.strictObject({}),
    card: {
      outputs: 'ids of empty storages, and of storages whose contents are unknown',
      whenToUse: 'where can I put something?',
      dimension: 'cognition',
      requires: ['world_model'],
      tags: ['getter', 'storage', 'empty', 'container'],
    },
    execute: async (_a, { robot }) => {
      const nodes = await robot.worldModel!.nodes();
      const storages = nodes.filter((n) => n.attributes['storage'] === true);
      const holds = (s: { id: string }): boolean => nodes.some((n) => n.parent === s.id && n.relation === 'in');
      // Empty only when the robot looked inside since the last change it could have missed; else neither empty nor full.
      const unknown = storages.filter((s) => s.attributes['contents_known'] !== true && !holds(s)).map((s) => s.id);
      const empty = storages.filter((s) => s.attributes['contents_known'] === true && !holds(s)).map((s) => s.id);
      const said = empty.length ? `Empty storages: ${empty.join(', ')}.` : 'No storage is known to be empty.';
      const notKnown = unknown.length
        ? ` Contents unknown (closed, or not looked inside since something could have changed there): ${unknown.join(', ')}.`
        : '';
      return ok(`${said}${notKnown}`, { empty, unknown });
    },
  }),
  defineTool({
    name: 'add_object',
    description: 'Adds an object the operator knows about to the world model, under a parent (what it is on or in).',
    category: 'action',
    params: z.strictObject({
      object_name: z.string().regex(/^[a-z][a-z0-9_]*$/, 'use a lower-case id such as "tray_2"'),
      parent_name: z.string().min(1),
      object_type: z.string().min(1).default('object'),
      relation: z.enum(['on', 'in']).default('on'),
    }),
    card: {
      outputs: 'the new node',
      whenToUse: 'when the operator tells the robot about an object it has not perceived',
      dimension: 'cognition',
      requires: ['world_model'],
      tags: ['setter', 'add', 'object'],
    },
    execute: async ({ object_name, parent_name, object_type, relation }, { robot }) => {
      try {
        const n = await robot.worldModel!.addNode({ id: object_name, type: object_type, parent: parent_name, relation });
        return ok(`Added ${n.id} ${relation} ${n.parent} (operator-set: the robot has not perceived it).`, n);
      } catch (e) {
        return fail((e as Error).message);
      }
    },
  }),
  defineTool({
    name: 'set_object_property',
    description: 'Sets a property of an object in the world model (e.g. weight_kg, colour, owner).',
    category: 'action',
    params: z.strictObject({
      object_name: z.string().min(1),
      property_name: z.string().regex(/^[a-z][a-z0-9_]*$/, 'use a lower-case name such as "weight_kg"'),
      value: Value,
    }),
    card: {
      outputs: 'the updated node',
      whenToUse: 'when the operator corrects or adds a property',
      dimension: 'cognition',
      requires: ['world_model'],
      tags: ['setter', 'property', 'attribute'],
    },
    execute: async ({ object_name, property_name, value }, { robot }) => {
      try {
        const r = await robot.perception.resolve(object_name, { kinds: ['object'] });
        const n = await robot.worldModel!.setAttribute(r.ok ? r.id : object_name, property_name, value);
        return ok(`${n.id}.${property_name} = ${JSON.stringify(value)} (operator-set, not perceived).`, n);
      } catch (e) {
        return fail((e as Error).message);
      }
    },
  }),
];
